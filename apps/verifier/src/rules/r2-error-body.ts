import { errorBodyProblem } from "@idp/contracts";
import { mixedCases } from "./requests.ts";
import type { RuleModule } from "./types.ts";
import { judgeResponse, observed } from "./verdict.ts";

export const r2: RuleModule = {
  rule: "R2",
  checks: [
    {
      info: {
        id: "R2.error-body",
        rule: "R2",
        title: "every answer >= 400 is application/json with error, error_description and errors",
        needs: [],
      },
      cases: mixedCases,
      judge: (_c, answer, { ctx }) =>
        judgeResponse("R2", answer, (res) =>
          res.status >= 400 ? errorBodyProblem(observed(res), ctx.profile) : undefined,
        ),
    },
  ],
};
