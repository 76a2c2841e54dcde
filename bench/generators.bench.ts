// Samples per second: each arbitrary derived from the contracts vs a hand-written fast-check
// arbitrary of the same shape and value distributions, written the way a fast-check user would
// (strings from fc.string; the derived ones draw theirs with unit-string.ts); and the stress bodies (exact text,
// up to 1 MiB each) against the valid bodies of the same operation, in the same run.
// Run: node bench/generators.bench.ts
// (after `pnpm --filter @idp/contracts build`). Not a test: numbers depend on the machine.
import fc from "fast-check";
import {
  clusteringRulesArb,
  createSchemaRequestArb,
  invalidBodyArb,
  stressBodyArb,
  userPublishRequestArb,
  validBodyArb,
} from "../packages/generators/src/index.ts";

const str = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme" }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary" }) },
  { weight: 1, arbitrary: fc.constant("") },
);
const key = str.map((k) => (k === "__proto__" ? "__proto__\u200b" : k));
const int = fc.oneof(
  { weight: 4, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.maxSafeInteger() },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1, 2 ** 53, 2 ** 63) },
);
const list = <T>(a: fc.Arbitrary<T>) => fc.array(a, { maxLength: 10 });
const rec = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }, requiredKeys?: (keyof T)[]) =>
  fc.record(model, { noNullPrototype: true, ...(requiredKeys ? { requiredKeys } : {}) });

const handCreateSchema = rec({
  schema: rec({
    name: str,
    fields: list(
      rec(
        {
          name: str,
          type: fc.constantFrom("string", "integer", "date_time"),
          unique: fc.boolean(),
        },
        ["name", "type"],
      ),
    ),
    permissions: rec({ write_protected: fc.boolean(), read_protected: fc.boolean() }),
  }),
});
const handPush = rec({
  data: rec({
    message: str,
    title: str,
    small_icon: str,
    vibrate: fc.boolean(),
    vibrate_duration: int,
    auto_cancel: fc.boolean(),
    big_style: fc.boolean(),
    activity_class: str,
    badge: int,
    sound: str,
  }),
});
const handClustering = rec({
  rules: rec({
    features: fc.dictionary(
      key,
      rec({
        labels: list(rec({ name: str, keywords: list(str) })),
        classifier: rec(
          {
            type: fc.constant("likes"),
            categories: list(str),
            threshold: fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })),
            excluded_words: list(str),
          },
          ["type", "categories", "threshold"],
        ),
      }),
      { maxKeys: 10, noNullPrototype: true },
    ),
    parameters: rec({ excluded_words: list(str) }),
  }),
});

function rate(arb: fc.Arbitrary<unknown>, batch = 500): number {
  fc.sample(arb, { numRuns: batch, seed: 1 }); // warm-up
  let n = 0;
  let seed = 0;
  const start = performance.now();
  while (performance.now() - start < 1500) {
    fc.sample(arb, { numRuns: batch, seed: seed++ });
    n += batch;
  }
  return Math.round(n / ((performance.now() - start) / 1000));
}

const rows: [string, fc.Arbitrary<unknown>, fc.Arbitrary<unknown>][] = [
  ["create schema", createSchemaRequestArb(), handCreateSchema],
  ["push payload", userPublishRequestArb(), handPush],
  ["clustering rules", clusteringRulesArb(), handClustering],
];
process.stdout.write(
  "| arbitrary | derived (samples/s) | hand-written (samples/s) | ratio |\n|---|---|---|---|\n",
);
for (const [name, derived, hand] of rows) {
  const d = rate(derived);
  const h = rate(hand);
  process.stdout.write(`| ${name} | ${d} | ${h} | ${(d / h).toFixed(2)}x |\n`);
}
for (const op of ["createSchema", "pushToUserDevices", "updateClusteringRules"] as const)
  process.stdout.write(`| invalid ${op} | ${rate(invalidBodyArb(op))} | - | - |\n`);

process.stdout.write(
  "\n| operation | stress (samples/s) | valid (samples/s) | ratio | stress MiB/s |\n|---|---|---|---|---|\n",
);
for (const op of ["createSchema", "pushToUserDevices", "updateClusteringRules"] as const) {
  let bytes = 0;
  const counted = stressBodyArb(op).map((c) => {
    bytes += c.text.length;
    return c;
  });
  const start = performance.now();
  const s = rate(counted, 50);
  const mibs = bytes / 1_048_576 / ((performance.now() - start) / 1000);
  const v = rate(validBodyArb(op));
  process.stdout.write(`| ${op} | ${s} | ${v} | ${(s / v).toFixed(3)}x | ${mibs.toFixed(0)} |\n`);
}
