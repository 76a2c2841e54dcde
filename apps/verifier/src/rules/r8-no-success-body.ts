import { DETAILED_OPERATION_IDS, PROVIDER_STATES, successBodyProblem } from "@idp/contracts";
import fc from "fast-check";
import { caseArb, goodAuth, validBody } from "./requests.ts";
import type { RuleModule } from "./types.ts";
import { judgeResponse, observed } from "./verdict.ts";

export const r8: RuleModule = {
  rule: "R8",
  checks: [
    {
      info: {
        id: "R8.no-success-body",
        rule: "R8",
        title: "success answers (200, 201) carry no body",
        needs: [],
      },
      // Push succeeds only for a login user that exists: with provider states its cases go to one;
      // without, R8 is judged on the other two operations (and on every answer, see observed.ts).
      state: (ctx) => (ctx.statesAvailable ? { name: PROVIDER_STATES.loginUserExists } : undefined),
      cases: (ctx) =>
        fc.oneof(
          ...DETAILED_OPERATION_IDS.filter(
            (op) => op !== "pushToUserDevices" || ctx.statesAvailable,
          ).map((op) => caseArb(op, validBody(op, ctx), goodAuth(ctx))),
        ),
      judge: (_c, answer) =>
        judgeResponse("R8", answer, (res) => successBodyProblem(observed(res))),
      observes: (_op, res) => successBodyProblem(observed(res)),
      weight: 1,
      expects: () => ({ noSuccessBody: true as const }),
    },
  ],
};
