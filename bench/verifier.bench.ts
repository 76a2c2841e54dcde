// `pnpm bench:verifier`: idp-verify's conformance engine next to the wire's ceiling, in one run.
//
//   node bench/verifier.bench.ts [--runs 2000] [--seconds 5] [--concurrency C] [--threads T]
//
// 1. A fast in-memory conforming provider (@idp/fault-providers' hand provider, no SQLite) in its own
//    process; 2. autocannon on one endpoint (valid create schema, 10 connections) for the raw
//    ceiling; 3. `idp-verify --runs N` (every conformance check, with provider states) as its own
//    process, timed from spawn to exit, its peak resident memory (process tree) sampled from /proc.
// Prints requests, seconds and the ratio (idp-verify's requests/s over autocannon's). Build first.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { cpuSeconds, samplePeak } from "./support/process-tree.mjs";
import { spawnProvider } from "./support/spawn-provider.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "apps", "verifier", "dist", "cli.mjs");
const require = createRequire(join(root, "apps", "verifier", "package.json"));
const autocannon = require("autocannon") as (o: unknown) => Promise<{
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}>;
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "2000" },
    seconds: { type: "string", default: "5" },
    concurrency: { type: "string" },
    threads: { type: "string" },
  },
});
const CREDS = { IDP_USERNAME: "bench-user", IDP_PASSWORD: "bench-password-0" };
const auth = `Basic ${Buffer.from(`${CREDS.IDP_USERNAME}:${CREDS.IDP_PASSWORD}`).toString("base64")}`;
const body = JSON.stringify({
  schema: {
    name: "bench",
    fields: [{ name: "a", type: "string", unique: true }],
    permissions: { write_protected: false, read_protected: true },
  },
});

const provider = (await spawnProvider([], CREDS)) as {
  baseUrl: string;
  statesUrl: string;
  pid: number;
  stop(): Promise<void>;
};
/** autocannon on one endpoint: requests/s, and the provider's CPU per request meanwhile. */
async function ceiling(seconds: number) {
  const cpu = cpuSeconds(provider.pid);
  const raw = await autocannon({
    url: `${provider.baseUrl}/marketing/datastore/schemas`,
    method: "POST",
    connections: 10,
    duration: seconds,
    body,
    headers: { "content-type": "application/json", authorization: auth },
  });
  if (raw.non2xx > 0 || raw.errors > 0)
    throw new Error(`autocannon: ${raw.non2xx} non-2xx, ${raw.errors} errors`);
  return {
    rps: raw.requests.average,
    providerUs: ((cpuSeconds(provider.pid) - cpu) / raw.requests.total) * 1e6,
  };
}
try {
  // A warm-up (the provider's JIT), then the ceiling before and after idp-verify: the reference is
  // their mean, and both are printed, so a machine that changed pace during the run shows.
  await ceiling(1);
  const before = await ceiling(Number(values.seconds));

  const report = join(tmpdir(), `idp-bench-${process.pid}.json`);
  const args = [
    cli,
    "--provider-url",
    provider.baseUrl,
    "--provider-states-url",
    provider.statesUrl,
    "--checks",
    "R1,R2,R3,R4,R5,R6,R7,R8",
    "--runs",
    values.runs,
    "--seed",
    "1",
    "--report",
    `json=${report}`,
    ...(values.concurrency ? ["--concurrency", values.concurrency] : []),
    ...(values.threads ? ["--threads", values.threads] : []),
  ];
  const providerCpu = cpuSeconds(provider.pid);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...CREDS },
    stdio: "ignore",
  });
  const peak = samplePeak(child.pid);
  const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  const seconds = (performance.now() - started) / 1000;
  const rss = peak.stop();
  const providerUs = ((cpuSeconds(provider.pid) - providerCpu) / seconds) * 1e6;
  const after = await ceiling(Number(values.seconds));
  const reference = (before.rps + after.rps) / 2;
  const r = JSON.parse(readFileSync(report, "utf8")) as {
    requests: { sent: number };
    durationMs: number;
    verdict: string;
  };
  const rps = r.requests.sent / seconds;
  const perRequest = (us: number, n: number) => `${Math.round(us / n)} µs`;
  console.log(`| measure | value |`);
  console.log(`|---|---|`);
  console.log(
    `| autocannon, valid create schema, 10 connections, ${values.seconds} s, before / after | ${Math.round(before.rps)} / ${Math.round(after.rps)} req/s |`,
  );
  console.log(
    `| provider CPU per request under autocannon | ${Math.round(before.providerUs)} µs |`,
  );
  console.log(
    `| idp-verify --runs ${values.runs} (R1-R8, with states): requests | ${r.requests.sent} |`,
  );
  console.log(
    `| idp-verify: seconds, spawn to exit (engine alone) | ${seconds.toFixed(1)} (${(r.durationMs / 1000).toFixed(1)}) |`,
  );
  console.log(`| idp-verify: requests/s | ${Math.round(rps)} |`);
  console.log(
    `| provider CPU per request under idp-verify (its mix: stressed bodies, states) | ${perRequest(providerUs * seconds, r.requests.sent)} |`,
  );
  // The provider is one Node process: one core. At its CPU per request in idp-verify's mix, this is
  // the most any client could get from it, however little the client itself cost.
  const providerBound = 1e6 / ((providerUs * seconds) / r.requests.sent);
  console.log(
    `| the provider's own limit on that mix (one core), as a ratio to the ceiling | ${Math.round(providerBound)} req/s, ${(providerBound / reference).toFixed(3)} |`,
  );
  console.log(
    `| **ratio** to the mean ceiling (goal >= 0.5) | **${(rps / reference).toFixed(3)}** |`,
  );
  console.log(`| peak RSS of idp-verify's process tree | ${Math.round(rss / 2 ** 20)} MiB |`);
  console.log(`| verdict, exit | ${r.verdict}, ${code} |`);
  if (code !== 0) {
    console.error("bench:verifier: idp-verify must pass against the conforming provider");
    process.exitCode = 1;
  }
} finally {
  await provider.stop();
}
