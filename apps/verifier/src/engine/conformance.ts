import { availableParallelism } from "node:os";
import { type ContractProfile, loadProfile } from "@idp/contracts";
import { Client } from "../http/client.ts";
import { viaArgs } from "../http/exchange.ts";
import { RateLimiter } from "../http/rate-limit.ts";
import { type Created, mergeCreated, NONE_CREATED } from "../restore/ledger.ts";
import { ledgerFor, targetOf } from "../restore/probe.ts";
import type { CheckResult } from "../results.ts";
import { registerAuthSecrets } from "../rules/auth.ts";
import { CHECKS, type Observations, observeRules } from "../rules/index.ts";
import { addObservations, type Observation } from "../rules/observed.ts";
import type { CheckDef } from "../rules/types.ts";
import { Secrets } from "../secrets.ts";
import { Budget } from "./budget.ts";
import { CaseFeed } from "./case-feed.ts";
import { caseThreadPays } from "./case-threads.ts";
import { ruleContext } from "./rule-context.ts";
import { type EngineContext, runCheck } from "./run-check.ts";
import type { ConformanceSetup } from "./setup.ts";
import { stateLockOf } from "./state-lock.ts";
import { ProviderStates } from "./states.ts";
import { startWorker } from "./worker-file.ts";

export interface ConformanceHooks {
  readonly onResult: (result: CheckResult) => void;
  readonly onCaseDone?: (checkId: string) => void;
  /** `--har`: each exchange as one HAR entry's JSON text. */
  readonly har?: (entryJson: string) => void;
}

export interface ConformanceOutcome {
  readonly observations: Observations;
  /** operation -> status -> count */
  readonly tally: ReadonlyMap<string, ReadonlyMap<number, number>>;
  readonly sent: number;
  readonly answered: number;
  /** Throttled answers waited out (conformance.md §7). */
  readonly throttled: number;
  /** Requests sent again after a gateway's 502/504 (§7), or on a new connection (§9). */
  readonly resent: { readonly gateway: number; readonly connection: number };
  /** With --cleanup: the schemas the checks created. */
  readonly created: Created;
  readonly stoppedReason?: string;
}

/**
 * Without --threads: the checks run in this thread, and Pact's verifier in up to 2 instances (1 on
 * one core). Each conformance thread costs ~80 MiB against a provider sending 512 MiB answers (1 MiB
 * kept of each, 16 in flight) and each instance of Pact's verifier ~75 MiB: a runner with many cores
 * must not take the process tree over 512 MiB by itself. Against a provider on the same 2 cores, 2
 * threads were 15% faster; against a remote one, more help more.
 */
export const DEFAULT_THREADS = 1;
export function defaultPactInstances(): number {
  return Math.min(availableParallelism(), 2);
}

function replayCommand(setup: ConformanceSetup, id: string): string {
  const parts = ["idp-verify"];
  if (setup.replay.providerUrl) parts.push("--provider-url", setup.replay.providerUrl);
  if (setup.replay.statesUrl) parts.push("--provider-states-url", setup.replay.statesUrl);
  if (setup.replay.profileArg !== "default") parts.push("--profile", setup.replay.profileArg);
  parts.push("--checks", id, "--seed", String(setup.seed), "--runs", String(setup.runs));
  // What the run sent with every request: `--header` values by variable, its TLS files.
  parts.push(...viaArgs(setup.transport));
  return parts.join(" ");
}

/**
 * Runs `checks` in this thread with `concurrency` requests in flight, over a client of its own.
 * `slot` tells threads apart in the names they make up.
 */
