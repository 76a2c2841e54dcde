// `pnpm bench:verifier`: idp-verify against a raw client sending exactly the requests it sends.
//
//   node bench/verifier.bench.ts [--runs 100,2000] [--rounds 5] [--seed 3] [--checks R1,...,R8]
//     [--concurrency 16] [--threads N]
//
// For each --runs: 1. a conforming in-memory provider (@idp/fault-providers' hand provider, its own
// process) records every request of `idp-verify --runs N --seed S --checks R1,...,R8` with provider
// states (the bench's provider writes them, not the product); 2. on fresh providers, in rounds,
// idp-verify again (same seed: the same requests) and a plain undici Pool replaying the recording
// with as many in flight as idp-verify (16), nothing generated, nothing judged; odd rounds run
// idp-verify first, even rounds the replay. Each rate is measured where both are alike, at the
// provider: requests over the time from the first to the last request it received (no process
// start-up in either). CPU per request is the client process's own (idp-verify's workers are its
// threads), read between the provider's first and last request (sampled from /proc every 10 ms).
// Prints both rates, both CPU costs and each round's ratio; per size, the median ratio of its
// rounds (this machine's speed moves by a quarter from one run to the next, so one round is one
// draw); the verdict is the smaller of the sizes' medians, printed with the range of every round.
// Build first (`pnpm exec turbo run build`).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { cpuSeconds, samplePeak } from "./support/process-tree.mjs";
import { spawnProvider } from "./support/spawn-provider.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "apps", "verifier", "dist", "cli.mjs");
const replay = join(root, "bench", "support", "replay.mjs");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "100,2000" },
    // Odd, so each size has a middle round. Five: the machine's speed moves by a quarter between
    // runs seconds apart, and with three rounds one slow phase could decide a size's median.
    rounds: { type: "string", default: "5" },
    seed: { type: "string", default: "3" },
    // The checks recorded and verified (the measure is R1-R8).
    checks: { type: "string", default: "R1,R2,R3,R4,R5,R6,R7,R8" },
    // Passed to idp-verify (its --threads): the replay stays one process.
    threads: { type: "string" },
    // Passed to idp-verify (its --concurrency) and used as the replay's connections.
    concurrency: { type: "string", default: "16" },
  },
});
const CREDS = { IDP_USERNAME: "bench-user", IDP_PASSWORD: "bench-password-0" };
const CHECKS = values.checks as string;
const CONNECTIONS = Number(values.concurrency); // idp-verify's default --concurrency is 16
const dir = mkdtempSync(join(tmpdir(), "idp-bench-verifier-"));

interface Provider {
  baseUrl: string;
  statesUrl: string;
  pid: number;
  stop(): Promise<void>;
}
interface Stats {
  requests: number;
  first: number;
  last: number;
  /** The provider's event-loop utilisation between its first and last request. */
  busy?: number;
  /** The provider process's CPU (all its threads), µs, between about its first and last request. */
  cpuMicros?: number;
}

/** A fresh provider; its stats (and recording) are written when it stops. */
async function withProvider<T>(
  name: string,
  record: boolean,
  use: (p: Provider) => Promise<T>,
): Promise<{ result: T; stats: Stats }> {
  const statsFile = join(dir, `${name}.stats.json`);
  const args = [
    "--stats",
    statsFile,
    ...(record ? ["--record", join(dir, "recording.ndjson")] : []),
  ];
  const provider = (await spawnProvider(args, CREDS)) as Provider;
  let result: T;
  try {
    result = await use(provider);
  } finally {
    await provider.stop();
  }
  return { result, stats: JSON.parse(readFileSync(statsFile, "utf8")) as Stats };
}

/**
 * Runs a command to its end, sampling its process tree's CPU seconds every 10 ms with the time
 * (epoch ms), so the CPU spent between two instants (the provider's first and last request) can be
 * read off; and its peak RSS.
 */
async function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "ignore"],
  });
  let out = "";
  child.stdout.on("data", (c) => {
    out += c;
  });
  const peak = samplePeak(child.pid as number);
  const samples: { t: number; cpu: number }[] = [];
  const sample = () =>
    samples.push({
      t: performance.timeOrigin + performance.now(),
      cpu: cpuSeconds(child.pid as number),
    });
  const sampler = setInterval(sample, 10);
  const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  clearInterval(sampler);
  /** CPU seconds at instant `t`, interpolated between the samples around it. */
  const cpuAt = (t: number) => {
    const valid = samples.filter((s) => s.cpu > 0);
    let before = valid[0] ?? { t, cpu: 0 };
    for (const s of valid) {
      if (s.t >= t) {
        const f = s.t === before.t ? 1 : (t - before.t) / (s.t - before.t);
        return before.cpu + f * (s.cpu - before.cpu);
      }
      before = s;
    }
    return before.cpu;
  };
  return { code, out, rss: peak.stop(), cpuBetween: (a: number, b: number) => cpuAt(b) - cpuAt(a) };
}

