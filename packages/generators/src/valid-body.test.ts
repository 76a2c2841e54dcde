import { fc, test } from "@fast-check/vitest";
import {
  CLASSIFIER_TYPES_IN_USE,
  classifyRequestBody,
  type DetailedOperationId,
  FIELD_TYPES_IN_USE,
  strictProfile,
} from "@idp/contracts";
import { describe, expect, it } from "vitest";
import {
  clusteringRulesArb,
  createSchemaRequestArb,
  userPublishRequestArb,
  type ValidBodyConstraints,
  validBodyArb,
} from "./index.ts";

const constraintsArb: fc.Arbitrary<ValidBodyConstraints> = fc.record(
  {
    maxLength: fc.integer({ min: 0, max: 12 }),
    size: fc.constantFrom("xsmall", "small", "medium", "large", "=", "+1", "-1"),
  },
  { requiredKeys: [] },
);

const arbs: Record<DetailedOperationId, (c?: ValidBodyConstraints) => fc.Arbitrary<unknown>> = {
  createSchema: createSchemaRequestArb,
  pushToUserDevices: userPublishRequestArb,
  updateClusteringRules: clusteringRulesArb,
};

describe.each(Object.entries(arbs))("valid bodies of %s", (name, arb) => {
  const op = name as DetailedOperationId;

  test.prop([constraintsArb.chain((c) => arb(c))])(
    "should only produce values the contract accepts, as sent on the wire",
    (body) => {
      const verdict = classifyRequestBody(op, JSON.stringify(body));
      expect(verdict.outcome === "invalid" ? verdict.violation : verdict.outcome).toBe("valid");
    },
  );

  test.prop([validBodyArb(op)], { numRuns: 50 })(
    "should also be valid under the strict profile (only tabulated keys, values in use)",
    (body) => {
      expect(classifyRequestBody(op, JSON.stringify(body), strictProfile).outcome).toBe("valid");
    },
  );

  test.prop([
    fc
      .integer({ min: 0, max: 3 })
      .chain((maxLength) => fc.tuple(fc.constant(maxLength), arb({ maxLength }))),
  ])("should respect maxLength on every array and map", ([maxLength, body]) => {
    const sizes: number[] = [];
    JSON.stringify(body, (_k, v: unknown) => {
      if (Array.isArray(v)) sizes.push(v.length);
      else if (v !== null && typeof v === "object") sizes.push(0);
      return v;
    });
    expect(Math.max(...sizes)).toBeLessThanOrEqual(maxLength);
  });
});

describe("valid bodies: edges the spec allows", () => {
  const N = 1000;
  const strings = (v: unknown): string[] => {
    const out: string[] = [];
    JSON.stringify(v, (k, x: unknown) => {
      if (k !== "") out.push(k);
      if (typeof x === "string") out.push(x);
      return x;
    });
    return out;
  };

  it("should reach empty and non-ASCII strings, empty arrays, large integers and every unique state", () => {
    // Arrange
    const schemas = fc.sample(createSchemaRequestArb(), N);
    const pushes = fc.sample(userPublishRequestArb(), N);
    const all = [...schemas, ...pushes].flatMap(strings);
    const fields = schemas.flatMap((s) => s.schema.fields);
    const integers = pushes.flatMap((p) => [p.data.badge, p.data.vibrate_duration]);
    // Assert
    expect(all).toContain("");
    expect(all.some((s) => /[^\x20-\x7e]/.test(s))).toBe(true);
    expect(schemas.some((s) => s.schema.fields.length === 0)).toBe(true);
    expect(new Set(fields.map((f) => String(f.unique)))).toEqual(
      new Set(["undefined", "true", "false"]),
    );
    expect(fields.some((f) => !Object.hasOwn(f, "unique"))).toBe(true);
    expect(new Set(fields.map((f) => f.type))).toEqual(new Set(FIELD_TYPES_IN_USE));
    expect(integers.some((i) => Math.abs(i) > Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(
      integers.some((i) => Math.abs(i) > 2 ** 31 && Math.abs(i) <= Number.MAX_SAFE_INTEGER),
    ).toBe(true);
  });

  it("should reach threshold 0, 1 and fractions, empty maps, absent excluded_words and many features", () => {
    // Arrange
    const rules = [
      ...fc.sample(clusteringRulesArb(), N),
      ...fc.sample(clusteringRulesArb({ maxLength: 40, size: "large" }), 100),
    ];
    const features = rules.flatMap((r) => Object.values(r.rules.features));
    const thresholds = features.map((f) => f.classifier.threshold);
    // Assert
    expect(thresholds).toContain(0);
    expect(thresholds).toContain(1);
    expect(thresholds.some((t) => t > 0 && t < 1)).toBe(true);
    expect(rules.some((r) => Object.keys(r.rules.features).length === 0)).toBe(true);
    expect(rules.some((r) => Object.keys(r.rules.features).length > 10)).toBe(true);
    expect(features.some((f) => f.labels.length > 10)).toBe(true);
    expect(features.some((f) => !Object.hasOwn(f.classifier, "excluded_words"))).toBe(true);
    expect(features.some((f) => Object.hasOwn(f.classifier, "excluded_words"))).toBe(true);
    expect(new Set(features.map((f) => f.classifier.type))).toEqual(
      new Set(CLASSIFIER_TYPES_IN_USE),
    );
  });
});