export async function runChecksHere(
  checks: readonly CheckDef[],
  setup: ConformanceSetup,
  hooks: ConformanceHooks,
  options: {
    readonly concurrency: number;
    readonly slot: number;
    readonly profile?: ContractProfile;
    /** The case thread generating these checks' cases (closed when they end). */
    readonly feed?: CaseFeed;
  },
): Promise<ConformanceOutcome> {
  const feed = options.feed;
  const profile = options.profile ?? loadProfile(setup.profileArg, { cwd: setup.cwd });
  const secrets = new Secrets();
  for (const v of setup.secretValues) secrets.add(v, undefined);
  const target = targetOf(setup.providerUrl, setup.credentials, profile);
  const ledger = setup.cleanup ? ledgerFor(() => client, target) : undefined;
  const client: Client = new Client({
    timeoutMs: setup.timeoutMs,
    connections: options.concurrency,
    maxConsecutiveFailures: setup.maxConsecutiveTransportFailures,
    secrets,
    transport: setup.transport,
    deadlineEpochMs: setup.deadlineEpochMs,
    ...(setup.rateLimit
      ? { rateLimiter: new RateLimiter(setup.rateLimit.perSecond, setup.rateLimit.shared) }
      : {}),
    ...(hooks.har ? { har: hooks.har } : {}),
    ...(ledger ? { writes: ledger } : {}),
  });
  try {
    const states = setup.states
      ? new ProviderStates(setup.states.url, client, secrets, setup.states.authorization)
      : undefined;
    const ctx = ruleContext(setup, profile, secrets, options.slot);
    // The cases may come from the case thread: what they send of the credentials is registered
    // here, where the answers are scrubbed, whether or not this thread builds their arbitraries.
    registerAuthSecrets(setup.credentials, secrets);
    const observations = observeRules(client, profile);
    // The same cases either way: without the case thread (it did not start), they are made here.
    const fed = feed ? await feed.ready.then(() => feed).catch(() => undefined) : undefined;
    const engine: EngineContext = {
      client,
      budget: new Budget(options.concurrency),
      ...(states ? { states } : {}),
      rules: ctx,
      seed: setup.seed,
      runs: setup.runs,
      deadline: performance.now() + (setup.deadlineEpochMs - Date.now()),
      maxDurationText: setup.maxDurationText,
      shrink: setup.shrink,
      replayCommand: (id) => replayCommand(setup, id),
      ...(hooks.onCaseDone ? { onCaseDone: hooks.onCaseDone } : {}),
      ...(fed ? { feed: fed } : {}),
      ...(setup.stateLock ? { stateLock: stateLockOf(setup.stateLock) } : {}),
    };
    await Promise.all(
      checks.map((def) => runCheck(def, engine, CHECKS.indexOf(def)).then(hooks.onResult)),
    );
    await observations.settled?.();
    return {
      observations,
      tally: client.tally,
      sent: client.sent,
      answered: client.answered,
      throttled: client.throttled,
      resent: { gateway: client.gateway, connection: client.resent },
      created: ledger?.created ?? NONE_CREATED,
      ...(client.stoppedReason ? { stoppedReason: client.stoppedReason } : {}),
    };
  } finally {
    await Promise.all([client.close(), feed?.close()]);
  }
}

/**
 * Starts the case thread for `checks` when {@link runConformance} will run them in this thread and
 * the thread pays (`caseThreadPays`: enough cases, a core of its own); else undefined (they are
 * generated where they are sent). Started before the run's first request, so its start and the
 * arbitraries it builds are not between the provider's requests.
 */
export function caseFeedFor(
  checks: readonly CheckDef[],
  setup: ConformanceSetup,
  { embedded }: { readonly embedded: boolean },
): CaseFeed | undefined {
  if (checks.length === 0 || dealChecks(checks, Math.max(1, setup.threads)).length !== 1)
    return undefined;
  if (!caseThreadPays(setup.runs * checks.length, embedded)) return undefined;
  return new CaseFeed({ setup, checkIds: checks.map((c) => c.info.id), slot: 0 });
}

/** Checks dealt to `n` threads, the costliest first to the least loaded. */
export function dealChecks(checks: readonly CheckDef[], n: number): CheckDef[][] {
  const parts: { load: number; checks: CheckDef[] }[] = Array.from({ length: n }, () => ({
    load: 0,
    checks: [],
  }));
  for (const def of [...checks].sort((a, b) => b.weight - a.weight)) {
    const least = parts.reduce((a, b) => (b.load < a.load ? b : a));
    least.checks.push(def);
    least.load += def.weight;
  }
  return parts.map((p) => p.checks).filter((p) => p.length > 0);
}

/** A message from a conformance worker thread. */
export type WorkerMessage =
  | { readonly type: "result"; readonly result: CheckResult }
  | { readonly type: "cases"; readonly checkId: string; readonly count: number }
  | { readonly type: "har"; readonly entries: readonly string[] }
  | {
      readonly type: "done";
      readonly observations: [string, Observation][];
      readonly observationsBySource: [string, Observation][];
      readonly tally: [string, [number, number][]][];
      readonly sent: number;
      readonly answered: number;
      readonly throttled: number;
      readonly resent: ConformanceOutcome["resent"];
      readonly created: Created;
      readonly stoppedReason?: string;
    }
  | { readonly type: "error"; readonly message: string };

