import type { CaseFeed } from "../engine/case-feed.ts";
import {
  type ConformanceOutcome,
  DEFAULT_THREADS,
  defaultPactInstances,
  mergeOutcomes,
  runConformance,
} from "../engine/conformance.ts";
import type { ConformanceSetup } from "../engine/setup.ts";
import { stateLockOf } from "../engine/state-lock.ts";
import type { ProviderStates } from "../engine/states.ts";
import { verifyPacts } from "../pact/verify-pacts.ts";
import { selects } from "../plan.ts";
import type { CheckResult, Phase, StatesSchedule } from "../results.ts";
import { mergeObservations, OBSERVED_CHECKS, withObservations } from "../rules/index.ts";
import type { CheckDef } from "../rules/types.ts";
import { epochOf, type RunContext } from "./context.ts";
import type { ProviderStart, ProviderUnderTest } from "./provider.ts";
import type { RunRecord } from "./record.ts";
import type { Transport } from "./transport.ts";

/** What the conformance checks need of the run, as plain data (a worker thread gets a copy). */
export function conformanceSetup(run: RunRecord): ConformanceSetup {
  return setupOf(run, run.provider, run.transport);
}

/**
 * What the case thread needs, before the provider listens: the case thread makes each case's body
 * and credentials; where a request goes is the sending thread's (rules/requests.ts `toRequest`),
 * so the provider's address is a placeholder here.
 */
export function caseThreadSetup(run: RunContext, provider: ProviderStart): ConformanceSetup {
  const unknown = "http://address.unknown.invalid";
  return setupOf(run, {
    url: `${unknown}/v1`,
    credentials: provider.credentials,
    ...(provider.hasStates ? { states: { url: `${unknown}/_pact/provider-states` } } : {}),
  });
}

function setupOf(
  run: RunContext,
  provider: Pick<ProviderUnderTest, "url" | "credentials" | "states">,
  transport?: Transport,
): ConformanceSetup {
  const { config } = run;
  return {
    providerUrl: provider.url,
    credentials: provider.credentials,
    ...(provider.states ? { states: provider.states } : {}),
    profileArg: config.profileArg,
    cwd: config.cwd,
    secretValues: run.secrets.values(),
    seed: config.seed,
    runs: config.runs,
    timeoutMs: config.timeoutMs,
    concurrency: config.concurrency,
    maxConsecutiveTransportFailures: config.maxConsecutiveTransportFailures,
    deadlineEpochMs: epochOf(run.deadline),
    maxDurationText: `${Math.round(config.maxDurationMs / 1000)} s`,
    runId: run.runId,
    replay: {
      ...(config.provider.kind === "url"
        ? {
            providerUrl: config.provider.url,
            ...(config.provider.states ? { statesUrl: config.provider.states.url } : {}),
          }
        : {}),
      profileArg: config.profileArg,
    },
    threads: config.threads ?? DEFAULT_THREADS,
    transport: config.transport,
    cleanup: config.cleanup,
    shrink: config.shrink,
    ...(transport?.rateLimiter
      ? {
          rateLimit: {
            perSecond: transport.rateLimiter.ratePerSecond,
            shared: transport.rateLimiter.shared,
          },
        }
      : {}),
  };
}

/**
 * The checks run together, sharing the budget (and, in one thread, the case thread); the exclusive
 * ones (R9) run after them, alone.
 */
export const regularChecks = (checks: readonly CheckDef[]): CheckDef[] =>
  checks.filter((c) => !c.exclusive);

/** What the checks and the pacts gave: every result, the threads' outcome, each kind's wall time. */
export interface ChecksOutcome {
  readonly results: readonly CheckResult[];
  readonly conformance: ConformanceOutcome;
  readonly phases: { readonly pact?: Phase; readonly conformance?: Phase };
  /** How provider states were scheduled, when the run used any (conformance.md §4). */
  readonly states?: StatesSchedule;
}

/**
 * Runs the pacts (Pact's verifier, through the guard) and the conformance checks at once. Results
 * stream as checks finish; the rules judged on every answer (R2, R3, R6, R8) wait for the whole
 * run, since any later answer may break them (in a sharded run, everything waits).
 */
