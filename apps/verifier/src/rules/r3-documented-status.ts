import { undocumentedStatusProblem } from "@idp/contracts";
import { mixedCases } from "./requests.ts";
import type { RuleModule } from "./types.ts";
import { judgeResponse } from "./verdict.ts";

export const r3: RuleModule = {
  rule: "R3",
  checks: [
    {
      info: {
        id: "R3.documented-status",
        rule: "R3",
        title: "every answer's status is one the operation documents",
        needs: [],
      },
      cases: mixedCases,
      judge: (c, answer, { ctx }) =>
        judgeResponse("R3", answer, (res) =>
          undocumentedStatusProblem(c.operation, res.status, ctx.profile),
        ),
      observes: (op, res, profile) => undocumentedStatusProblem(op, res.status, profile),
      weight: 2,
      expects: ({ operation, profile }) =>
        operation
          ? { status: profile.documentedStatuses[operation] }
          : { none: "the operation is unknown" },
    },
  ],
};
