import type { ContractProfile } from "@idp/contracts";
import type { Answer, Client } from "../http/client.ts";
import { curlCommand, type Exchange } from "../http/exchange.ts";
import type { CheckResult } from "../results.ts";
import { CHECKS } from "./registry.ts";
import type { Violation } from "./types.ts";
import { codingProblem, wireProblem } from "./wire.ts";

/**
 * The checks whose rule holds for every answer, whichever check sent the request (their
 * `observes`): a violation seen while another check ran fails the rule's own check too (reported
 * as seen there, not shrunk).
 */
const OBSERVERS = CHECKS.filter((c) => c.observes !== undefined);

export interface Observation {
  readonly exchange: Exchange;
  readonly problem: Violation;
  /** The check whose request showed it. */
  readonly source: string;
}

export interface Observations {
  /** check id -> the first violation of its rule seen on any answer. */
  readonly first: ReadonlyMap<string, Observation>;
  /**
   * `sourceKey(check id, source)` -> the first violation of its rule seen on an answer to that
   * source's requests: a sharded run fails each check whose answers broke a rule judged in another
   * shard, not only the one that happened to see it first (which may have failed for its own reason).
   */
  readonly bySource?: ReadonlyMap<string, Observation>;
  /** Resolves once every violation waiting to be confirmed (not another request's answer) is. */
  readonly settled?: () => Promise<void>;
}

/** The check that fails for an answer that is none on the wire (conformance.md §9). */
const WIRE_CHECK = "R6.no-5xx";
const CODING_CHECK = "R2.error-body";

/** The key of `Observations.bySource`. */
export const sourceKey = (checkId: string, source: string): string => `${checkId}\u0000${source}`;

/** Adds `from`'s observations to `first` and `bySource` where they hold none yet. */
export function addObservations(
  first: Map<string, Observation>,
  bySource: Map<string, Observation>,
  from: Observations,
): void {
  for (const [id, seen] of from.first) if (!first.has(id)) first.set(id, seen);
  for (const [key, seen] of from.bySource ?? []) if (!bySource.has(key)) bySource.set(key, seen);
}

/** Records the first violation per check and source: never one cited from an answer that may be another request's. */
function recorder() {
  const first = new Map<string, Observation>();
  const bySource = new Map<string, Observation>();
  const pending = new Set<Promise<boolean>>();
  const record = (id: string, answer: Answer, problem: Violation) => {
    const key = sourceKey(id, answer.source);
    if (bySource.has(key)) return;
    const raw = answer.raw;
    const suspect = raw.kind === "response" ? raw.suspect?.() : undefined;
    const keep = () => {
      if (bySource.has(key)) return;
      const seen = { exchange: answer.exchange(), problem, source: answer.source };
      bySource.set(key, seen);
      if (!first.has(id)) first.set(id, seen);
    };
    if (!suspect) return keep();
    pending.add(suspect);
    void suspect.then((s) => {
      pending.delete(suspect);
      if (!s) keep();
    });
  };
  const observations: Observations = {
    first,
    bySource,
    settled: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
  return { record, observations };
}

/** What §9 makes of an answer that is none on the wire, and of bytes nobody asked for. */
function watchWire(client: Client, record: ReturnType<typeof recorder>["record"]): void {
  client.observe((answer) => {
    const raw = answer.raw;
    if (raw.kind === "response") return;
    // Whichever part sent it (checks, pacts, states, neighbours): §9 holds for every answer.
    const wire = wireProblem(raw);
    if (wire) record(WIRE_CHECK, answer, wire);
    const coding = answer.request.operation ? codingProblem(raw) : undefined;
    if (coding) record(CODING_CHECK, answer, coding);
  });
  client.observeStray((answer) => {
    const wire = wireProblem(answer.raw);
    if (wire) record(WIRE_CHECK, answer, wire);
  });
}

export function observeRules(client: Client, profile: ContractProfile): Observations {
  const { record, observations } = recorder();
  watchWire(client, record);
  client.observe((answer) => {
    const raw = answer.raw;
    const op = answer.request.operation;
    if (!op || raw.kind !== "response") return;
    for (const check of OBSERVERS) {
      const id = check.info.id;
      if (observations.bySource?.has(sourceKey(id, answer.source))) continue;
      const problem = check.observes?.(op, raw, profile);
      if (problem) record(id, answer, problem);
    }
  });
  return observations;
}

/**
 * §9 on a client that no check judges (Pact's requests, provider states, preflight, neighbours):
 * what it sees fails R6 (and R2) as if a check had sent it.
 */
export function observeWire(client: Client): Observations {
  const { record, observations } = recorder();
  watchWire(client, record);
  return observations;
}

/** Observations of several clients as one: the first violation each check got. */
export function mergeObservations(...all: readonly Observations[]): Observations {
  const first = new Map<string, Observation>();
  const bySource = new Map<string, Observation>();
  for (const o of all) addObservations(first, bySource, o);
  return { first, bySource };
}

/** The checks whose rule is judged on every answer: their results wait for the whole run. */
export const OBSERVED_CHECKS: ReadonlySet<string> = new Set(OBSERVERS.map((c) => c.info.id));

/**
 * A check that passed on its own fails when its rule was broken by an answer another check
 * received (not shrunk). In a sharded run, `foreign` holds the observed-rule checks of other
 * shards: a violation fails the check whose request showed it, so green shards never hide what
 * the whole run catches.
 */
export function withObservations(
  result: CheckResult,
  obs: Observations,
  foreign: ReadonlySet<string> = new Set(),
): CheckResult {
  if (result.status !== "passed") return result;
  const own = obs.first.get(result.id);
  if (own && own.source !== result.id) return failedBy(result, own, own.source);
  for (const ruleCheck of foreign) {
    const seen = obs.bySource?.get(sourceKey(ruleCheck, result.id));
    if (seen) return failedBy(result, seen, undefined, ruleCheck);
  }
  return result;
}

function failedBy(
  result: CheckResult,
  seen: Observation,
  during: string | undefined,
  judgedFor?: string,
): CheckResult {
  const p = seen.problem;
  return {
    ...result,
    status: "failed",
    failure: {
      message: judgedFor
        ? `${p.message} (judged for ${judgedFor}, which runs in another shard)`
        : p.message,
      rule: p.rule,
      kind: p.kind,
      source: p.source,
      ...(p.expected !== undefined ? { expected: p.expected } : {}),
      ...(p.received !== undefined ? { received: p.received } : {}),
      exchange: seen.exchange,
      curl: curlCommand(seen.exchange),
      ...(during ? { observedDuring: during } : {}),
    },
  };
}
