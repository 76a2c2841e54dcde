// conformance.md §8: the neighbour operations as pinned, overridable in a profile file, and R9's
// judges of what a provider gives back.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  defaultProfile,
  isPathSegmentName,
  neighbourPath,
  PINNED_NEIGHBOURS,
  ProfileError,
  profileFromFile,
  profileToFile,
  rulesReadBackProblem,
  schemaReadBackProblem,
} from "../src/index.ts";
import { clusteringExample, createSchemaExample } from "./examples.ts";
import { conformanceText, tableAfter } from "./spec-text.ts";

describe("the neighbours (conformance.md §8)", () => {
  it("are pinned as §8's table gives them, with §8 as their source", () => {
    const rows = tableAfter(conformanceText, "## 8. Neighbour operations");
    for (const [name = "", request = ""] of rows) {
      const key = name.replaceAll("`", "") as keyof typeof PINNED_NEIGHBOURS;
      const [method, path] = request.replaceAll("`", "").split(" ");
      expect(PINNED_NEIGHBOURS[key], key).toEqual({ method, path });
      expect(defaultProfile.sourceOf(`neighbours.${key}`)).toEqual({
        source: "pinned",
        ref: "conformance.md §8",
      });
    }
    expect(rows).toHaveLength(3);
  });

  test.prop([fc.string({ unit: "grapheme", minLength: 1 })])(
    "put a schema name in the path as one percent-encoded segment",
    (name) => {
      const path = neighbourPath(PINNED_NEIGHBOURS.getSchema, name);
      const segment = path.slice("/marketing/datastore/schemas/".length);
      expect(segment).not.toContain("/");
      expect(decodeURIComponent(segment)).toBe(name);
    },
  );

  it("never read back or remove a name that cannot be one segment", () => {
    expect(["", ".", ".."].map(isPathSegmentName)).toEqual([false, false, false]);
    expect(["a", "...", " "].map(isPathSegmentName)).toEqual([true, true, true]);
  });

  it("are replaced by a profile file's `neighbours`, with the file as the source", () => {
    const p = profileFromFile(
      {
        name: "gw",
        neighbours: { getSchema: { method: "GET", path: "/ds/schemas/{name}/current" } },
      },
      "gw.json",
    );
    expect(p.neighbours.getSchema.path).toBe("/ds/schemas/{name}/current");
    expect(p.neighbours.removeSchema).toEqual(PINNED_NEIGHBOURS.removeSchema);
    expect(p.sourceOf("neighbours.getSchema")).toEqual({
      source: "profile",
      ref: "gw.json: neighbours.getSchema",
    });
    expect(profileFromFile(profileToFile(p), "gw.json").neighbours).toEqual(p.neighbours);
  });

  it.each([
    [
      { getSchema: { method: "GET", path: "/schemas" } },
      "neighbours.getSchema.path",
      /with \{name\} once/,
    ],
    [
      { getSchema: { method: "GET", path: "schemas/{name}" } },
      "neighbours.getSchema.path",
      /starting with \//,
    ],
    [
      { getClusteringRules: { method: "GET", path: "/r/{name}" } },
      "neighbours.getClusteringRules.path",
      /without \{name\}/,
    ],
    [
      { removeSchema: { method: "REMOVE", path: "/s/{name}" } },
      "neighbours.removeSchema.method",
      /GET, DELETE/,
    ],
    [
      { getSchemas: { method: "GET", path: "/s/{name}" } },
      "neighbours.getSchemas",
      /did you mean "getSchema"/,
    ],
  ])("refuses %j naming the key %s", (neighbours, key, expected) => {
    let error: unknown;
    try {
      profileFromFile({ name: "x", neighbours }, "x.json");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProfileError);
    expect((error as Error).message).toContain(key);
    expect((error as Error).message).toMatch(expected);
    expect((error as Error).message).not.toContain("\n");
  });
});

const answer = (status: number, body: unknown) => ({
  status,
  contentType: "application/json",
  body: JSON.stringify(body),
});

describe("R9's judges: what a provider gives back", () => {
  const schema = createSchemaExample.schema;
  it("pass a schema read back bare or wrapped, with extra keys, and absent unique as false", () => {
    const back = {
      ...schema,
      created_at: "2026-01-01",
      fields: schema.fields.map((f) => ({ ...f, unique: f.unique ?? false })),
    };
    expect(schemaReadBackProblem(schema, answer(200, back))).toBeUndefined();
    expect(schemaReadBackProblem(schema, answer(200, { schema: back }))).toBeUndefined();
  });

  it.each([
    ["a 404", answer(404, { error: "record_not_found" }), /read back with 200, got 404/],
    [
      "only the first field",
      answer(200, { ...schema, fields: schema.fields.slice(0, 1) }),
      /1 field of the 3 created/,
    ],
    [
      "a field's type changed",
      answer(200, {
        ...schema,
        fields: schema.fields.map((f, i) => (i === 1 ? { ...f, type: "string" } : f)),
      }),
      /fields\[1\] changed/,
    ],
    ["another name", answer(200, { ...schema, name: "other" }), /with name "other"/],
  ])("fail a schema with %s (R9, pinned §8)", (_what, got, message) => {
    const p = schemaReadBackProblem(schema, got);
    expect(p?.rule).toBe("R9");
    expect(p?.source).toEqual({ source: "pinned", ref: "conformance.md §8 (R9)" });
    expect(p?.message).toMatch(message);
  });

  const rules = clusteringExample.rules;
  it("pass rules read back wrapped, with absent excluded_words as []", () => {
    expect(rulesReadBackProblem(rules, answer(200, { rules }))).toBeUndefined();
    expect(rulesReadBackProblem(rules, answer(200, rules))).toBeUndefined();
  });

  it("fail rules whose thresholds came back rounded to one decimal", () => {
    const sent = structuredClone(rules);
    for (const f of Object.values(sent.features)) f.classifier.threshold = 0.35;
    const rounded = structuredClone(sent);
    for (const f of Object.values(rounded.features)) f.classifier.threshold = 0.4;
    expect(rulesReadBackProblem(sent, answer(200, { rules: rounded }))?.message).toMatch(
      /R9: the clustering rules just updated are read back with the feature .* changed/,
    );
  });
});
