import type { Config } from "./config/parse.ts";
import { caseFeedFor, mergeOutcomes } from "./engine/conformance.ts";
import { assertLearnWritable, learnPhase } from "./learn/index.ts";
import { conformanceSetup, regularChecks, runChecksAndPacts } from "./phases/checks-and-pacts.ts";
import { startRun } from "./phases/context.ts";
import { preflightAndStates } from "./phases/preflight.ts";
import { startProvider } from "./phases/provider.ts";
import { leaveAsFound } from "./phases/restore.ts";
import { assembleReport } from "./phases/results.ts";
import { readSources } from "./phases/sources.ts";
import { openTransport } from "./phases/transport.ts";
import { makePlan } from "./plan.ts";
import type { CheckResult, VerifyReport } from "./results.ts";

/** Hooks of `verify`: progress lines, each result as it is final, plan and case counts. */
export interface VerifyIo {
  /** Progress and warnings, one line each (the CLI writes them to stderr). */
  readonly progress?: (line: string) => void;
  /** Each check's result as soon as it is final. */
  readonly onResult?: (result: CheckResult) => void;
  /**
   * Once the checks start: how many conformance runs and pact interactions the run asks for; then
   * after each case judged (a conformance run, or a pact interaction's result). For a progress bar.
   */
  readonly onPlan?: (total: { readonly runs: number; readonly pacts: number }) => void;
  readonly onCaseDone?: (checkId: string) => void;
}

/**
 * Verifies one provider: its pacts with Pact's verifier and the property-based conformance checks
 * (R1-R8; R9 and R10 when `--checks` names them), concurrently. Never throws for a provider's
 * misbehaviour (that is in the report); throws VerifyError when the verification cannot be carried
 * out, before the first request where it can.
 *
 * The run, phase by phase (each its own module in phases/): read the pact sources; plan what runs
 * and what is left out; start (or reach) the provider; open the one transport to it; preflight it,
 * probe its states and read its clustering rules; run the checks and the pacts; put back what the
 * run changed (conformance.md §8); assemble the results.
 */
export async function verify(config: Config, io: VerifyIo = {}): Promise<VerifyReport> {
  if (config.learn) assertLearnWritable(config.learn.path);
  const run = startRun(config, io.progress ?? (() => {}));
  const sources = await readSources(config, run);
  const plan = makePlan(config, sources.files, {
    statesGiven: config.provider.kind === "embedded" || config.provider.states !== undefined,
    runId: run.runId,
    ...(sources.noPactsReason ? { noPactsReason: sources.noPactsReason } : {}),
  });
  const provider = await startProvider(config, run);
  for (const w of run.secrets.warnings()) run.progress(w);
  const transport = openTransport(config, run, provider);
  // The case thread starts before the first request: its start and the arbitraries it builds are
  // the run's to pay, not something to put between the provider's requests.
  const setup = conformanceSetup(config, run, provider, transport);
  const feed = caseFeedFor(regularChecks(plan.checks), setup);
  try {
    await feed?.ready.catch(() => undefined);
    const { states, schedule, savedRules } = await preflightAndStates(
      transport.client,
      provider,
      plan,
      run,
      config.profile,
    );
    run.progress(
      `verifying ${provider.url}${provider.embedded ? " (embedded reference provider)" : ""}: seed ${config.seed}, ${config.runs} runs per check, profile ${config.profile.name}`,
    );
    const outcome = await runChecksAndPacts(
      config,
      run,
      plan,
      sources,
      provider,
      states,
      transport,
      io,
      { setup, ...(feed ? { feed } : {}), ...(schedule ? { schedule } : {}) },
    );
    // --learn asks after the checks, before the provider is left as found (its writes included);
    // its requests are never judged and not in the report's status grid.
    const learned = config.learn
      ? await learnPhase({
          config: { ...config, learn: config.learn },
          run,
          provider,
          transport,
          results: outcome.results,
        })
      : undefined;
    const restored = await leaveAsFound(
      config,
      provider,
      transport,
      learned ? mergeOutcomes([outcome.conformance, learned.outcome]) : outcome.conformance,
      savedRules,
    );
    for (const w of restored.warnings) run.progress(w);
    const report = assembleReport(
      config,
      run,
      sources,
      plan,
      provider,
      transport,
      outcome,
      io,
      restored,
    );
    return learned ? { ...report, learn: learned.report } : report;
  } finally {
    await feed?.close();
    await transport.close();
    await provider.close();
  }
}
