import {
  type ClusteringRules,
  type CreateSchemaRequest,
  detailedOperations,
  isPathSegmentName,
  rulesReadBackProblem,
  schemaReadBackProblem,
} from "@idp/contracts";
import { caseArb, goodAuth, validBodyAtEverySize } from "./requests.ts";
import type { CheckDef, RuleModule } from "./types.ts";
import { fromProblem, noAnswer, observed, PASS } from "./verdict.ts";

// R9 read your writes (conformance.md §8, opt-in: only with --checks R9): what a provider
// acknowledged, it gives back. Each case writes a valid body, and when the write is acknowledged
// (201, 200) reads it back through the neighbour operation (the profile's `neighbours`). The
// checks run alone after every other check and pact, one case at a time: another request writing
// in between would change what is read. A failure holds both exchanges and shrinks to the smallest
// body whose write is lost or altered.

const NOT_REPLAYED =
  "R9 needs the write and the read: replay it with the replay command (--checks R9 ...)";

const createCheck: CheckDef = {
  info: {
    id: "R9.read-back.createSchema",
    rule: "R9",
    title: "a schema acknowledged with 201 is read back with the same name and fields",
    needs: [],
  },
  exclusive: true,
  weight: 1,
  cases: (ctx) => caseArb("createSchema", validBodyAtEverySize("createSchema", ctx), goodAuth(ctx)),
  judge: async (c, answer, io) => {
    const none = noAnswer("R9", answer);
    if (none) return none;
    // Only an acknowledged write is read back (a refusal is R4's to judge); a name that cannot be
    // one path segment ("", ".", "..") is never read back (§8).
    if (
      answer.raw.kind !== "response" ||
      answer.raw.status !== detailedOperations.createSchema.successStatus
    )
      return PASS;
    const sent = (JSON.parse(c.body.text) as CreateSchemaRequest).schema;
    if (!isPathSegmentName(sent.name)) return PASS;
    const read = await io.neighbour("getSchema", sent.name);
    const unanswered = noAnswer("R9", read);
    if (unanswered) return { ...unanswered, answer, readBack: read };
    const problem = schemaReadBackProblem(sent, observed(read.raw as never));
    return problem ? { ...fromProblem(problem, answer), readBack: read } : PASS;
  },
  expects: () => ({ none: NOT_REPLAYED }),
};

const rulesCheck: CheckDef = {
  info: {
    id: "R9.read-back.updateClusteringRules",
    rule: "R9",
    title: "clustering rules acknowledged with 200 are read back as they were sent",
    needs: [],
  },
  exclusive: true,
  weight: 1,
  cases: (ctx) =>
    caseArb(
      "updateClusteringRules",
      validBodyAtEverySize("updateClusteringRules", ctx),
      goodAuth(ctx),
    ),
  judge: async (c, answer, io) => {
    const none = noAnswer("R9", answer);
    if (none) return none;
    if (
      answer.raw.kind !== "response" ||
      answer.raw.status !== detailedOperations.updateClusteringRules.successStatus
    )
      return PASS;
    const sent = (JSON.parse(c.body.text) as ClusteringRules).rules;
    const read = await io.neighbour("getClusteringRules");
    const unanswered = noAnswer("R9", read);
    if (unanswered) return { ...unanswered, answer, readBack: read };
    const problem = rulesReadBackProblem(sent, observed(read.raw as never));
    return problem ? { ...fromProblem(problem, answer), readBack: read } : PASS;
  },
  expects: () => ({ none: NOT_REPLAYED }),
};

export const r9: RuleModule = { rule: "R9", checks: [createCheck, rulesCheck] };
