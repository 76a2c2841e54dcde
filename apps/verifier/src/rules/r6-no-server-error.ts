import { serverErrorProblem } from "@idp/contracts";
import { mixedCases } from "./requests.ts";
import type { RuleModule } from "./types.ts";
import { judgeResponse } from "./verdict.ts";

export const r6: RuleModule = {
  rule: "R6",
  checks: [
    {
      info: {
        id: "R6.no-5xx",
        rule: "R6",
        title: "no generated request (valid, invalid, stressed, unauthenticated) gets a 5xx",
        needs: [],
      },
      // Half the cases are stressed: the structures that crash recursive code are R6's first suspects.
      cases: (ctx) => mixedCases(ctx, 3),
      judge: (_c, answer) => judgeResponse("R6", answer, (res) => serverErrorProblem(res.status)),
      observes: (_op, res) => serverErrorProblem(res.status),
      // Stressed bodies (up to 1 MiB) make its cases the costliest.
      weight: 4,
      expects: () => ({ statusBelow: 500 }),
    },
  ],
};
