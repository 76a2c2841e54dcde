import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  ClusteringRules,
  CreateSchemaRequest,
  ErrorBody,
  strictProfile,
  UserPublishRequest,
} from "../src/index.ts";
import { clusteringExample, createSchemaExample, pushExample } from "./examples.ts";
import { specText, tableAfter } from "./spec-text.ts";

type Path = (string | number)[];
interface Row {
  table: string;
  field: string;
  type: string;
  path: Path;
}

// Where each spec table's rows live inside a request body. Row names are the spec's own, read from
// the text below; only this prefix map is ours.
const TABLES: {
  heading: string;
  shape: z.ZodType;
  example: unknown;
  pathOf: (field: string) => Path;
}[] = [
  {
    heading: "### Datastore schema (request shape)",
    shape: CreateSchemaRequest,
    example: createSchemaExample,
    pathOf: (f) => f.split("."),
  },
  {
    heading: "### Schema field (create)",
    shape: CreateSchemaRequest,
    example: createSchemaExample,
    pathOf: (f) => ["schema", "fields", 0, f],
  },
  {
    heading: "### Schema permissions",
    shape: CreateSchemaRequest,
    example: createSchemaExample,
    pathOf: (f) => ["schema", "permissions", f],
  },
  {
    heading: "### Push notification payload",
    shape: UserPublishRequest,
    example: pushExample,
    pathOf: (f) => f.split("."),
  },
  {
    heading: "### Clustering rules",
    shape: ClusteringRules,
    example: clusteringExample,
    pathOf: (f) => {
      const [head, ...rest] = f.split(".");
      const feature = ["rules", "features", "sports"];
      if (head === "feature") return [...feature, ...rest];
      if (head === "label") return [...feature, "labels", 0, ...rest];
      if (head === "classifier") return [...feature, "classifier", ...rest];
      return f.split(".");
    },
  },
];

const rows: (Row & { shape: z.ZodType; example: unknown })[] = TABLES.flatMap((t) =>
  tableAfter(specText, t.heading).map(([field = "", type = ""]) => ({
    table: t.heading.replace("### ", ""),
    field,
    type,
    path: t.pathOf(field),
    shape: t.shape,
    example: t.example,
  })),
);

// JSON values of each JSON type; a value is "wrong" for a tabulated type when its JSON type differs.
const jsonTypeOf = (v: unknown): string =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "array"
      : typeof v === "number"
        ? Number.isInteger(v)
          ? "integer"
          : "number"
        : typeof v;
const accepts = (tabulated: string, value: unknown): boolean => {
  const t = jsonTypeOf(value);
  if (tabulated.startsWith("array")) return t === "array";
  if (tabulated.startsWith("object")) return t === "object";
  if (tabulated === "number") return t === "number" || t === "integer";
  return t === tabulated;
};
const anyJsonScalarOrContainer = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

function setAt(root: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) node = node[seg] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

describe("the tabulated shapes", () => {
  it("should cover every row of every field table of the spec", () => {
    expect(rows.length).toBe(4 + 3 + 2 + 11 + 12);
  });

  it.each([
    ["CreateSchemaRequest", CreateSchemaRequest, createSchemaExample],
    ["UserPublishRequest", UserPublishRequest, pushExample],
    ["ClusteringRules", ClusteringRules, clusteringExample],
  ] as const)(
    "should accept the spec-valued example of %s in both profiles",
    (name, shape, example) => {
      expect(shape.safeParse(example).success).toBe(true);
      expect(strictProfile.shapes[name].safeParse(example).success).toBe(true);
    },
  );

  it.each(rows.map((r) => [`${r.table}: ${r.field} (${r.type})`, r] as const))(
    "should read the type of %s as the spec tabulates it",
    (_, row) => {
      const sample = row.path.reduce<unknown>(
        (n, seg) => (n as Record<string | number, unknown>)[seg],
        row.example,
      );
      expect(accepts(row.type.replace(", wrapper", ""), sample)).toBe(true);
    },
  );

  for (const row of rows) {
    test.prop(
      [anyJsonScalarOrContainer.filter((v) => !accepts(row.type.replace(", wrapper", ""), v))],
      { numRuns: 25 },
    )(
      `should reject a wrong JSON type at ${row.path.join(".")} with an issue at that path`,
      (wrong) => {
        const result = row.shape.safeParse(setAt(row.example, row.path, wrong));
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((i) => i.path)).toContainEqual(row.path);
      },
    );
  }

  it("should let `unique` and a classifier's `excluded_words` be absent, and nothing else", () => {
    const optional = rows.filter(
      (r) => r.shape.safeParse(setAt(r.example, r.path, undefined)).success,
    );
    expect(optional.map((r) => r.path.join("."))).toEqual([
      "schema.fields.0.unique",
      "rules.features.sports.classifier.excluded_words",
    ]);
  });

  test.prop([fc.integer({ min: 2 ** 53, max: 2 ** 60 }).map((n) => n * 4)])(
    "should accept integers beyond 2^53 as integers (the spec states no bound)",
    (big) => {
      expect(UserPublishRequest.safeParse(setAt(pushExample, ["data", "badge"], big)).success).toBe(
        true,
      );
    },
  );

  it("should accept an error body with extra keys and reject one whose errors are not strings", () => {
    const body = { error: "authentication_failed", error_description: "", errors: [], extra: 1 };
    expect(ErrorBody.safeParse(body).success).toBe(true);
    expect(ErrorBody.safeParse({ ...body, errors: [1] }).error?.issues[0]?.path).toEqual([
      "errors",
      0,
    ]);
  });
});
