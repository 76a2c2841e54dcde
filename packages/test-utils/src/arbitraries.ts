import fc from "fast-check";

// fast-check's `unit: "binary"` is `fc.mapToConstant` over every code point but the surrogates. The
// first `fc.string` built on it tokenizes fast-check's default "dangerous" strings with that unit,
// which builds the unit's reverse mapping: a Map of 1,112,064 entries, 1.5 s of CPU in each test
// process that touches it (a fifth of the contracts' and the fault providers' whole test runs).
// `binaryUnit` is the same arbitrary written as mapToConstant is built (a `fc.nat` mapped to the
// code point), with an unmapper that computes instead of looking up: the same values for the same
// seed, the same shrinks, read back the same (test/binary-unit.test.ts in @idp/contracts compares
// them on every constraint, seed and shrink).

/** Code points below the surrogates; the rest follow them (U+E000..U+10FFFF). */
const BELOW_SURROGATES = 0xd800;
/** How many code points the surrogates take out (U+D800..U+DFFF). */
const SURROGATES = 0x800;
/** Every code point but the surrogates. */
const CHOICES = 0x110000 - SURROGATES;

function toUnit(index: number): string {
  return String.fromCodePoint(index < BELOW_SURROGATES ? index : index + SURROGATES);
}

function fromUnit(value: unknown): number {
  if (typeof value !== "string" || value.length === 0 || value.length > 2)
    throw new Error("not one code point");
  const codePoint = value.codePointAt(0) as number;
  if (value.length !== (codePoint > 0xffff ? 2 : 1)) throw new Error("not one code point");
  if (codePoint < BELOW_SURROGATES) return codePoint;
  if (codePoint < BELOW_SURROGATES + SURROGATES) throw new Error("a lone surrogate");
  return codePoint - SURROGATES;
}

/** fast-check's `unit: "binary"` (any code point but a lone surrogate), without its start-up cost. */
export const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: CHOICES - 1 }).map(toUnit, fromUnit);

/** `fc.string({ ...constraints, unit: "binary" })`, the same strings for the same seed. */
export function binaryString(
  constraints: Omit<fc.StringConstraints, "unit"> = {},
): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: binaryUnit });
}
