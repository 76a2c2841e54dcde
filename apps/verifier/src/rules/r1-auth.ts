import {
  AUTHENTICATION_FAILED,
  authRejectionProblem,
  DETAILED_OPERATION_IDS,
} from "@idp/contracts";
import fc from "fast-check";
import {
  AUTH_VARIANT_WORDS,
  AUTH_VARIANTS,
  type AuthVariant,
  authExamples,
  authVariantArb,
} from "./auth.ts";
import { caseArb, exampleValidBody, sharedAnyBody, toCase } from "./requests.ts";
import type { CheckDef, RuleModule } from "./types.ts";
import { judgeResponse, observed } from "./verdict.ts";

// R1: credentials are judged first, whatever the body is (conformance.md §1 R1, §3's order): every
// variant of bad credentials is sent with valid, invalid, not-JSON and stressed bodies alike.
const authCheck = (variant: AuthVariant): CheckDef => ({
  info: {
    id: `R1.auth.${variant}`,
    rule: "R1",
    title: `${AUTH_VARIANT_WORDS[variant]} gets 401 with error "authentication_failed", whatever the body`,
    needs: [],
  },
  cases: (ctx) =>
    fc.oneof(
      ...DETAILED_OPERATION_IDS.map((op) =>
        caseArb(op, sharedAnyBody(op, ctx), authVariantArb(variant, ctx.credentials, ctx.secrets)),
      ),
    ),
  // The near misses a real comparison lets through (text appended, after a colon too; a space
  // before or after; another case; cut short), each once per operation before the generated cases.
  examples: (ctx) =>
    authExamples(variant, ctx.credentials).flatMap((auth) =>
      DETAILED_OPERATION_IDS.map((op) => ({
        ...toCase(op, exampleValidBody(op, ctx), ctx),
        auth,
      })),
    ),
  judge: (_c, answer, { ctx }) =>
    judgeResponse("R1", answer, (res) => authRejectionProblem(observed(res), ctx.profile)),
  weight: 1,
  expects: ({ profile }) => ({
    status: [401],
    errorBody: { from: 400, errorsItems: profile.errorsItems },
    values: [{ path: "$.error", equals: AUTHENTICATION_FAILED }],
  }),
});

export const r1: RuleModule = { rule: "R1", checks: AUTH_VARIANTS.map(authCheck) };
