import type { Worker } from "node:worker_threads";
import { startWorker } from "./worker-file.ts";

/**
 * Case threads between the runs of this process, kept for the next run (a test file, a library
 * user verifying more than once): no thread is started while another is being terminated, which
 * can crash Node (nodejs/node#56312: a test worker ended with SIGSEGV in a file of back-to-back
 * runs), and a run skips loading the thread's modules. An idle thread keeps no process alive.
 * A module of its own, light to import: the CLI starts one before it loads the rest (cli.ts).
 */
const idle: Worker[] = [];
/** Idle case threads kept at most (runs of one process at the same time are few). */
const IDLE_KEPT = 2;

function started(): Worker {
  const w = startWorker("case-worker", "case-worker", undefined);
  // A thread that ends while idle is never handed out again.
  w.on("exit", () => {
    const i = idle.indexOf(w);
    if (i >= 0) idle.splice(i, 1);
  });
  return w;
}

/** An idle thread, or a new one. */
export function takeThread(): Worker {
  const kept = idle.pop();
  if (kept) {
    kept.ref();
    return kept;
  }
  return started();
}

/** Keeps `w` for the next run (idle, unreferenced), or ends it when enough are kept. */
export async function giveBack(w: Worker): Promise<void> {
  w.removeAllListeners("message");
  w.removeAllListeners("error");
  if (idle.length >= IDLE_KEPT) {
    await w.terminate();
    return;
  }
  w.unref();
  idle.push(w);
}

/**
 * Starts a case thread now, idle, for the run to come: its modules load while the caller loads
 * its own (a new thread spends most of its first half second loading them).
 */
export function startCaseThreadEarly(): void {
  if (idle.length > 0) return;
  const w = started();
  w.unref();
  idle.push(w);
}
