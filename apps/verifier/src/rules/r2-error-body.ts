import { type ContractProfile, errorBodyProblem } from "@idp/contracts";
import type { HttpResponse } from "../http/send.ts";
import { mixedCases } from "./requests.ts";
import type { RuleModule } from "./types.ts";
import { judgeResponse, observed } from "./verdict.ts";

const errorBodyOf = (res: HttpResponse, profile: ContractProfile) =>
  res.status >= 400 ? errorBodyProblem(observed(res), profile) : undefined;

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
        judgeResponse("R2", answer, (res) => errorBodyOf(res, ctx.profile)),
      observes: (_op, res, profile) => errorBodyOf(res, profile),
      weight: 2,
      expects: ({ profile }) => ({ errorBody: { from: 400, errorsItems: profile.errorsItems } }),
    },
  ],
};