export interface WorkerJob {
  readonly checkIds: readonly string[];
  readonly setup: ConformanceSetup;
  readonly concurrency: number;
  readonly slot: number;
  /** Post each exchange's HAR entry (`--har`). */
  readonly har: boolean;
}

/**
 * Runs the conformance checks, in `setup.threads` worker threads (each with a client, a share of
 * the in-flight budget and the provider states of its own), or in this thread when 1. Results
 * stream through `hooks` as each check finishes; observations and tallies are merged at the end.
 */
export async function runConformance(
  checks: readonly CheckDef[],
  setup: ConformanceSetup,
  hooks: ConformanceHooks,
  profile: ContractProfile,
  feed?: CaseFeed,
): Promise<ConformanceOutcome> {
  if (checks.length === 0)
    return {
      observations: { first: new Map() },
      tally: new Map(),
      sent: 0,
      answered: 0,
      throttled: 0,
      resent: { gateway: 0, connection: 0 },
      created: NONE_CREATED,
    };
  const parts = dealChecks(checks, Math.max(1, setup.threads));
  if (parts.length === 1)
    return runChecksHere(checks, setup, hooks, {
      concurrency: setup.concurrency,
      slot: 0,
      profile,
      ...(feed ? { feed } : {}),
    });
  const share = Math.max(1, Math.ceil(setup.concurrency / parts.length));
  const outcomes = await Promise.all(
    parts.map((part, slot) =>
      runInWorker(
        {
          checkIds: part.map((c) => c.info.id),
          setup,
          concurrency: share,
          slot,
          har: hooks.har !== undefined,
        },
        hooks,
      ),
    ),
  );
  return mergeOutcomes(outcomes);
}

/** Outcomes of several threads or stages as one: first observations, summed tallies and counts. */
export function mergeOutcomes(outcomes: readonly ConformanceOutcome[]): ConformanceOutcome {
  const first = new Map<string, Observation>();
  const bySource = new Map<string, Observation>();
  const tally = new Map<string, Map<number, number>>();
  let sent = 0;
  let answered = 0;
  let throttled = 0;
  const resent = { gateway: 0, connection: 0 };
  let stoppedReason: string | undefined;
  for (const o of outcomes) {
    addObservations(first, bySource, o.observations);
    for (const [op, row] of o.tally) {
      const into = tally.get(op) ?? new Map<number, number>();
      for (const [status, n] of row) into.set(status, (into.get(status) ?? 0) + n);
      tally.set(op, into);
    }
    sent += o.sent;
    answered += o.answered;
    throttled += o.throttled;
    resent.gateway += o.resent.gateway;
    resent.connection += o.resent.connection;
    stoppedReason ??= o.stoppedReason;
  }
  return {
    observations: { first, bySource },
    tally,
    sent,
    answered,
    throttled,
    resent,
    created: mergeCreated(outcomes.map((o) => o.created)),
    ...(stoppedReason ? { stoppedReason } : {}),
  };
}

function runInWorker(job: WorkerJob, hooks: ConformanceHooks): Promise<ConformanceOutcome> {
  return new Promise((resolve, reject) => {
    const worker = startWorker("conformance-worker", "worker", job);
    let outcome: ConformanceOutcome | undefined;
    worker.on("message", (m: WorkerMessage) => {
      if (m.type === "result") hooks.onResult(m.result);
      else if (m.type === "cases") for (let i = 0; i < m.count; i++) hooks.onCaseDone?.(m.checkId);
      else if (m.type === "har") for (const entry of m.entries) hooks.har?.(entry);
      else if (m.type === "done")
        outcome = {
          observations: {
            first: new Map(m.observations),
            bySource: new Map(m.observationsBySource),
          },
          tally: new Map(m.tally.map(([op, row]) => [op, new Map(row)])),
          sent: m.sent,
          answered: m.answered,
          throttled: m.throttled,
          resent: m.resent,
          created: m.created,
          ...(m.stoppedReason ? { stoppedReason: m.stoppedReason } : {}),
        };
      else reject(new Error(`a conformance thread failed: ${m.message}`));
    });
    worker.on("error", (e) => reject(new Error(`a conformance thread failed: ${e.message}`)));
    worker.on("exit", () =>
      outcome
        ? resolve(outcome)
        : reject(new Error("a conformance thread ended without its results")),
    );
  });
}
