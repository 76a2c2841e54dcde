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
    },
  }),
);
