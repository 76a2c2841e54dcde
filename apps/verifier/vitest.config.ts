import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";
import { LongestFirst } from "./test/support/longest-first.ts";

export default mergeConfig(
  shared,
  // defineConfig, not defineProject: the sequencer is a run's option (this package's own run, as
  // turbo starts it; in the root's projects mode it is not read).
  defineConfig({
    test: {
      name: "@idp/verifier",
      // One worker process runs many files, as in the other packages (vitest.shared.ts): a run's
      // process-wide state is made to be kept between runs (the case threads, Pact's worker
      // processes; Pact's core never loads here), and a fresh module graph per file cost the suite
      // a fifth of its CPU (measured alone: 224 s and 343 CPU-s, against 401 CPU-s).
      // Two files at a time: vitest's default is one worker less than the cores, one here, and
      // most of these files wait (on providers, brokers, timers) more than they compute: run one
      // at a time, the suite was its files' durations end to end (455 s of 548 in CI).
      maxWorkers: 2,
      // The longest files first, also where vitest has no timings (a fresh clone).
      sequence: { sequencer: LongestFirst },
    },
  }),
);
