import type { Config } from "./config/parse.ts";
import { caseFeedFor, mergeOutcomes } from "./engine/conformance.ts";
import { assertLearnWritable, learnPhase } from "./learn/index.ts";
import {
  caseThreadSetup,
  conformanceSetup,
  regularChecks,
  runChecksAndPacts,
} from "./phases/checks-and-pacts.ts";
import { startRun, type VerifyIo } from "./phases/context.ts";
import { preflightAndStates } from "./phases/preflight.ts";
import { beginProvider, type ProviderUnderTest } from "./phases/provider.ts";
import type { RunRecord } from "./phases/record.ts";
import { leaveAsFound } from "./phases/restore.ts";
import { assembleReport } from "./phases/results.ts";
import { readSources } from "./phases/sources.ts";
import { openTransport } from "./phases/transport.ts";
import { makePlan } from "./plan.ts";
import type { VerifyReport } from "./results.ts";

export type { VerifyIo } from "./phases/context.ts";

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
  const run = startRun(config, io);
  const sources = await readSources(run);
  const plan = makePlan(config, sources.files, {
    statesGiven: config.provider.kind === "embedded" || config.provider.states !== undefined,
    runId: run.runId,
    ...(sources.noPactsReason ? { noPactsReason: sources.noPactsReason } : {}),
  });
  // The provider's start (the embedded one's thread) and the case thread's run side by side: each
  // is mostly loading modules, and neither needs the other.
  const starting = beginProvider(run);
  const feed = caseFeedFor(regularChecks(plan.checks), caseThreadSetup(run, starting), {
    embedded: config.provider.kind === "embedded",
  });
  let provider: ProviderUnderTest;
  try {
    provider = await starting.ready;
  } catch (e) {
    await feed?.close();
    throw e;
  }
  for (const w of run.secrets.warnings()) run.progress(w);
  // From here on whatever throws closes what was started (the provider's thread and the case
  // thread would keep the process alive after the error).
  let transport: ReturnType<typeof openTransport> | undefined;
  try {
    transport = openTransport(run, provider);
    const record: RunRecord = { ...run, sources, plan, provider, transport };
    const setup = conformanceSetup(record);
    await feed?.ready.catch(() => undefined);
    const { states, schedule, savedRules } = await preflightAndStates(record);
    run.progress(
      `verifying ${provider.url}${provider.embedded ? " (embedded reference provider)" : ""}: seed ${config.seed}, ${config.runs} runs per check, profile ${config.profile.name}`,
    );
    const outcome = await runChecksAndPacts(record, {
      setup,
      ...(feed ? { feed } : {}),
      ...(states ? { states } : {}),
      ...(schedule ? { schedule } : {}),
    });
    // --learn asks after the checks, before the provider is left as found (its writes included);
    // its requests are never judged and not in the report's status grid.
    const learned = config.learn
      ? await learnPhase(record, config.learn, outcome.results)
      : undefined;
    const restored = await leaveAsFound(
      record,
      learned ? mergeOutcomes([outcome.conformance, learned.outcome]) : outcome.conformance,
      savedRules,
    );
    for (const w of restored.warnings) run.progress(w);
    const report = assembleReport(record, outcome, restored);
    return learned ? { ...report, learn: learned.report } : report;
  } finally {
    await feed?.close();
    await transport?.close();
    await provider.close();
  }
}
