// Peak resident memory of a process and all its descendants, sampled from /proc (Linux).
import { readdirSync, readFileSync } from "node:fs";

function childrenOf(pid) {
  const out = [];
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    } catch {
      // the task ended
    }
  }
  return out;
}

function rssKiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of `pid` and every descendant, in bytes. */
export function treeRss(pid) {
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop();
    total += rssKiB(p) * 1024;
    stack.push(...childrenOf(p));
  }
  return total;
}

/** Samples `treeRss(pid)` every `ms` until stopped; returns the peak seen. */
export function samplePeak(pid, ms = 25) {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(pid));
  }, ms);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, treeRss(pid));
      return peak;
    },
  };
}

/** CPU seconds (user + system) `pid` has used so far, from /proc/PID/stat (Linux). */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, fields 14 and 15 of stat(5) (11 and 12 after the command), in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
