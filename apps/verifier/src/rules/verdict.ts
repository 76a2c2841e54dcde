import { type ObservedResponse, type Problem, RULES, type RuleId } from "@idp/contracts";
import type { Answer } from "../http/client.ts";
import type { HttpResponse } from "../http/send.ts";
import type { Verdict } from "./types.ts";
import { codingProblem, wireProblem } from "./wire.ts";

export const PASS: Verdict = { ok: true };

/** A judge's view of an answer (the full body, up to the cap). */
export const observed = (res: HttpResponse): ObservedResponse => ({
  status: res.status,
  contentType: res.contentType,
  body: res.body,
  truncated: res.truncated,
});

export const fromProblem = (problem: Problem | undefined, answer?: Answer): Verdict =>
  problem === undefined ? PASS : { ok: false, violation: problem, ...(answer ? { answer } : {}) };

/**
 * The provider must answer: no answer at all breaks the rule the check asserts; an answer that is
 * none on the wire (malformed, cut short, ...) breaks R6 (conformance.md §9).
 */
export function noAnswer(rule: RuleId, answer: Answer): Verdict | undefined {
  const raw = answer.raw;
  if (raw.kind === "response") return undefined;
  // R2 reads an error body whose bytes are not what its Content-Encoding says as its own failure.
  const wire = (rule === "R2" ? codingProblem(raw) : undefined) ?? wireProblem(raw);
  if (wire) return { ok: false, answer, violation: wire };
  return {
    ok: false,
    answer,
    violation: {
      rule,
      kind: "no-answer",
      message: `${rule}: the provider must answer; no answer: ${raw.code}`,
      source: { source: RULES[rule].source === "pinned" ? "pinned" : "spec", ref: RULES[rule].ref },
      expected: "an HTTP answer",
      received: raw.code,
    },
  };
}

/** Judges a response with `problemOf`; a transport failure always fails. */
export function judgeResponse(
  rule: RuleId,
  answer: Answer,
  problemOf: (res: HttpResponse) => Problem | undefined,
): Verdict {
  const none = noAnswer(rule, answer);
  if (none) return none;
  return fromProblem(problemOf(answer.raw as HttpResponse), answer);
}
