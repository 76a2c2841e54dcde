#!/usr/bin/env node
// The raw reference of bench:verifier: sends the requests a provider recorded (run-hand-provider.mjs
// --record), in their order, with a plain undici Pool and a fixed number in flight; nothing is
// generated or judged, every answer is read to its end. Prints one JSON line: requests, seconds
// (first send to last answer) and this process's CPU seconds over that time.
//
//   node bench/support/replay.mjs RECORDING.ndjson ORIGIN --connections 16
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("../..", import.meta.url));
// The verifier's own undici: the same HTTP client idp-verify uses.
const { Pool } = createRequire(join(root, "apps", "verifier", "package.json"))("undici");
const { values, positionals } = parseArgs({
  options: { connections: { type: "string", default: "16" } },
  allowPositionals: true,
});
const [file, origin] = positionals;
if (!file || !origin) {
  process.stderr.write("usage: replay.mjs RECORDING.ndjson ORIGIN [--connections N]\n");
  process.exit(2);
}
const connections = Number(values.connections);
// Everything is decoded before the clock starts: the replay measures sending, not reading a file.
// Read as bytes and split by line: a recording of --runs 2000 is larger than a string may be.
const bytes = readFileSync(file);
const requests = [];
for (let start = 0; start < bytes.length; ) {
  let end = bytes.indexOf(10, start);
  if (end < 0) end = bytes.length;
  if (end > start) {
    const r = JSON.parse(bytes.toString("utf8", start, end));
    requests.push({
      method: r.method,
      path: r.url,
      headers: r.headers,
      body: r.body === "" ? undefined : Buffer.from(r.body, "base64"),
    });
  }
  start = end + 1;
}
const pool = new Pool(origin, { connections, pipelining: 1 });
let next = 0;
let answered = 0;
const cpu = process.cpuUsage();
const started = performance.now();
async function lane() {
  for (let i = next++; i < requests.length; i = next++) {
    const r = requests[i];
    const res = await pool.request(r);
    for await (const _ of res.body) {
      // read to the end, as any client that judges the answer must
    }
    answered++;
  }
}
await Promise.all(Array.from({ length: connections }, lane));
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
await pool.close();
process.stdout.write(
  `${JSON.stringify({ requests: answered, seconds, cpuSeconds: (used.user + used.system) / 1e6 })}\n`,
);
