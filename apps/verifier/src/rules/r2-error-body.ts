import {
  type ContractProfile,
  DETAILED_OPERATION_IDS,
  detailedOperations,
  errorBodyProblem,
} from "@idp/contracts";
import type { HttpResponse } from "../http/send.ts";
import { mixedCases, toCase } from "./requests.ts";
import type { Case, RuleContext, RuleModule } from "./types.ts";
import { judgeResponse, observed } from "./verdict.ts";

const errorBodyOf = (res: HttpResponse, profile: ContractProfile) =>
  res.status >= 400 ? errorBodyProblem(observed(res), profile) : undefined;

/**
 * Text beyond ASCII, Latin-1's upper half first: a provider that echoes the request into its error
 * body and writes it as ISO-8859-1 (a servlet's default) sends bytes that are not UTF-8 only for
 * these, and the generated strings hold them rarely.
 */
const NON_ASCII = "café naïve ½ ÿ µ § ß É – € 한 😀";

/**
 * Sent first, every run the same, to each operation with good credentials: a body that is not JSON
 * and one whose wrapper is a string, both holding {@link NON_ASCII} (each gets a 4xx with the error
 * body, which must still be UTF-8 JSON).
 */
function echoExamples(ctx: RuleContext): Case[] {
  return DETAILED_OPERATION_IDS.flatMap((op) => {
    const wrapper = detailedOperations[op].wrapperKey;
    return [
      { text: `not JSON: ${NON_ASCII}`, note: "not JSON, with text beyond ASCII" },
      {
        text: JSON.stringify({ [wrapper]: NON_ASCII }),
        note: `${wrapper} a string beyond ASCII (not an object)`,
      },
    ].map(({ text, note }) => toCase(op, { text, kind: "invalid", note }, ctx));
  });
}

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
      examples: echoExamples,
      judge: (_c, answer, { ctx }) =>
        judgeResponse("R2", answer, (res) => errorBodyOf(res, ctx.profile)),
      observes: (_op, res, profile) => errorBodyOf(res, profile),
      weight: 2,
      expects: ({ profile }) => ({ errorBody: { from: 400, errorsItems: profile.errorsItems } }),
    },
  ],
};
