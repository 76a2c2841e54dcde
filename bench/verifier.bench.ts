// `pnpm bench:verifier`: idp-verify's conformance engine next to the wire's ceiling, in one run.
//
//   node bench/verifier.bench.ts [--runs 2000] [--seconds 5] [--concurrency C]
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
import { samplePeak } from "./support/process-tree.mjs";
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
  stop(): Promise<void>;
};
try {
  const raw = await autocannon({
    url: `${provider.baseUrl}/marketing/datastore/schemas`,
    method: "POST",
    connections: 10,
    duration: Number(values.seconds),
    body,
    headers: { "content-type": "application/json", authorization: auth },
  });
  if (raw.non2xx > 0 || raw.errors > 0)
    throw new Error(`autocannon: ${raw.non2xx} non-2xx, ${raw.errors} errors`);

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
    ...(process.env.THREADS ? ["--threads", process.env.THREADS] : []),
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...CREDS },
    stdio: "ignore",
  });
  const peak = samplePeak(child.pid);
  const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  const seconds = (performance.now() - started) / 1000;
  const rss = peak.stop();
  const r = JSON.parse(readFileSync(report, "utf8")) as {
    requests: { sent: number };
    durationMs: number;
    verdict: string;
  };
  const rps = r.requests.sent / seconds;
  console.log(`| measure | value |`);
  console.log(`|---|---|`);
  console.log(
    `| autocannon, valid create schema, 10 connections, ${values.seconds} s | ${Math.round(raw.requests.average)} req/s |`,
  );
  console.log(
    `| idp-verify --runs ${values.runs} (R1-R8, with states): requests | ${r.requests.sent} |`,
  );
  console.log(
    `| idp-verify: seconds, spawn to exit (engine alone) | ${seconds.toFixed(1)} (${(r.durationMs / 1000).toFixed(1)}) |`,
  );
  console.log(`| idp-verify: requests/s | ${Math.round(rps)} |`);
  console.log(`| **ratio** (goal >= 0.5) | **${(rps / raw.requests.average).toFixed(3)}** |`);
  console.log(`| peak RSS of idp-verify's process tree | ${Math.round(rss / 2 ** 20)} MiB |`);
  console.log(`| verdict, exit | ${r.verdict}, ${code} |`);
} finally {
  await provider.stop();
}
