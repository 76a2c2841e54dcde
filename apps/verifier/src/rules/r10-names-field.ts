import {
  classifyRequestBody,
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  FIELD_VIOLATION_KINDS,
  type JsonPath,
  PROVIDER_STATES,
  unnamedFieldProblem,
} from "@idp/contracts";
import { invalidBodyArb, invalidBodyExamples, requestBodyText } from "@idp/generators";
import { caseArb, goodAuth, toCase } from "./requests.ts";
import type { Case, CheckDef, RuleContext, RuleModule, SentBody } from "./types.ts";
import { judgeResponse, observed } from "./verdict.ts";

// R10 errors name the field (conformance.md §10, opt-in: only with --checks R10). Bodies that break
// exactly one field (a wrong type under any profile; a missing field, an unknown key or a value not
// in use under strict) are sent first as R5's examples (every wrong type at every field), then
// generated; the 4xx answer must name the field. Which field is broken is read from the exact text
// sent by @idp/contracts (never the generator's label); a failure shrinks to the smallest body.

/** The one broken field of the exact text sent, if it breaks exactly one (else not R10's). */
function brokenField(op: DetailedOperationId, c: Case, ctx: RuleContext): JsonPath | undefined {
  const verdict = classifyRequestBody(op, c.body.text, ctx.profile);
  if (verdict.outcome !== "invalid" || verdict.violations.length !== 1) return undefined;
  return FIELD_VIOLATION_KINDS.has(verdict.violation.kind) ? verdict.violation.path : undefined;
}

const sent = (c: { body: unknown; raw: boolean; violation: string }): SentBody => ({
  text: requestBodyText(c as Parameters<typeof requestBodyText>[0]),
  kind: "invalid",
  note: c.violation,
});

const namesFieldCheck = (op: DetailedOperationId): CheckDef => ({
  info: {
    id: `R10.names-field.${op}`,
    rule: "R10",
    title: `the 400 or 422 to an invalid ${op} payload that breaks one field names that field`,
    needs: [],
  },
  // As R5: with provider states, push bodies go to a login user that exists.
  ...(op === "pushToUserDevices"
    ? {
        state: (ctx) =>
          ctx.statesAvailable ? { name: PROVIDER_STATES.loginUserExists } : undefined,
      }
    : {}),
  cases: (ctx) =>
    caseArb(
      op,
      invalidBodyArb(op, { profile: ctx.profile })
        .filter((c) => FIELD_VIOLATION_KINDS.has(c.kind))
        .map(sent),
      goodAuth(ctx),
    ),
  examples: (ctx) =>
    invalidBodyExamples(op, { profile: ctx.profile })
      .filter((c) => FIELD_VIOLATION_KINDS.has(c.kind))
      .map((c) => toCase(op, sent(c), ctx)),
  prepare: (c, ctx) => brokenField(op, c, ctx),
  judge: (c, answer, { ctx }) => {
    const path = c.prepared ? (c.prepared.value as JsonPath | undefined) : brokenField(op, c, ctx);
    return judgeResponse("R10", answer, (res) =>
      path ? unnamedFieldProblem(path, observed(res), ctx.profile) : undefined,
    );
  },
  weight: 1,
  expects: () => ({
    none: "R10 reads which field the error body names: replay it with the replay command",
  }),
});

export const r10: RuleModule = { rule: "R10", checks: DETAILED_OPERATION_IDS.map(namesFieldCheck) };
