import { Buffer } from "node:buffer";
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  anyScalarText,
  arrayText,
  keyText,
  membersText,
  nestingText,
  type StressText,
  stringText,
  textUnitArb,
} from "./stress-text.ts";

// A stress part's `bytes` is counted from its pieces, never by reading the text; the body's cap is
// kept by that count alone. The oracle here is Node's own UTF-8 length of the text.
// And no piece is one long string: a repetition is a chunk written again (the point of pieces).
const exact = (s: StressText): void => {
  expect(s.bytes).toBe(Buffer.byteLength(s.pieces.join(""), "utf8"));
  for (const piece of s.pieces) expect(piece.length).toBeLessThan(2 * 16_384 + 256);
};

const units = fc.array(textUnitArb(), { minLength: 1, maxLength: 8 });
// Element and value texts with multi-byte characters, escapes and astral pairs in them.
const valueTexts = fc.array(fc.oneof(anyScalarText, units.map(keyText)), {
  minLength: 1,
  maxLength: 4,
});
const budget = fc.integer({ min: 1, max: 4_000 });

describe("stress parts count their UTF-8 bytes exactly", () => {
  test.prop([
    units,
    units.map((u) => keyText(u).slice(1, -1)),
    valueTexts,
    fc.integer({ min: 1, max: 300 }),
    budget,
  ])("membersText, with and without keys taken", (_u, prefix, values, count, b) => {
    // Keys the profile takes: some of the very names the members would get, so some lengthen.
    const taken = new Set([`${prefix}0`, `${prefix}3`, `${prefix}3_`, `${prefix}12`, "other"]);
    for (const t of [undefined, taken]) {
      const m = membersText(prefix, values, count, b, t);
      exact(m);
      const keys = Object.keys(JSON.parse(`{${m.pieces.join("")}}`));
      expect(keys).toHaveLength(m.size);
      if (t) for (const k of keys) expect(t.has(k)).toBe(false);
      expect(keys[0]).toBe(m.firstKey);
    }
  });

  test.prop(
    [
      units.map((u) => keyText(u).slice(1, -1)),
      valueTexts,
      fc.integer({ min: 1, max: 2_500 }),
      fc.constantFrom(new Set<string>(), new Set(["k150", "k7", "k1234"])),
    ],
    { numRuns: 60 },
  )(
    "membersText writes key i with value i, one member after another",
    (prefix, values, count, t) => {
      // The oracle: the members written one at a time, each key lengthened past what is taken.
      const taken = new Set([...t].map((k) => k.replace(/^k/, prefix)));
      const m = membersText(prefix, values, count, 1_048_576, taken);
      exact(m);
      const expected = Array.from({ length: count }, (_, i) => {
        let key = `${prefix}${i}`;
        while (taken.has(key)) key += "_";
        return `${JSON.stringify(key)}:${values[i % values.length]}`;
      }).join(",");
      expect(m.size).toBe(count);
      expect(m.pieces.join("") === expected).toBe(true);
    },
  );

  test.prop([valueTexts, fc.integer({ min: 1, max: 500 }), budget])(
    "arrayText",
    (elements, length, b) => {
      const a = arrayText(elements, length, b);
      exact(a);
      expect(JSON.parse(a.pieces.join(""))).toHaveLength(a.size);
    },
  );

  test.prop([units, fc.integer({ min: 1, max: 500 }), budget])("stringText", (u, length, b) =>
    exact(stringText(u, length, b)),
  );

  test.prop([
    fc.record({
      depth: fc.integer({ min: 1, max: 200 }),
      outer: fc.constantFrom("array" as const, "object" as const),
      alternate: fc.boolean(),
      key: units.map(keyText),
      inner: anyScalarText,
    }),
    budget,
  ])("nestingText", (p, b) => exact(nestingText(p, b)));

  // At the sizes the stress reaches (the properties above keep budgets small to run fast).
  test.prop([units, valueTexts, fc.constantFrom(1_000, 10_000, 100_000)], { numRuns: 12 })(
    "at full size, in pieces of a chunk's length",
    (u, values, size) => {
      exact(stringText(u, size, 1_048_576));
      exact(arrayText(values, size, 1_048_576));
      exact(membersText("k", values, Math.min(size, 10_000), 1_048_576));
      const inner = "null";
      exact(
        nestingText({ depth: size, outer: "array", alternate: true, key: '"k"', inner }, 1_048_576),
      );
    },
  );
});
