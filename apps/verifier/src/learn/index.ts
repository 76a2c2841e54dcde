import { resolve } from "node:path";
import { DETAILED_OPERATION_IDS } from "@idp/contracts";
import type { ConformanceOutcome } from "../engine/conformance.ts";
import { epochOf } from "../phases/context.ts";
import type { RunRecord } from "../phases/record.ts";
import type { CheckResult } from "../results.ts";
import { assertWritableFile, asWriteError } from "../writable.ts";
import { learnBounds } from "./bounds.ts";
import { learnErrorsItems, learnValuesInUse } from "./errors-values.ts";
import { learnedFileText, writeLearned } from "./file.ts";
import { Learning } from "./learning.ts";
import { Prober } from "./prober.ts";
import { unexplainedFailures } from "./run-failures.ts";
import { learnLoginUserStatuses, learnStatusMapping } from "./statuses.ts";
import type { LearnReport } from "./types.ts";

export { renderLearn } from "./render.ts";
export type { LearnedKey, LearnReport, NotLearned } from "./types.ts";

// `idp-verify --learn PATH` (conformance.md §6, "Learning a profile"): after the run's checks, a
// phase of its own asks the provider how it reads each gap the spec leaves, and writes a profile
// file that extends the profile in use and pins what the provider did consistently, each key with
// its evidence. The run's verdict is the run's own: the phase's requests are never judged.

/** Before the first request: the learned profile's path must be writable (as a report's is). */
export function assertLearnWritable(path: string): void {
  asWriteError("E_LEARN", `--learn: cannot write the learned profile to ${path}`, () =>
    assertWritableFile(path),
  );
}

/**
 * The learning phase: `learn` is `--learn` (where the profile goes), `results` the run's results
 * (each failure is named with whether a learned key explains it).
 */
export async function learnPhase(
  run: RunRecord,
  learn: NonNullable<RunRecord["config"]["learn"]>,
  results: readonly CheckResult[],
): Promise<{ readonly report: LearnReport; readonly outcome: ConformanceOutcome }> {
  const { config, provider, transport } = run;
  const profile = config.profile;
  const prober = new Prober({
    providerUrl: provider.url,
    credentials: provider.credentials,
    profile,
    ...(provider.states ? { states: provider.states } : {}),
    secrets: run.secrets,
    runId: run.runId,
    timeoutMs: config.timeoutMs,
    concurrency: config.concurrency,
    transport: config.transport,
    deadlineEpochMs: epochOf(run.deadline),
    ...(transport.rateLimiter ? { rateLimiter: transport.rateLimiter } : {}),
    ...(transport.har ? { har: (entry: string) => transport.har?.write(entry) } : {}),
    cleanup: config.cleanup,
  });
  const l = new Learning(profile, prober);
  let outcome: ConformanceOutcome;
  run.progress(`learning how the provider reads the spec's gaps (--learn ${learn.given})`);
  try {
    const n = config.concurrency;
    await learnStatusMapping(l, config.seed, config.runs, n);
    await learnLoginUserStatuses(l, n);
    await learnBounds(l);
    await learnValuesInUse(l, n);
    // A 401 of each operation, for errorsItems: the one answer every provider gives with a body.
    for (const op of DETAILED_OPERATION_IDS) {
      const answer = await prober.send(op, "{}", {
        source: "R1.auth.no-header",
        auth: {
          variant: "no-header",
          header: undefined,
          description: "no Authorization header",
          curlAuth: [],
        },
      });
      l.saw("R1.auth.no-header", answer);
    }
    learnErrorsItems(l);
    if (prober.outOfTime)
      l.not(
        "not-surveyed",
        "(the rest)",
        `the time was up (--max-duration): what was not asked is not learned`,
      );
  } finally {
    outcome = await prober.close();
  }
  const learned = l.learned;
  const notLearned = [...l.notLearned, ...unexplainedFailures(results, learned)];
  writeLearned(
    learn.path,
    learnedFileText({
      profileArg: config.profileArg,
      builtIn: profile.builtIn,
      cwdPath: (p) => resolve(config.cwd, p),
      seed: config.seed,
      runs: config.runs,
      learned,
      notLearned,
      path: learn.given,
    }),
  );
  return {
    report: {
      path: learn.given,
      extends: config.profileArg,
      learned,
      notLearned,
      requests: outcome.sent,
    },
    outcome,
  };
}
