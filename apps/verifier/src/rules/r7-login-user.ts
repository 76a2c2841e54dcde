import { type LoginUserKind, loginUserProblem, PROVIDER_STATES } from "@idp/contracts";
import { caseArb, goodAuth, validBody } from "./requests.ts";
import type { CheckDef, RuleModule } from "./types.ts";
import { judgeResponse } from "./verdict.ts";

const loginUserCheck = (
  id: string,
  kind: LoginUserKind,
  state: (typeof PROVIDER_STATES)[keyof typeof PROVIDER_STATES],
  words: string,
): CheckDef => ({
  info: {
    id,
    rule: "R7",
    title: `a valid push ${words} gets the profile's status (404 and 403 by default)`,
    needs: ["provider-states"],
  },
  state: () => ({ name: state }),
  cases: (ctx) => caseArb("pushToUserDevices", validBody("pushToUserDevices", ctx), goodAuth(ctx)),
  judge: (_c, answer, { ctx }) =>
    judgeResponse("R7", answer, (res) => loginUserProblem(kind, res.status, ctx.profile)),
  weight: 1,
  expects: ({ profile }) => ({ status: [profile.loginUserStatuses[kind]] }),
});

export const r7: RuleModule = {
  rule: "R7",
  checks: [
    loginUserCheck(
      "R7.push-404",
      "unknown",
      PROVIDER_STATES.noLoginUserExists,
      "to an id no login user has",
    ),
    loginUserCheck(
      "R7.push-403",
      "otherLoginApp",
      PROVIDER_STATES.loginUserOfAnotherAppExists,
      "to a login user of another login app",
    ),
  ],
};
