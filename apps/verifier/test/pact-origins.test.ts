import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { pactOrigins, severalOrigins } from "../src/pact/origins.ts";

// pact-core's `output` as its verifier writes it (lines taken from a run against the kit's broker:
// a main-branch pact, then a WIP pact of another branch), cut to two interactions per pact.
const BROKER = "http://127.0.0.1:35621/pacts/provider/idp-service/consumer/idp-toolkit-consumer";
const bold = (s: string) => `\u001b[1m${s}\u001b[0m`;
const header = `\nVerifying a pact between ${bold("idp-toolkit-consumer")} and ${bold("idp-service")}`;
const interaction = (d: string) => `  ${d} (97ms loading, 63ms verification)`;
const OUTPUT = [
  `The pact at ${BROKER}/pact-version/557e is being verified because the pact content belongs to the consumer version matching the following criterion:\n    * latest version from the main branch 'main' (v1)`,
  "This pact is in pending state for this version of idp-service because a successful verification result for a version of idp-service from branch 'main' has not yet been published.",
  header,
  "",
  interaction("create schema: 201 for a valid schema"),
  "     Given no schema with this name exists",
  "    returns a response which",
  "      has status code \u001b[1m201\u001b[0m (\u001b[32mOK\u001b[0m)",
  interaction("create schema: 400 for a malformed body"),
  `The pact at ${BROKER}/pact-version/9e80/metadata/d2lwPXRydWU is being verified because it is a 'work in progress' pact (ie. it is the pact for the latest version of idp-toolkit-consumer from branch 'feat' and it has not yet been successfully verified by a version of idp-service from branch 'main' when the pact's application version was explicitly specified in the consumer version selectors). Read more at https://docs.pact.io/go/wip`,
  header,
  interaction("create schema: 201 for a valid schema"),
  interaction("create schema: 400 for a malformed body"),
  "1) Verifying a pact between idp-toolkit-consumer and idp-service - create schema: 201 for a valid schema",
];

describe("pactOrigins", () => {
  it("names each result's pact: the version of a selected pact, the branch of a WIP one", () => {
    const origins = pactOrigins(OUTPUT, 4);
    expect(origins?.map((o) => o.label)).toEqual([
      "idp-toolkit-consumer@v1",
      "idp-toolkit-consumer@v1",
      "idp-toolkit-consumer@feat",
      "idp-toolkit-consumer@feat",
    ]);
    expect(origins?.[0]?.text).toBe("consumer idp-toolkit-consumer version v1, branch main");
    expect(origins?.[2]?.text).toBe("consumer idp-toolkit-consumer branch feat, work in progress");
    expect(severalOrigins(origins)).toBe(true);
  });

  it("names every branch of a WIP pact several branches share, not the provider's", () => {
    const shared = [
      `The pact at ${BROKER}/pact-version/9e80 is being verified because it is a 'work in progress' pact (ie. it is the pact for the latest versions of idp-toolkit-consumer from branches 'feat', 'wip-1' and 'wip-2' (all have the same content) and it has not yet been successfully verified by a version of idp-service from branch 'main').`,
      header,
      interaction("a"),
    ];
    expect(pactOrigins(shared, 1)?.[0]?.label).toBe("idp-toolkit-consumer@feat+wip-1+wip-2");
  });

  it("tells two pacts of one consumer without notices (files, URLs) apart by order", () => {
    const files = [header, interaction("a"), header, interaction("a")];
    expect(pactOrigins(files, 2)?.map((o) => o.label)).toEqual([
      "idp-toolkit-consumer",
      "idp-toolkit-consumer#2",
    ]);
  });

  it("one pact is not several", () => {
    expect(severalOrigins(pactOrigins(OUTPUT.slice(0, 9), 2))).toBe(false);
  });

  test.prop([fc.integer({ min: 0, max: 50 }).filter((n) => n !== 4)])(
    "attributes nothing when the output does not account for exactly the results",
    (count) => {
      expect(pactOrigins(OUTPUT, count)).toBeUndefined();
    },
  );

  it("attributes nothing without output", () => {
    expect(pactOrigins(undefined, 3)).toBeUndefined();
  });
});
