import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  classifyRequestBody,
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  defaultProfile,
  defineProfile,
  PINNED_STATUS_MAPPING,
  SPEC_VIOLATION_KINDS,
  strictProfile,
  type ViolationKind,
} from "../src/index.ts";
import { clusteringExample, createSchemaExample, pushExample } from "./examples.ts";
import { conformanceText, tableAfter } from "./spec-text.ts";

const ROW_OF: Record<string, DetailedOperationId> = {
  "create schema": "createSchema",
  "push to user devices": "pushToUserDevices",
  "update clustering rules": "updateClusteringRules",
};
// Which words of a §3 cell name which violation kind.
const WORDS: Partial<Record<ViolationKind, RegExp>> = {
  "not-json": /not JSON/,
  "not-object": /not an object/,
  "wrapper-missing": /missing/,
  "wrapper-not-object": /missing \/ not an object|not an object/,
  "wrong-type": /wrong JSON type/,
};
const EXAMPLE: Record<DetailedOperationId, Record<string, unknown>> = {
  createSchema: createSchemaExample,
  pushToUserDevices: pushExample,
  updateClusteringRules: clusteringExample,
};

describe("the pinned 400/422 mapping", () => {
  const rows = tableAfter(conformanceText, "## 3. Which 4xx");

  it("should agree with every cell of conformance.md section 3", () => {
    expect(rows.map((r) => r[0])).toEqual(Object.keys(ROW_OF));
    for (const [label = "", col400 = "", col422 = ""] of rows) {
      const op = ROW_OF[label] as DetailedOperationId;
      for (const kind of SPEC_VIOLATION_KINDS) {
        const status = PINNED_STATUS_MAPPING[op][kind];
        const cell = status === 400 ? col400 : col422;
        const other = status === 400 ? col422 : col400;
        const words = WORDS[kind] ?? /^$/;
        // The chosen column names the violation (or says "every malformed body"), the other does not.
        expect(words.test(cell) || /every malformed body/.test(cell), `${label} ${kind}`).toBe(
          true,
        );
        expect(
          other.startsWith("never") || !words.test(other) || kind === "wrapper-not-object",
          `${label} ${kind}`,
        ).toBe(true);
      }
    }
  });

  it.each(DETAILED_OPERATION_IDS)(
    "should classify each spec violation of %s with its pinned status",
    (op) => {
      const wrapper = Object.keys(EXAMPLE[op])[0] as string;
      const cases: [ViolationKind, string][] = [
        ["not-json", "{not json"],
        ["not-object", "[]"],
        ["wrapper-missing", "{}"],
        ["wrapper-not-object", JSON.stringify({ [wrapper]: "x" })],
        [
          "wrong-type",
          JSON.stringify({
            [wrapper]: { ...(EXAMPLE[op][wrapper] as object), [firstKey(op)]: 12.5 },
          }),
        ],
      ];
      for (const [kind, raw] of cases) {
        const c = classifyRequestBody(op, raw);
        expect(c.outcome, `${op} ${kind}`).toBe("invalid");
        if (c.outcome === "invalid") {
          expect(c.violation.kind).toBe(kind);
          expect(c.status).toBe(PINNED_STATUS_MAPPING[op][kind]);
        }
      }
    },
  );

  it("should let a profile override the mapping", () => {
    const lenient = defineProfile(defaultProfile, {
      name: "push answers 422 for wrong types",
      statusMapping: {
        ...PINNED_STATUS_MAPPING,
        pushToUserDevices: { ...PINNED_STATUS_MAPPING.pushToUserDevices, "wrong-type": 422 },
      },
    });
    const raw = JSON.stringify({ data: { ...pushExample.data, badge: "1" } });
    expect(classifyRequestBody("pushToUserDevices", raw, lenient)).toMatchObject({
      outcome: "invalid",
      status: 422,
    });
    expect(classifyRequestBody("pushToUserDevices", raw)).toMatchObject({
      outcome: "invalid",
      status: 400,
    });
  });
});

function firstKey(op: DetailedOperationId): string {
  return {
    createSchema: "name",
    pushToUserDevices: "message",
    updateClusteringRules: "parameters",
  }[op];
}

describe("the default profile", () => {
  test.prop([fc.string(), fc.jsonValue()])(
    "should never call a payload invalid for an unknown key",
    (key, value) => {
      const body = { schema: { ...createSchemaExample.schema, [`x-${key}`]: value } };
      expect(classifyRequestBody("createSchema", JSON.stringify(body)).outcome).toBe("valid");
    },
  );

  test.prop([fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true })])(
    "should never call a value beyond those in use invalid",
    (type, threshold) => {
      const sports = clusteringExample.rules.features.sports;
      if (!sports) throw new Error("example lacks the sports feature");
      const body = {
        rules: {
          ...clusteringExample.rules,
          features: { f: { ...sports, classifier: { ...sports.classifier, type, threshold } } },
        },
      };
      expect(classifyRequestBody("updateClusteringRules", JSON.stringify(body)).outcome).toBe(
        "valid",
      );
    },
  );

  it("should leave a missing field unspecified (the spec is silent), but the strict profile rejects it", () => {
    const { name: _, ...withoutName } = createSchemaExample.schema;
    const raw = JSON.stringify({ schema: withoutName });
    expect(classifyRequestBody("createSchema", raw)).toMatchObject({
      outcome: "unspecified",
      status: 422,
    });
    expect(classifyRequestBody("createSchema", raw, strictProfile)).toMatchObject({
      outcome: "invalid",
      status: 422,
      violation: { kind: "missing-field", path: ["schema", "name"] },
    });
  });

  it.each([
    [{ name: "a" }, "missing-field"],
    [{ name: "a", type: true }, "wrong-type"],
    [{ name: "a", type: "uuid" }, "value-not-in-use"],
  ] as const)("should tell a strict enum's %j apart as %s", (field, kind) => {
    const raw = JSON.stringify({ schema: { ...createSchemaExample.schema, fields: [field] } });
    expect(classifyRequestBody("createSchema", raw, strictProfile)).toMatchObject({
      outcome: "invalid",
      violation: { kind, path: ["schema", "fields", 0, "type"] },
    });
  });

  it("should reject values beyond those in use only under the strict profile", () => {
    const raw = JSON.stringify({
      schema: { ...createSchemaExample.schema, fields: [{ name: "a", type: "uuid" }] },
    });
    expect(classifyRequestBody("createSchema", raw).outcome).toBe("valid");
    expect(classifyRequestBody("createSchema", raw, strictProfile)).toMatchObject({
      outcome: "invalid",
      violation: { kind: "value-not-in-use", path: ["schema", "fields", 0, "type"] },
    });
    expect(strictProfile.name).toContain("strict");
    expect(strictProfile.assumptions.length).toBeGreaterThan(0);
    expect(defaultProfile.assumptions).toEqual([]);
  });
});