export async function runChecksAndPacts(
  run: RunRecord,
  prepared: {
    /** Built once, before the first request (the case thread is started from it). */
    readonly setup: ConformanceSetup;
    readonly feed?: CaseFeed;
    /** The provider states client (preflight), when the run has a state URL. */
    readonly states?: ProviderStates;
    /** What the states probe found (preflight): one state at a time unless setups are additive. */
    readonly schedule?: StatesSchedule;
  },
): Promise<ChecksOutcome> {
  const { config, io, plan, sources, provider, transport } = run;
  const { feed, states, schedule } = prepared;
  // Not additive, or not known to be: one lock for every thread's batches and Pact's interactions.
  const stateLock =
    schedule?.scheduling === "one-at-a-time" ? stateLockOf(new SharedArrayBuffer(4)) : undefined;
  const setup = stateLock ? { ...prepared.setup, stateLock: stateLock.shared } : prepared.setup;
  const results: CheckResult[] = [];
  const held: CheckResult[] = [];
  const emit = (r: CheckResult) => {
    results.push(r);
    io.onResult?.(r);
  };
  const hold = (r: CheckResult) =>
    config.shard || OBSERVED_CHECKS.has(r.id) ? held.push(r) : emit(r);
  io.onPlan?.({
    runs: plan.checks.length * config.runs,
    pacts: config.broker ? 0 : plan.pactIds.length,
  });
  // Each kind's wall time, first start to last end (JUnit's suite time; checks run in parallel).
  const phases: { pact?: Phase; conformance?: Phase } = {};
  const t0 = performance.now();
  const timed = <T>(kind: keyof typeof phases, work: Promise<T>): Promise<T> =>
    work.then((value) => {
      phases[kind] = {
        startedMs: Math.round(t0 - run.started),
        durationMs: Math.round(performance.now() - t0),
      };
      return value;
    });
  const pacts = plan.pacts
    ? timed(
        "pact",
        verifyPacts({
          files: sources.files,
          selected: plan.pactSelected,
          ...(config.broker ? { broker: config.broker } : {}),
          ...(config.pactUrlAuth ? { pactUrlAuth: config.pactUrlAuth } : {}),
          ...(config.publish ? { publish: config.publish } : {}),
          providerUrl: provider.url,
          credentials: provider.credentials,
          ...(states ? { states } : {}),
          ...(stateLock ? { stateLock } : {}),
          client: transport.client,
          secrets: run.secrets,
          timeoutMs: config.timeoutMs,
          deadline: run.deadline,
          threads: config.threads ?? defaultPactInstances(),
          progress: run.progress,
        }),
      ).then((rs) => {
        for (const r of rs) {
          io.onCaseDone?.(r.id);
          if (config.shard) held.push(r);
          else emit(r);
        }
      })
    : Promise.resolve();
  const hooks = {
    onResult: hold,
    ...(io.onCaseDone ? { onCaseDone: io.onCaseDone } : {}),
    ...(transport.har ? { har: (entry: string) => transport.har?.write(entry) } : {}),
  };
  // The exclusive checks (R9) read back what they wrote: they run after everything else, alone,
  // one case at a time, in this thread.
  const regular = regularChecks(plan.checks);
  const exclusive = plan.checks.filter((c) => c.exclusive);
  const conformanceRun = async () => {
    const [, first] = await Promise.all([
      pacts,
      runConformance(regular, setup, hooks, config.profile, feed),
    ]);
    if (exclusive.length === 0) return first;
    const alone = await runConformance(
      exclusive,
      { ...setup, threads: 1, concurrency: 1 },
      hooks,
      config.profile,
    );
    return mergeOutcomes([first, alone]);
  };
  const conformance =
    plan.checks.length > 0 ? await timed("conformance", conformanceRun()) : await conformanceRun();
  // The observed rules' checks fail on any answer that broke them; in a shard, the other shards'
  // observed-rule checks are judged on this shard's answers too.
  const selectedIds = new Set(plan.checks.map((c) => c.info.id));
  const foreign = new Set(
    [...OBSERVED_CHECKS].filter(
      (id) =>
        config.shard &&
        !selectedIds.has(id) &&
        (config.checks.length === 0 || config.checks.some((s) => selects(s, id))),
    ),
  );
  // What §9 made of the answers to Pact's requests, the states' and the preflight's counts too.
  await transport.wire.settled?.();
  const observations = mergeObservations(conformance.observations, transport.wire);
  for (const r of held) emit(withObservations(r, observations, foreign));
  return { results, conformance, phases, ...(schedule ? { states: schedule } : {}) };
}
