import { fc, test } from "@fast-check/vitest";
import { classifyJsonBody, DETAILED_OPERATION_IDS } from "@idp/contracts";
import { invalidBodyArb, validBodyArb } from "@idp/generators";
import { describe, expect, it } from "vitest";
import { nestedText } from "../test/stress-arbitraries.ts";
import { inspectStructure, JSON_BOUNDS, shortenLongKeys } from "./json-bounds.ts";

/** Oracle for depth: the deepest bracket in the JSON text, outside strings. */
function textDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") max = Math.max(max, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return max;
}

const valueAt = (root: unknown, path: readonly (string | number)[]): unknown =>
  path.reduce<unknown>((node, seg) => (node as Record<string | number, unknown>)[seg], root);

/** Every plain object in a (shallow) parsed value, the root included. */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (typeof value !== "object" || value === null) return out;
  if (!Array.isArray(value)) out.push(value as Record<string, unknown>);
  for (const child of Object.values(value)) objectsIn(child, out);
  return out;
}

describe("inspectStructure", () => {
  const jsonText = fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .tuple(fc.integer({ min: 0, max: 3_000 }), fc.nat(), fc.jsonValue({ maxDepth: 2 }))
      .map(([depth, pattern, leaf]) => nestedText(depth, pattern, JSON.stringify(leaf))),
  );

  test.prop([jsonText, fc.integer({ min: 1, max: 2_000 })])(
    "reports too-deep exactly when the text nests deeper than the bound, at a container on that level",
    (text, max) => {
      const value: unknown = JSON.parse(text);
      const { problem } = inspectStructure(value, max);
      if (textDepth(text) <= max) {
        expect(problem).toBeUndefined();
        return;
      }
      expect(problem).toMatchObject({ kind: "too-deep", depth: max + 1 });
      const path = problem?.path ?? [];
      expect(path).toHaveLength(max);
      expect(typeof valueAt(value, path)).toBe("object");
    },
  );

  it("walks 500,000 levels without recursion", () => {
    const value: unknown = JSON.parse(nestedText(500_000, 0, "0"));
    expect(inspectStructure(value).problem).toMatchObject({ depth: JSON_BOUNDS.maxDepth + 1 });
    expect(inspectStructure(value, 600_000).problem).toBeUndefined();
  });

  test.prop([fc.jsonValue({ maxDepth: 4 }), fc.constantFrom("1e400", "-1e309"), fc.nat()])(
    "finds a number JSON.parse read as ±Infinity, wherever it is",
    (base, literal, pick) => {
      const value = JSON.parse(JSON.stringify({ base, slot: null })) as Record<string, unknown>;
      const objects = objectsIn(value);
      const target = objects[pick % objects.length] as Record<string, unknown>;
      target["huge number"] = JSON.parse(literal);
      const { problem } = inspectStructure(value);
      expect(problem?.kind).toBe("number-out-of-range");
      expect(Number.isFinite(valueAt(value, problem?.path ?? []))).toBe(false);
    },
  );

  it("counts a key as long above the limit, not at it", () => {
    const at = "k".repeat(JSON_BOUNDS.maxKeyLengthInPaths);
    expect(inspectStructure({ [at]: 1 }).hasLongKey).toBe(false);
    expect(inspectStructure([{ a: { [`${at}k`]: 1 } }]).hasLongKey).toBe(true);
  });
});

describe("shortenLongKeys", () => {
  const longKey = fc
    .tuple(fc.string({ maxLength: 40 }), fc.integer({ min: 65, max: 5_000 }))
    .map(([seed, length]) => `${seed}${"k".repeat(length)}`);

  /** A body of the operation, valid or not, with long-named entries added to its objects. */
  const bodyWithLongKeys = (id: (typeof DETAILED_OPERATION_IDS)[number]) =>
    fc
      .tuple(
        fc.oneof(
          validBodyArb(id),
          invalidBodyArb(id)
            .filter((c) => !c.raw)
            .map((c) => c.body),
        ),
        fc.array(fc.tuple(longKey, fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }),
      )
      .map(([generated, additions]) => {
        const body = structuredClone(generated);
        const objects = objectsIn(body);
        for (const [key, into, from] of additions) {
          const target = objects[into % objects.length];
          if (target === undefined) continue;
          // A copy of one of its own objects (e.g. a feature), so records get long-named entries
          // that are as valid or invalid as the rest.
          target[key] = structuredClone(objects[from % objects.length]);
        }
        return body;
      });

  describe.each(DETAILED_OPERATION_IDS)("%s", (id) => {
    test.prop([bodyWithLongKeys(id)])(
      "classifies like the original (the check reads only the short tabulated keys)",
      (body) => {
        const original = classifyJsonBody(id, body);
        const shortened = classifyJsonBody(id, shortenLongKeys(body));
        expect(shortened.outcome).toBe(original.outcome);
        if (original.outcome !== "valid" && shortened.outcome !== "valid") {
          expect(shortened.status).toBe(original.status);
          expect(shortened.violations.map((v) => v.kind)).toEqual(
            original.violations.map((v) => v.kind),
          );
          for (const v of shortened.violations) {
            expect(v.message.length).toBeLessThan(2_000);
          }
        }
      },
    );
  });

  test.prop([fc.jsonValue(), fc.array(longKey, { maxLength: 5 })])(
    "keeps every entry, in order, with unique keys of bounded length; a copy without long keys is equal",
    (value, keys) => {
      const withLong = { value, ...Object.fromEntries(keys.map((k, i) => [k, i])) };
      const copy = shortenLongKeys(withLong) as Record<string, unknown>;
      expect(Object.keys(copy)).toHaveLength(Object.keys(withLong).length);
      expect(Object.values(copy)).toEqual(Object.values(withLong));
      for (const key of Object.keys(copy)) {
        expect(key.length).toBeLessThanOrEqual(JSON_BOUNDS.maxKeyLengthInPaths + 12);
      }
      expect(shortenLongKeys(value)).toEqual(value);
    },
  );

  it("keeps a __proto__ key as an own property", () => {
    const value = JSON.parse('{"__proto__":{"a":1},"b":[{"__proto__":2}]}') as unknown;
    expect(JSON.stringify(shortenLongKeys(value))).toBe(JSON.stringify(value));
  });
});
