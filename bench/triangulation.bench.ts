// Triangulation time: the committed pacts against the zod contracts, the OpenAPI export and the
// Pact-OpenAPI comparator, in process (the target is under one second). Run from the repo root:
//   node bench/triangulation.bench.ts
// Not a test: numbers depend on the machine.
import { triangulate } from "../packages/pact-consumer/src/triangulate.ts";

const runs = 10;
await triangulate(); // warm-up: module loading and the comparator's first compile
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  const report = await triangulate();
  times.push(performance.now() - start);
  if (!report.ok) throw new Error("triangulation failed: the committed pacts do not agree");
}
times.sort((a, b) => a - b);
const median = times[Math.floor(runs / 2)] ?? 0;
process.stdout.write(
  `triangulation of the committed pacts: median ${median.toFixed(0)} ms, ` +
    `min ${(times[0] ?? 0).toFixed(0)} ms, max ${(times[runs - 1] ?? 0).toFixed(0)} ms over ${runs} runs\n`,
);
