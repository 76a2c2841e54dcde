import { defaultProfile } from "@idp/contracts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { casesOf } from "../src/engine/cases.ts";
import { CHECKS } from "../src/rules/index.ts";
import type { RuleContext } from "../src/rules/types.ts";
import { Secrets } from "../src/secrets.ts";

const ctx: RuleContext = {
  origin: "http://127.0.0.1:1",
  basePath: "/v1",
  credentials: { username: "user", password: "password-1" },
  profile: defaultProfile,
  secrets: new Secrets(),
  statesAvailable: true,
  runId: "r",
  seed: 1,
  runs: 100,
  freshSchemaName: () => "n",
};

const first = <T>(it: Iterator<T>, n: number) =>
  Array.from({ length: n }, () => it.next().value as T);

describe("casesOf", () => {
  it.each([1, -7, 20261123, 2 ** 31 - 1])(
    "gives fc.sample's values in fc.check's order (seed %i)",
    (seed) => {
      const arb = fc.record({
        s: fc.string(),
        a: fc.array(fc.integer()),
        d: fc.double(),
        o: fc.dictionary(fc.string(), fc.nat()),
      });
      expect(first(casesOf(arb, seed), 1200)).toEqual(fc.sample(arb, { seed, numRuns: 1200 }));
    },
  );

  it.each(CHECKS.map((c) => [c.info.id, c] as const))(
    "gives %s's cases as fc.sample does",
    (_, def) => {
      const arb = def.cases(ctx);
      const lazy = first(casesOf(arb, 42), 150).map((c) => JSON.stringify(c));
      const eager = fc.sample(arb, { seed: 42, numRuns: 150 }).map((c) => JSON.stringify(c));
      expect(lazy).toEqual(eager);
    },
  );
});
