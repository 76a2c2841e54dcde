// conformance.md §6, key `bounds`: limits a provider keeps that the spec does not state. A body past
// one is invalid with the bound's status, and the failure names the bound as its source.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  BOUND_PATH_NAMES,
  BOUND_PATHS,
  classifyJsonBody,
  defaultProfile,
  expectedRejection,
  findBodyProblem,
  lengthIn,
  ProfileError,
  profileFromFile,
  profileToFile,
  UNIT_WORDS,
} from "../src/index.ts";
import { clusteringExample, createSchemaExample, pushExample } from "./examples.ts";

const withBounds = (bounds: unknown, extra: Record<string, unknown> = {}) =>
  profileFromFile({ name: "b", bounds, ...extra }, "b.json");

/** The JSON kind of every value at a dotted path (`*` and `[]` for each element), by hand. */
function kindsAt(body: unknown, path: string): string[] {
  let nodes: unknown[] = [body];
  for (const part of path.split(".")) {
    const each = part === "*" || part.endsWith("[]");
    const key = part.replace(/\[\]$/, "");
    if (part !== "*")
      nodes = nodes.flatMap((n) =>
        n && typeof n === "object" && key in n ? [(n as Record<string, unknown>)[key]] : [],
      );
    if (each)
      nodes = nodes.flatMap((n) => (n && typeof n === "object" ? Object.values(n as object) : []));
  }
  return nodes.map((n) =>
    Array.isArray(n)
      ? "array"
      : typeof n === "object"
        ? "map"
        : typeof n === "number"
          ? Number.isInteger(n)
            ? "integer"
            : "number"
          : typeof n,
  );
}

describe("bound paths", () => {
  it.each(BOUND_PATH_NAMES)("%s names what the examples hold there", (path) => {
    const kinds = kindsAt(
      {
        schema: createSchemaExample.schema,
        data: pushExample.data,
        rules: clusteringExample.rules,
      },
      path,
    );
    expect(kinds.length, `${path} reaches a value in the examples`).toBeGreaterThan(0);
    const want = BOUND_PATHS[path];
    // A fraction field may hold an integer (threshold 0); `map` is an object keyed by names.
    for (const kind of kinds)
      expect(want === "number" ? ["number", "integer"] : [want]).toContain(kind);
  });
});

describe("a body past a bound", () => {
  const profile = withBounds({ "schema.name": { maxLength: 3, status: 422 } });
  const named = (name: string) => ({ schema: { ...createSchemaExample.schema, name } });

  test.prop([fc.string({ unit: "grapheme", maxLength: 8 })])(
    "is invalid with the bound's status exactly when its code points are more than maxLength",
    (name) => {
      const c = classifyJsonBody("createSchema", named(name), profile);
      const over = [...name].length > 3;
      expect(c.outcome).toBe(over ? "invalid" : "valid");
      if (c.outcome === "invalid") {
        expect(c.status).toBe(422);
        expect(c.violation.kind).toBe("out-of-bounds");
        expect(c.violation.path).toEqual(["schema", "name"]);
      }
    },
  );

  test.prop([
    fc.constantFrom("codePoints", "utf16", "bytes" as const),
    fc.string({
      unit: fc.oneof(
        fc.constantFrom("x", "é", "中", "😀"),
        fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
        fc.string({ unit: "grapheme", maxLength: 1 }),
      ),
      maxLength: 8,
    }),
  ])(
    "counts in the bound's unit: by hand, UTF-16 length, and UTF-8 bytes as Buffer encodes them",
    (unit, name) => {
      const limited = withBounds({ "schema.name": { maxLength: 6, unit, status: 422 } });
      const n =
        unit === "utf16"
          ? name.length
          : unit === "bytes"
            ? Buffer.byteLength(name)
            : [...name].length;
      expect(lengthIn(name, unit)).toBe(n);
      const c = classifyJsonBody("createSchema", named(name), limited);
      expect(c.outcome).toBe(n > 6 ? "invalid" : "valid");
      if (c.outcome === "invalid")
        expect(c.violation.message).toContain(`${n} ${UNIT_WORDS[unit]}, the most is 6`);
    },
  );

  it("is valid under the default profile (no bounds are known, §2)", () => {
    expect(classifyJsonBody("createSchema", named("x".repeat(5000))).outcome).toBe("valid");
  });

  it("names the bound as the source of R5's expectation and of a builder's finding", () => {
    const r = expectedRejection("createSchema", JSON.stringify(named("abcd")), profile);
    expect(r?.status).toBe(422);
    expect(r?.source).toEqual({ source: "profile", ref: "b.json: bounds.schema.name" });
    const finding = findBodyProblem("createSchema", named("abcd"), { profile });
    expect(finding?.path).toBe("schema.name");
    expect(finding?.received).toContain("abcd");
    expect(finding?.source.ref).toBe("b.json: bounds.schema.name");
  });

  it.each([
    [{ "rules.features": { maxItems: 1, status: 422 } }, "rules.features", ["rules", "features"]],
    [
      { "rules.features.*.labels[].keywords": { maxItems: 1, status: 422 } },
      "keywords",
      ["rules", "features", "sports", "labels", 0, "keywords"],
    ],
    [
      { "rules.features.*.classifier.threshold": { maximum: 0.25, status: 422 } },
      "threshold",
      ["rules", "features", "sports", "classifier", "threshold"],
    ],
  ])("%j: counts map keys, array items, and numbers", (bounds, _what, path) => {
    const c = classifyJsonBody("updateClusteringRules", clusteringExample, withBounds(bounds));
    expect(c.outcome).toBe("invalid");
    if (c.outcome === "invalid") expect(c.violation.path).toEqual(path);
  });

  it("a bound of one operation leaves the others alone", () => {
    const p = withBounds({ "data.badge": { minimum: 5, status: 400 } });
    expect(classifyJsonBody("pushToUserDevices", pushExample, p).outcome).toBe("invalid");
    expect(classifyJsonBody("createSchema", createSchemaExample, p).outcome).toBe("valid");
  });
});

