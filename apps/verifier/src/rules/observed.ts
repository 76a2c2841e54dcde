import type { ContractProfile, Problem } from "@idp/contracts";
import type { Client } from "../http/client.ts";
import { curlCommand, type Exchange } from "../http/exchange.ts";
import type { CheckResult } from "../results.ts";
import { CHECKS } from "./registry.ts";

/**
 * The checks whose rule holds for every answer, whichever check sent the request (their
 * `observes`): a violation seen while another check ran fails the rule's own check too (reported
 * as seen there, not shrunk).
 */
const OBSERVERS = CHECKS.filter((c) => c.observes !== undefined);

export interface Observation {
  readonly exchange: Exchange;
  readonly problem: Problem;
  /** The check whose request showed it. */
  readonly source: string;
}

export interface Observations {
  /** check id -> the first violation of its rule seen on any answer. */
  readonly first: ReadonlyMap<string, Observation>;
}

export function observeRules(client: Client, profile: ContractProfile): Observations {
  const first = new Map<string, Observation>();
  client.observe((answer, source) => {
    const op = answer.request.operation;
    if (!op || answer.raw.kind !== "response") return;
    for (const check of OBSERVERS) {
      const id = check.info.id;
      if (first.has(id)) continue;
      const problem = check.observes?.(op, answer.raw, profile);
      if (problem) first.set(id, { exchange: answer.exchange(), problem, source });
    }
  });
  return { first };
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
  for (const [ruleCheck, seen] of obs.first)
    if (foreign.has(ruleCheck) && seen.source === result.id)
      return failedBy(result, seen, undefined, ruleCheck);
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
      expected: p.expected,
      received: p.received,
      exchange: seen.exchange,
      curl: curlCommand(seen.exchange),
      ...(during ? { observedDuring: during } : {}),
    },
  };
}
