#!/usr/bin/env node
// Peak resident memory of idp-verify's whole process tree (the CLI and Pact's worker) against
// hostile providers, each in a process of its own: the run must end by itself, exit 1 or 2, under
// 512 MiB. Build first (pnpm verify builds, or pnpm exec turbo run build).
//
//   node bench/hostile-memory.mjs [--runs 100]
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { samplePeak } from "./support/process-tree.mjs";
import { spawnProvider } from "./support/spawn-provider.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "apps", "verifier", "dist", "cli.mjs");
const { values } = parseArgs({ options: { runs: { type: "string", default: "100" } } });
const LIMIT = 512 * 1024 * 1024;
const CREDS = { IDP_USERNAME: "bench-user", IDP_PASSWORD: "bench-password-0" };

const cases = [
  ...["hang", "reset", "drip", "redirect-loop", "garbage", "bad-json", "huge-body"].map((k) => ({
    name: `hostile ${k}`,
    args: ["--hostile", k],
    states: false,
  })),
  {
    name: "fault big-body (512 MiB answers, with states and pacts)",
    args: ["--fault", "big-body"],
    states: true,
  },
  { name: "fault echo-authorization", args: ["--fault", "echo-authorization"], states: true },
  { name: "conforming provider", args: [], states: true },
];

const rows = [];
for (const c of cases) {
  const provider = await spawnProvider(c.args, CREDS);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      cli,
      "--provider-url",
      provider.baseUrl,
      ...(c.states ? ["--provider-states-url", provider.statesUrl] : []),
      "--runs",
      values.runs,
      "--seed",
      "1",
      "--timeout-ms",
      "2000",
      "--max-duration",
      "120",
    ],
    { env: { ...process.env, ...CREDS }, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout.resume();
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const peak = samplePeak(child.pid);
  const code = await new Promise((r) => child.once("exit", (code) => r(code)));
  const rss = peak.stop();
  await provider.stop();
  const stack = /\n\s+at /.test(stderr);
  rows.push({ name: c.name, code, seconds: (performance.now() - started) / 1000, rss, stack });
  process.stderr.write(`${c.name}: exit ${code}, ${(rss / 2 ** 20).toFixed(0)} MiB\n`);
}

console.log(`| provider | exit | seconds | peak RSS of the process tree |`);
console.log(`|---|---|---|---|`);
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.code} | ${r.seconds.toFixed(1)} | ${(r.rss / 2 ** 20).toFixed(0)} MiB |`,
  );
const bad = rows.filter((r) => r.rss >= LIMIT || r.stack || ![0, 1, 2].includes(r.code));
if (bad.length > 0) {
  console.error(
    `over 512 MiB, a stack trace, or no exit code: ${bad.map((r) => r.name).join(", ")}`,
  );
  process.exit(1);
}
