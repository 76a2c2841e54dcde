// `pnpm bench:mutation`: mutation testing of the reference provider (apps/provider/src) with
// idp-verify as the test suite (bench/mutation/run-mutant.mjs). Not run in CI: every mutant costs
// a provider start and a verification. MUTATION_CHECKS picks the checks (default R1-R9).
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  mutate: [
    "apps/provider/src/**/*.ts",
    "!apps/provider/src/**/*.test.ts",
    "!apps/provider/src/cli.ts",
  ],
  testRunner: "command",
  commandRunner: { command: "node bench/mutation/run-mutant.mjs" },
  // The mutants live in the sources themselves (mutation switching, chosen per run by an
  // environment variable): the provider runs from source, so no sandbox copy of the workspace.
  inPlace: true,
  coverageAnalysis: "off",
  concurrency: 2,
  timeoutMS: 60_000,
  timeoutFactor: 2,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportMutants: false },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
