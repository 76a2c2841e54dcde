import { fc, test } from "@fast-check/vitest";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { anyKey, safeKey } from "./_internal/json-values.ts";
import { GeneratorError } from "./errors.ts";
import {
  clusteringRulesArb,
  createSchemaRequestArb,
  invalidBodyArb,
  userPublishRequestArb,
} from "./index.ts";
import { zodArbitrary } from "./zod-arbitrary.ts";

// Schemas covering every construct the derivation understands.
const supported = {
  scalars: z.object({ s: z.string(), b: z.boolean(), n: z.number(), nul: z.null() }),
  integers: z.object({
    int: z.int(),
    refined: z.number().refine(Number.isInteger),
    bounded: z.int().min(-3).max(5),
  }),
  bounds: z.object({ unit: z.number().min(0).max(1), positive: z.number().gt(0) }),
  choices: z.object({ e: z.enum(["a", "b"]), l: z.literal(7), maybe: z.string().nullable() }),
  collections: z.object({
    tags: z.array(z.string()).min(1).max(3),
    map: z.record(z.string(), z.array(z.int())),
    opt: z.boolean().optional(),
  }),
};

describe("zodArbitrary", () => {
  for (const [name, schema] of Object.entries(supported)) {
    test.prop([zodArbitrary(schema)])(
      `should only produce values the ${name} schema accepts`,
      (v) => {
        expect(schema.safeParse(v).error).toBeUndefined();
      },
    );
  }

  test.prop([zodArbitrary(supported.collections)])(
    "should leave an optional key absent rather than undefined",
    (v) => {
      const opt = Object.getOwnPropertyDescriptor(v, "opt");
      expect(opt === undefined || typeof opt.value === "boolean").toBe(true);
    },
  );

  it("should use an override at its path pattern instead of the derived arbitrary", () => {
    // Arrange
    const schema = z.object({ items: z.array(z.object({ kind: z.string() })).min(1) });
    // Act
    const values = fc.sample(
      zodArbitrary(schema, { overrides: { "items[].kind": fc.constant("fixed") } }),
      50,
    ) as { items: { kind: string }[] }[];
    // Assert
    expect(values.flatMap((v) => v.items.map((i) => i.kind))).toEqual(
      expect.arrayContaining(["fixed"]),
    );
    expect(new Set(values.flatMap((v) => v.items.map((i) => i.kind)))).toEqual(new Set(["fixed"]));
  });

  it.each([
    ["a string format", z.object({ mail: z.email() }), "mail"],
    ["a custom refinement", z.object({ even: z.number().refine((n) => n % 2 === 0) }), "even"],
    ["a date", z.object({ when: z.array(z.date()) }), "when[]"],
  ])("should refuse %s, naming where, instead of filtering", (_, schema, where) => {
    expect(() => zodArbitrary(schema)).toThrow(GeneratorError);
    expect(() => zodArbitrary(schema)).toThrow(`"${where}"`);
  });

  it("should build every arbitrary of the package without filter (no rejected samples)", () => {
    // Arrange
    const filter = vi.spyOn(fc.Arbitrary.prototype, "filter");
    // Act
    createSchemaRequestArb();
    userPublishRequestArb();
    clusteringRulesArb();
    for (const op of ["createSchema", "pushToUserDevices", "updateClusteringRules"] as const)
      invalidBodyArb(op);
    zodArbitrary(supported.collections);
    // Assert
    expect(filter).not.toHaveBeenCalled();
  });
});

describe("map keys", () => {
  it("should never be __proto__, which object literals and zod records treat as the prototype", () => {
    expect(safeKey("__proto__")).not.toBe("__proto__");
    expect(safeKey("constructor")).toBe("constructor");
  });

  test.prop([anyKey])("should be own keys after a JSON round trip", (key) => {
    const parsed = JSON.parse(JSON.stringify({ [key]: 1 })) as object;
    expect(Object.keys(parsed)).toEqual([key]);
  });
});