const verifyArgs = (p: Provider, runs: string) => [
  cli,
  "--provider-url",
  p.baseUrl,
  "--provider-states-url",
  p.statesUrl,
  "--checks",
  CHECKS,
  "--runs",
  runs,
  "--seed",
  values.seed as string,
  ...(values.threads ? ["--threads", values.threads] : []),
  ...(values.concurrency === "16" ? [] : ["--concurrency", values.concurrency as string]),
];

const rate = (s: Stats) => (s.requests - 1) / ((s.last - s.first) / 1000);
const us = (seconds: number, n: number) => Math.round((seconds / n) * 1e6);
const busy = (s: Stats) =>
  s.busy === undefined || s.cpuMicros === undefined
    ? "?"
    : `${Math.round(s.busy * 100)}%, ${Math.round(s.cpuMicros / s.requests)} µs`;

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1
    ? (s[mid] as number)
    : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const medians: number[] = [];
const every: number[] = [];
try {
  for (const runs of (values.runs as string).split(",")) {
    // 1. Record the requests of one verification.
    const recorded = await withProvider(`record-${runs}`, true, (p) =>
      run(verifyArgs(p, runs), CREDS),
    );
    if (recorded.result.code !== 0)
      throw new Error(
        `idp-verify must pass against the conforming provider (exit ${recorded.result.code})`,
      );
    const bytes = statSync(join(dir, "recording.ndjson")).size;
    console.log(
      `\n--runs ${runs} --seed ${values.seed} --checks ${CHECKS} (with provider states): ${recorded.stats.requests} requests recorded (${Math.round(bytes / 2 ** 20)} MiB of NDJSON, bodies in base64)`,
    );
    console.log(
      "| round | idp-verify req/s | its CPU µs/request | provider busy, CPU/request | raw replay req/s | its CPU µs/request | provider busy, CPU/request | ratio | idp-verify peak RSS |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    const ratios: number[] = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      // 2. Alternate, each on a fresh provider: idp-verify then the raw replay in odd rounds, the
      // replay first in even ones (the machine's speed drifts: neither side always goes second).
      const verify = () =>
        withProvider(`verify-${runs}-${round}`, false, (p) => run(verifyArgs(p, runs), CREDS));
      const replayRun = () =>
        withProvider(`replay-${runs}-${round}`, false, (p) =>
          run([
            replay,
            join(dir, "recording.ndjson"),
            new URL(p.baseUrl).origin,
            "--connections",
            String(CONNECTIONS),
          ]),
        );
      const odd = round % 2 === 1;
      const first = odd ? await verify() : await replayRun();
      const second = odd ? await replayRun() : await verify();
      const [v, r] = odd ? [first, second] : [second, first];
      const replayed = JSON.parse(r.result.out) as { requests: number };
      if (replayed.requests !== recorded.stats.requests)
        throw new Error(
          `the replay sent ${replayed.requests} of ${recorded.stats.requests} requests`,
        );
      const ratio = rate(v.stats) / rate(r.stats);
      ratios.push(ratio);
      every.push(ratio);
      console.log(
        `| ${round} | ${Math.round(rate(v.stats))} | ${us(v.result.cpuBetween(v.stats.first, v.stats.last), v.stats.requests)} | ${busy(v.stats)} | ${Math.round(rate(r.stats))} | ${us(r.result.cpuBetween(r.stats.first, r.stats.last), r.stats.requests)} | ${busy(r.stats)} | **${ratio.toFixed(2)}** | ${Math.round(v.result.rss / 2 ** 20)} MiB |`,
      );
      if (v.result.code !== 0)
        throw new Error(`idp-verify exit ${v.result.code} in round ${round}`);
    }
    medians.push(median(ratios));
    console.log(
      `--runs ${runs}: median ratio ${median(ratios).toFixed(2)} of ${ratios.length} rounds (${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)})`,
    );
  }
  console.log(
    `\nratio: ${Math.min(...medians).toFixed(2)}, the smaller median of the sizes (goal >= 0.8); every round: ${Math.min(...every).toFixed(2)} to ${Math.max(...every).toFixed(2)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
