// The reasons' rules for a provider asking can-i-deploy (the consumer's side is reached on the real
// broker by apps/verifier/test/release-reasons.test.ts): the facts as the broker's API gives them.
import { describe, expect, it } from "vitest";
import type { MatrixRow } from "../src/broker-api.ts";
import { answerFor, type IntegrationFacts } from "../src/deploy-reasons.ts";

const subject = { pacticipant: "idp-service", version: "p9" };
const integration = { consumer: "shop", provider: "idp-service" };
/** The environment's row for the consumer's deployed version `c`, verified by p9 or not. */
const row = (c: string, success: boolean | null): MatrixRow => ({
  consumer: { name: "shop", version: { number: c } },
  provider: { name: "idp-service", version: success === null ? null : { number: "p9" } },
  pact: {},
  verificationResult: success === null ? null : { success },
});
const facts = (patch: Partial<IntegrationFacts>): IntegrationFacts => ({
  integration,
  environment: "production",
  otherInEnvironment: ["c1"],
  everVerified: true,
  environmentRows: [row("c1", null)],
  subjectRows: [],
  subjectHasAny: true,
  ...patch,
});

describe("can-i-deploy's reasons for a provider version", () => {
  it.each([
    [
      "no consumer version in the environment",
      { otherInEnvironment: [], environmentRows: [] },
      undefined,
    ],
    ["the deployed consumer version has no pact with it", { environmentRows: [] }, undefined],
    ["it verified the deployed consumer's pact", { environmentRows: [row("c1", true)] }, undefined],
    [
      "it failed the deployed consumer's pact",
      { environmentRows: [row("c1", false)] },
      "verification-failed",
    ],
    ["it never published a result for this consumer", { everVerified: false }, "never-verified"],
    ["this version has no verification results at all", { subjectHasAny: false }, "no-pacts"],
    ["it has verified other pacts, not this one", {}, "pending-verification"],
  ] as const)("%s: %s", (_, patch, reason) => {
    const answer = answerFor(subject, facts(patch));
    expect(answer.role).toBe("provider");
    expect(answer.reason).toBe(reason);
    expect(answer.todo === undefined).toBe(reason === undefined);
  });
});