describe("the profile file's `bounds`", () => {
  it("reads back what it wrote, with the file as the source of each bound", () => {
    const bounds = {
      "schema.name": { maxLength: 64, status: 422 },
      "rules.features": { maxItems: 8, status: 422 },
      "data.badge": { minimum: 0, maximum: 99999, status: 400 },
      "rules.features.*.labels[].keywords[]": { maxLength: 100, unit: "utf16", status: 422 },
    };
    const p = withBounds(bounds);
    expect(p.bounds).toEqual(bounds);
    expect(p.sourceOf("bounds.rules.features").ref).toBe("b.json: bounds.rules.features");
    expect(defaultProfile.sourceOf("bounds.rules.features").source).toBe("pinned");
    expect(profileFromFile(profileToFile(p), "b.json").bounds).toEqual(bounds);
  });

  it.each([
    [{ "schema.nam": { maxLength: 3, status: 422 } }, "bounds.schema.nam", /did you mean/],
    [{ "schema.name": { maxItems: 3, status: 422 } }, "bounds.schema.name", /maxLength/],
    [
      { "schema.name": { status: 422 } },
      "bounds.schema.name",
      /maxLength \(the most code points, or what unit counts/,
    ],
    [{ "schema.name": { maxLength: -1, status: 422 } }, "bounds.schema.name.maxLength", />= 0/],
    [
      { "schema.name": { maxLength: 3, unit: "chars", status: 422 } },
      "bounds.schema.name.unit",
      /expected "codePoints", "utf16", "bytes".*received "chars"/,
    ],
    [
      { "schema.fields": { maxItems: 3, unit: "bytes", status: 422 } },
      "bounds.schema.fields.unit",
      /a limit of schema\.fields \(maxItems, status\)/,
    ],
    [{ "schema.name": { unit: "utf16", status: 422 } }, "bounds.schema.name", /maxLength/],
    [{ "schema.name": { maxLength: 3, status: 409 } }, "bounds.schema.name.status", /400 or 422/],
    [
      { "data.badge": { minimum: 9, maximum: 1, status: 400 } },
      "bounds.data.badge",
      /minimum <= maximum/,
    ],
  ])("refuses %j naming %s", (bounds, key, expected) => {
    let error: unknown;
    try {
      withBounds(bounds);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProfileError);
    expect((error as Error).message).toContain(key);
    expect((error as Error).message).toMatch(expected);
    expect((error as Error).message).not.toContain("\n");
  });

  it("refuses a bound whose status the operation does not document", () => {
    expect(() =>
      withBounds(
        { "schema.name": { maxLength: 3, status: 422 } },
        { documentedStatuses: { createSchema: [201, 400, 401, 403, 500] } },
      ),
    ).toThrow(/bounds\.schema\.name\.status.*201, 400, 401, 403, 500/);
  });
});
