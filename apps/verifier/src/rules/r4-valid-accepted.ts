import {
  acceptanceProblem,
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  detailedOperations,
  PROVIDER_STATES,
} from "@idp/contracts";
import { caseArb, goodAuth, validBody } from "./requests.ts";
import type { Case, CheckDef, JudgeIo, RuleModule, Verdict } from "./types.ts";
import { fromProblem, noAnswer, PASS } from "./verdict.ts";

/** The same body under another schema name (the only change R4's retry makes). */
function renamed(c: Case, name: string): Case {
  const body = JSON.parse(c.body.text) as { schema: Record<string, unknown> };
  const text = JSON.stringify({ ...body, schema: { ...body.schema, name } });
  return {
    ...c,
    body: { ...c.body, text, note: `the same valid body, renamed to ${JSON.stringify(name)}` },
  };
}

/**
 * A provider may refuse a schema name it already holds (conformance.md §1): a valid create answered
 * 422 is sent once more under a name this run has never sent; 201 then means the provider keeps
 * names unique, which is a warning, not a failure. Generated names are never changed beforehand.
 */
async function judgeCreate(c: Case, status: number, io: JudgeIo): Promise<Verdict | undefined> {
  if (c.operation !== "createSchema" || status !== 422) return undefined;
  const retry = await io.resend(renamed(c, io.ctx.freshSchemaName()));
  if (retry.raw.kind === "response" && retry.raw.status === 201)
    return {
      ok: true,
      warning:
        "createSchema answered 422 to a valid schema and 201 to the same schema under a name never sent before: the provider refuses names it already holds (allowed, conformance.md §1)",
    };
  return undefined;
}

const acceptedCheck = (op: DetailedOperationId): CheckDef => ({
  info: {
    id: `R4.valid-accepted.${op}`,
    rule: "R4",
    title: `a valid ${op} payload with good credentials gets the success status`,
    needs: op === "pushToUserDevices" ? ["provider-states"] : [],
  },
  ...(op === "pushToUserDevices"
    ? { state: () => ({ name: PROVIDER_STATES.loginUserExists }) }
    : {}),
  cases: (ctx) => caseArb(op, validBody(op, ctx), goodAuth(ctx)),
  judge: async (c, answer, io) => {
    const none = noAnswer("R4", answer);
    if (none) return none;
    const status = answer.raw.kind === "response" ? answer.raw.status : 0;
    const problem = acceptanceProblem(op, status);
    if (!problem) return PASS;
    return (await judgeCreate(c, status, io)) ?? fromProblem(problem, answer);
  },
  weight: 1,
  expects: () => ({
    status: [detailedOperations[op].successStatus],
    ...(op === "createSchema" ? { renameOn422: true as const } : {}),
  }),
});

export const r4: RuleModule = { rule: "R4", checks: DETAILED_OPERATION_IDS.map(acceptedCheck) };
