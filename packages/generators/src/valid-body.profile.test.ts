import { fc, test } from "@fast-check/vitest";
import {
  type ClusteringRules,
  type CreateSchemaRequest,
  classifyRequestBody,
  defaultProfile,
  profileFromFile,
  strictProfile,
} from "@idp/contracts";
import { describe, expect, it } from "vitest";
import { validBodyArb } from "./index.ts";

// Generation follows the profile's valuesInUse (conformance.md §6): a profile file that names
// other values in use gets bodies with exactly those values.
const fieldTypes = ["array", "boolean", "date", "hash", "time"];
const classifierTypes = ["likes", "dislikes"];
const custom = {
  name: "custom values",
  valuesInUse: {
    "schema.fields[].type": fieldTypes,
    "rules.features.*.classifier.type": classifierTypes,
  },
};
const lenient = profileFromFile(custom, "custom.json");
const strict = profileFromFile({ ...custom, extends: "strict" }, "custom-strict.json");

describe("valid bodies follow the profile's valuesInUse", () => {
  it("should use exactly the profile's schema field types and classifier types", () => {
    // Arrange
    const schemas = fc.sample(validBodyArb("createSchema", { profile: lenient }), 500);
    const rules = fc.sample(validBodyArb("updateClusteringRules", { profile: lenient }), 500);
    // Act
    const types = (schemas as CreateSchemaRequest[]).flatMap((s) =>
      s.schema.fields.map((f) => f.type),
    );
    const classifiers = (rules as ClusteringRules[]).flatMap((r) =>
      Object.values(r.rules.features).map((f) => f.classifier.type),
    );
    // Assert
    expect(new Set(types)).toEqual(new Set(fieldTypes));
    expect(new Set(classifiers)).toEqual(new Set(classifierTypes));
  });

  test.prop([validBodyArb("createSchema", { profile: strict })], { numRuns: 50 })(
    "should be valid under a strict profile with those values, and not under the built-in strict one",
    (body) => {
      // Assert: the oracle is the contracts' classifier, the generator is the code under test.
      expect(classifyRequestBody("createSchema", JSON.stringify(body), strict).outcome).toBe(
        "valid",
      );
      const fields = (body as CreateSchemaRequest).schema.fields;
      // None of the custom types is one of the spec's, so the built-in strict profile rejects them.
      if (fields.length > 0)
        expect(
          classifyRequestBody("createSchema", JSON.stringify(body), strictProfile),
        ).toMatchObject({ outcome: "invalid", violation: { kind: "value-not-in-use" } });
    },
  );

  it("should keep the spec's values under the default profile", () => {
    const schemas = fc.sample(validBodyArb("createSchema", { profile: defaultProfile }), 300);
    const types = (schemas as CreateSchemaRequest[]).flatMap((s) =>
      s.schema.fields.map((f) => f.type),
    );
    expect(new Set(types)).toEqual(new Set(defaultProfile.valuesInUse["schema.fields[].type"]));
  });
});
