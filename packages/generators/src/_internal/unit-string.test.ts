import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { anyString } from "./json-values.ts";
import { UnitTable, unitString } from "./unit-string.ts";

// unitString draws a string without an arbitrary per character and shrinks it as fast-check's own
// array of unit indices. The oracles are the tables' definitions (which code points, which
// sequences, in which order) and fast-check's own check/replay, never the generator's output.

const LATIN: readonly (readonly [number, number])[] = [
  [0x61, 0x7a], // a-z: index 0 is "a"
  [0xe0, 0xff],
  [0x1f600, 0x1f64f], // astral: two UTF-16 code units each
];
const SEQUENCES = ["e\u0301", "\u{1f468}\u200d\u{1f469}", "\r\n"];
const table = new UnitTable(LATIN, SEQUENCES);
const inRanges = LATIN.reduce((n, [from, to]) => n + to - from + 1, 0);
const isIn = (cp: number, from: number, to: number) => cp >= from && cp <= to;
const isUnitOfRanges = (cp: number) => LATIN.some(([from, to]) => isIn(cp, from, to));
const isAscii = (s: string) => [...s].every((c) => (c.codePointAt(0) as number) < 0x80);

describe("UnitTable", () => {
  it("numbers the ranges' code points in order, then the sequences", () => {
    expect(table.inRanges).toBe(inRanges);
    expect(table.size).toBe(inRanges + SEQUENCES.length);
    expect(table.unit(0)).toBe("a");
    expect(table.unit(25)).toBe("z");
    expect(table.unit(26)).toBe("\u00e0");
    expect(table.unit(inRanges - 1)).toBe("\u{1f64f}");
    for (const [i, s] of SEQUENCES.entries()) expect(table.unit(inRanges + i)).toBe(s);
  });

  test.prop([fc.array(fc.nat({ max: inRanges + SEQUENCES.length - 1 }), { maxLength: 20 })])(
    "reads back the indices of a string it made (a sequence before the units it starts with)",
    (indices) => {
      const text = indices.map((i) => table.unit(i)).join("");
      const read = table.indicesOf(text);
      expect(read?.map((i) => table.unit(i)).join("")).toBe(text);
    },
  );

  it("reads nothing from a string with a character outside the table", () => {
    expect(table.indicesOf("ab!")).toBeUndefined();
    expect(table.indicesOf("a\u0301")).toBeUndefined(); // the accent alone is no unit
  });
});

describe("unitString", () => {
  test.prop([unitString(table, 12)], { numRuns: 500 })(
    "gives strings of at most maxLength units of the table",
    (s) => {
      const read = table.indicesOf(s);
      expect(read).toBeDefined();
      expect(read?.length).toBeLessThanOrEqual(12);
      for (const ch of s.replace(/e\u0301|\u{1f468}\u200d\u{1f469}|\r\n/gu, ""))
        expect(isUnitOfRanges(ch.codePointAt(0) as number)).toBe(true);
    },
  );

  it("reaches the empty string, maxLength units, every range and the sequences", () => {
    const sample = fc.sample(unitString(table, 6), { seed: 42, numRuns: 2_000 });
    const lengths = new Set(sample.map((s) => table.indicesOf(s)?.length));
    for (let n = 0; n <= 6; n++) expect(lengths.has(n), `a string of ${n} units`).toBe(true);
    const all = sample.join("");
    for (const [from, to] of LATIN)
      expect([...all].some((c) => isIn(c.codePointAt(0) as number, from, to))).toBe(true);
    for (const s of SEQUENCES) expect(all.includes(s), JSON.stringify(s)).toBe(true);
  });

  it("shrinks to the fewest and simplest units that still fail", () => {
    // Fails once a string holds a character beyond ASCII: the smallest failing string is the
    // table's first unit beyond ASCII, alone.
    const out = fc.check(fc.property(unitString(table, 12), isAscii), { seed: 7 });
    expect(out.failed).toBe(true);
    expect(out.counterexample).toEqual(["\u00e0"]);
  });

  it("shrinks a failure on length alone to that length of the simplest unit", () => {
    const out = fc.check(
      fc.property(unitString(table, 12), (s) => (table.indicesOf(s)?.length ?? 0) < 5),
      { seed: 11 },
    );
    expect(out.counterexample).toEqual(["aaaaa"]);
  });

  test.prop([fc.integer()], { numRuns: 20 })(
    "replays a shrunk counterexample exactly from its seed and path",
    (seed) => {
      const property = fc.property(
        fc.tuple(unitString(table, 12), unitString(table, 12)),
        ([a, b]) => !(a.includes("z") && b.length > 3),
      );
      const first = fc.check(property, { seed });
      fc.pre(first.failed && first.counterexamplePath !== null);
      const again = fc.check(property, { seed, path: first.counterexamplePath as string });
      expect(again.counterexample).toEqual(first.counterexample);
    },
  );
});

describe("anyString", () => {
  it("reaches empty, ASCII, control characters, astral code points and several-code-point characters", () => {
    const all = fc.sample(anyString, { seed: 1, numRuns: 3_000 });
    expect(all).toContain("");
    const text = all.join("");
    expect(
      [...text].some((c) => (c.codePointAt(0) as number) < 0x20),
      "a control character",
    ).toBe(true);
    expect(/[\u{10000}-\u{10ffff}]/u.test(text), "an astral code point").toBe(true);
    expect(text.includes("\u{1f1eb}\u{1f1f7}") || text.includes("e\u0301"), "a sequence").toBe(
      true,
    );
    expect(
      /[\ud800-\udfff]/.test(text.replace(/[\u{10000}-\u{10ffff}]/gu, "")),
      "a lone surrogate",
    ).toBe(false);
  });
});
