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
      // Its files wait on servers, brokers, gateways and child processes about half of their time:
      // on 2 cores, the suite alone took 377 s of wall time for 401 CPU-s with 2 workers, 272 s
      // with 4 (/usr/bin/time, same 543 tests passing).
      maxWorkers: 4,
    },
  }),
);
