// The workspace's tests draw binary strings from @idp/test-utils' `binaryString` instead of
// fast-check's `unit: "binary"` (whose first use costs each test process 1.5 s of CPU). The
// replacement must be the library's arbitrary in all but that cost: these compare them, with
// fast-check's own as the oracle.
import { fc, test } from "@fast-check/vitest";
import { binaryString, binaryUnit } from "@idp/test-utils/arbitraries";
import { describe, expect } from "vitest";

const constraints = fc.record(
  {
    minLength: fc.nat({ max: 6 }),
    maxLength: fc.nat({ max: 60 }),
    size: fc.constantFrom("xsmall", "small", "medium", "large", "max", "=", "-1", "+1"),
  },
  { requiredKeys: [] },
);
/**
 * Constraints fast-check accepts (a maxLength below the minLength is refused by both alike) and a
 * test process can hold: size "max" without a maxLength makes strings of up to 2^31 - 1 units, the
 * library's too (a random seed once drew it, and the process ran out of memory).
 */
const valid = constraints.map((c) => {
  if (c.size === "max" && c.maxLength === undefined) c = { ...c, maxLength: 60 };
  return c.maxLength !== undefined && c.minLength !== undefined && c.maxLength < c.minLength
    ? { ...c, maxLength: c.minLength }
    : c;
});
const library = (c: fc.StringConstraints) => fc.string({ ...c, unit: "binary" });

describe("binaryString is fast-check's binary string", () => {
  test.prop([valid, fc.integer()], { numRuns: 60 })(
    "generates the same strings for the same seed and constraints",
    (c, seed) => {
      expect(fc.sample(binaryString(c), { seed, numRuns: 40 })).toEqual(
        fc.sample(library(c), { seed, numRuns: 40 }),
      );
    },
  );

  test.prop([valid, fc.integer(), fc.integer({ min: 1, max: 0x10ffff })], { numRuns: 40 })(
    "shrinks a failure to the same counterexample in the same number of steps",
    (c, seed, limit) => {
      // Fails on any code point at or above `limit` (or, for short limits, on length).
      const failing = (s: string) =>
        [...s].every((ch) => (ch.codePointAt(0) as number) < limit) && s.length < 12;
      const run = (arb: fc.Arbitrary<string>) => {
        const out = fc.check(fc.property(arb, failing), { seed, numRuns: 100 });
        return { failed: out.failed, counterexample: out.counterexample, shrinks: out.numShrinks };
      };
      expect(run(binaryString(c))).toEqual(run(library(c)));
    },
  );

  // The code points at the edges of the unit's two ranges, where a mapping off by one shows.
  const edge = fc
    .constantFrom(0, 1, 0xd7fe, 0xd7ff, 0xe000, 0xe001, 0xfffe, 0xffff, 0x10000, 0x10fffe, 0x10ffff)
    .map((cp) => String.fromCodePoint(cp));
  // Any value a user could hand back: one code point, a lone surrogate, several, none, not text.
  const anyValue = fc.oneof(
    binaryUnit,
    edge,
    fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) }),
    fc.constantFrom("", "\u{10ffff}", "\u{10ffff}a", "\ud800\udc00", "\udc00\ud800"),
    fc.anything(),
  );

  test.prop([anyValue], { numRuns: 400 })(
    "reads a value back as the library does (canShrinkWithoutContext), per unit and per string",
    (value) => {
      const unit = fc.string({ unit: "binary", minLength: 1, maxLength: 1 });
      expect(binaryUnit.canShrinkWithoutContext(value)).toBe(unit.canShrinkWithoutContext(value));
      expect(binaryString().canShrinkWithoutContext(value)).toBe(
        library({}).canShrinkWithoutContext(value),
      );
    },
  );

  test.prop([fc.array(fc.oneof(binaryUnit, edge), { maxLength: 8 }).map((a) => a.join(""))], {
    numRuns: 100,
  })("shrinks a value it did not make (no context) as the library does", (value) => {
    const mine = binaryString().shrink(value, undefined).take(30);
    const theirs = library({}).shrink(value, undefined).take(30);
    expect([...mine].map((v) => v.value)).toEqual([...theirs].map((v) => v.value));
  });
});
