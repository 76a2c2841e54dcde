import {
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  type ExpectedRejection,
  expectedRejection,
  PROVIDER_STATES,
  rejectionProblemOf,
} from "@idp/contracts";
import { caseArb, goodAuth, invalidBody, invalidExamples, toCase } from "./requests.ts";
import type { Case, CheckDef, RuleContext, RuleModule } from "./types.ts";
import { judgeResponse } from "./verdict.ts";

const expectedOf = (op: DetailedOperationId, c: Case, ctx: RuleContext) =>
  expectedRejection(op, c.body.text, ctx.profile);

// R5's oracle is @idp/contracts' reading of the exact text sent (never the generator's label), and
// its status is the profile's pin: any other status, even a documented 4xx, breaks R5.
const rejectedCheck = (op: DetailedOperationId): CheckDef => ({
  info: {
    id: `R5.invalid-rejected.${op}`,
    rule: "R5",
    title: `an invalid ${op} payload gets exactly the 4xx the profile pins for its violation`,
    needs: [],
  },
  // Push: with provider states, invalid bodies go to a login user that exists, so the answer is
  // about the body whatever order a provider checks body and user in; without them, the generated
  // id and the pinned order (body before user, §3) decide.
  ...(op === "pushToUserDevices"
    ? {
        state: (ctx) =>
          ctx.statesAvailable ? { name: PROVIDER_STATES.loginUserExists } : undefined,
      }
    : {}),
  cases: (ctx) => caseArb(op, invalidBody(op, ctx), goodAuth(ctx)),
  examples: (ctx) => invalidExamples(op, ctx).map((body) => toCase(op, body, ctx)),
  // The profile's reading of the exact text sent: read where the case is generated when it can be.
  prepare: (c, ctx) => expectedOf(op, c, ctx),
  judge: (c, answer, { ctx }) => {
    const expected = c.prepared
      ? (c.prepared.value as ExpectedRejection | undefined)
      : expectedOf(op, c, ctx);
    return judgeResponse("R5", answer, (res) => rejectionProblemOf(op, expected, res.status));
  },
  weight: 1,
  expects: ({ profile, body }) => {
    const pin = body !== undefined ? expectedRejection(op, body, profile) : undefined;
    return pin ? { status: [pin.status] } : { none: "the profile pins no status for this body" };
  },
});

export const r5: RuleModule = { rule: "R5", checks: DETAILED_OPERATION_IDS.map(rejectedCheck) };
