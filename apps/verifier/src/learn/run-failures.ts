import { type DetailedOperationId, detailedOperations } from "@idp/contracts";
import type { Exchange } from "../http/exchange.ts";
import { operationOfRequest } from "../report/findings.ts";
import type { CheckResult } from "../results.ts";
import type { LearnedKey, NotLearned } from "./types.ts";

// Each check the run failed, read against what was learned: either a learned key explains it (the
// next run under the file should pass it), or it is named with why it is never learned
// (conformance.md §6: a 5xx, a lost write, a success status other than the spec's, a broken error
// body, R1, R8; a pact is the consumer's). The learning phase's own probes decide what is learned;
// this only says, per failure, what the next run will still fail.

const statusOfExchange = (ex: Exchange | undefined) =>
  ex?.result.kind === "response" ? ex.result.status : undefined;

const operationOf = (ex: Exchange | undefined): DetailedOperationId | undefined =>
  ex ? (ex.operation ?? operationOfRequest(ex.request.method, ex.request.url)) : undefined;

/** Why a failed check is never learned, or undefined when a learned key explains it. */
function whyNot(r: CheckResult, learned: readonly LearnedKey[]): string | undefined {
  const keys = learned.map((k) => k.key);
  const has = (prefix: string) => keys.some((k) => k.startsWith(prefix));
  const ex = r.failure?.exchange;
  const status = statusOfExchange(ex);
  const op = operationOf(ex);
  const server = status !== undefined && status >= 500;
  const success =
    status !== undefined && status >= 200 && status < 300 && op
      ? status !== detailedOperations[op].successStatus
      : false;
  if (r.kind === "pact")
    return "a pact is the consumer's expectation: no profile changes it (conformance.md §6)";
  if (server) return `${status} is a server error: a 5xx is never learned (R6)`;
  switch (r.rule) {
    case "R1":
      return "R1 is the spec's: how credentials are judged is never learned";
    case "R2":
      return r.failure?.kind === "errors-item" && keys.includes("errorsItems")
        ? undefined
        : "a broken error body is never learned (R2's shape is the spec's)";
    case "R3": {
      const documented = learned.find((k) => k.key === `documentedStatuses.${op}`)?.value;
      if (Array.isArray(documented) && status !== undefined && documented.includes(status))
        return undefined;
      return success
        ? `${status}: a success status other than the spec's is never learned (R4, spec)`
        : `${status ?? "this status"} is documented by no learned key`;
    }
    case "R4":
      if (success) return `${status}: a success status other than the spec's is never learned`;
      return op && (has(`bounds.${boundPrefix(op)}`) || has("valuesInUse"))
        ? undefined
        : "a valid body refused where no consistent limit was found";
    case "R5":
      if (status !== undefined && status < 400)
        return `an invalid body answered ${status}: accepting it is never learned (R5, spec)`;
      return op && (has(`statusMapping.${op}`) || has(`bounds.${boundPrefix(op)}`))
        ? undefined
        : "the status was not the same for every body of its kind";
    case "R6":
      return "a 5xx is never learned (R6)";
    case "R7":
      // A push refused for its body (past a bound the provider keeps) is explained by that bound.
      return has(`loginUserStatuses.${r.id === "R7.push-404" ? "unknown" : "otherLoginApp"}`) ||
        has("bounds.data.")
        ? undefined
        : "the status was no 4xx, or not the same for every push";
    case "R8":
      return "a success answer with a body is never learned (R8, spec)";
    case "R9":
      return "a lost or altered write is never learned (R9)";
    case "R10":
      return "whether an error names the field is never learned (R10)";
    default:
      return undefined;
  }
}

const boundPrefix = (op: DetailedOperationId) => detailedOperations[op].wrapperKey;

/** The run's failed checks that the learned keys do not explain, each with why. */
export function unexplainedFailures(
  results: readonly CheckResult[],
  learned: readonly LearnedKey[],
): NotLearned[] {
  return results
    .filter((r) => r.status === "failed" && r.id !== "cells.required")
    .flatMap((r) => {
      const why = whyNot(r, learned);
      if (why === undefined) return [];
      const ex = r.failure?.exchange;
      const answer =
        ex?.result.kind === "response"
          ? `${ex.result.status} ${ex.result.bodyPreview.slice(0, 300)}`.trim()
          : ex
            ? `no answer: ${ex.result.code}`
            : "";
      return [
        {
          kind: "refused" as const,
          subject: r.id,
          why,
          exchanges: ex
            ? [
                {
                  check: r.id,
                  request:
                    `${ex.request.method} ${ex.request.url} ${(ex.request.body ?? "").slice(0, 600)}`.trim(),
                  answer,
                },
              ]
            : [],
        },
      ];
    });
}
