import { defineConfig, mergeConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import shared from "../../vitest.shared.ts";

/**
 * The longest files first (the rest in vitest's own order): on a fresh clone vitest has no record of
 * durations, and a 100 s file started last was the suite's tail in CI. Measured on 2 cores with the
 * suite alone; a file missing from the list only runs in the default order.
 */
const LONGEST_FIRST = [
  "reach.test.ts",
  "reports-replay.test.ts",
  "deployment.test.ts",
  "faults.test.ts",
  "broker.test.ts",
  "wire.test.ts",
  "reports-browser.test.ts",
  "engine.test.ts",
  "release-reasons.test.ts",
  "learn.test.ts",
];
const rank = (s: TestSpecification) => {
  const i = LONGEST_FIRST.findIndex((name) => s.moduleId.endsWith(`/test/${name}`));
  return i < 0 ? LONGEST_FIRST.length : i;
};

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      name: "@idp/verifier",
      // A fresh worker per file: its files are end-to-end runs that start providers, brokers and
      // threads, and a run's process-wide state (signal handlers, the Pact core) stays in its file.
      isolate: true,
      // Its files wait on servers, brokers, gateways and child processes about half of their time:
      // on 2 cores, the suite alone took 377 s of wall time for 401 CPU-s with 2 workers, 272 s
      // with 4 (/usr/bin/time, same 543 tests passing).
      maxWorkers: 4,
      sequence: { sequencer: LongestFirst },
    },
  }),
);
