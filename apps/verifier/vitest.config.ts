import { defineProject, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

export default mergeConfig(
  shared,
  defineProject({
    test: {
      name: "@idp/verifier",
      // A fresh worker per file: its files are end-to-end runs that start providers, brokers and
      // threads, and a run's process-wide state (signal handlers, the Pact core) stays in its file.
      isolate: true,
      // Two files at a time: vitest's default is one worker less than the cores, one here, and
      // most of these files wait (on providers, brokers, timers) more than they compute: run one
      // at a time, the suite was its files' durations end to end (455 s of 548 in CI).
      maxWorkers: 2,
    },
  }),
);
