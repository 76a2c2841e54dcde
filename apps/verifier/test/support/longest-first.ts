// The order the verifier's test files start in. Vitest runs the longest first when it has timings
// from an earlier run, and the largest first when it has none, as on a fresh clone in CI: there
// reach.test.ts (small, and the longest of all) started last, 336 s in, and ran alone for 71 s of
// the suite's 408 on one of the two workers. The files that take longest, measured alone with
// /usr/bin/time (CPU-s, or wall where they wait), start first in this order; the rest follow in
// vitest's own order.
import { basename } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const LONGEST_FIRST = [
  "reach", // 18 CPU-s: 59 runs of one operation's checks
  "deployment", // 48 s of wall, most of it waiting on throttling gateways
  "faults", // 23 CPU-s
  // After two long files: under .ci/run the broker kit's packages may still be installing (on a
  // fresh machine they were ready ~80 s in), and a broker test waits for them.
  "broker", // 30 CPU-s and a Pact Broker
  "reports-replay", // 16 CPU-s and four vitest children
  "reports-browser", // headless Chromium
  "release-reasons", // a Pact Broker
  "learn",
  "engine",
  "learn-walkthrough",
  "edges",
  "case-feed",
  "console-output",
  "wire",
] as const;

const rank = (spec: TestSpecification): number => {
  const at = (LONGEST_FIRST as readonly string[]).indexOf(basename(spec.moduleId, ".test.ts"));
  return at === -1 ? LONGEST_FIRST.length : at;
};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: the files not listed keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
