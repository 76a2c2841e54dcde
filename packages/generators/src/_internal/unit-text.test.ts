import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { hasLoneSurrogate } from "./unicode.ts";
import { heavyText, lightText } from "./unit-text.ts";

// The measures restated by hand (the oracle is not @idp/contracts' lengthIn).
const measure = {
  codePoints: (s: string) => [...s].length,
  utf16: (s: string) => s.length,
  bytes: (s: string) => Buffer.byteLength(s, "utf8"),
};
const unitArb = fc.constantFrom("codePoints", "utf16", "bytes" as const);

test.prop([fc.nat({ max: 300 }), unitArb, fc.nat({ max: 7 })])(
  "heavyText and lightText are exactly n long in the unit, well-formed, heavy or light elsewhere",
  (n, unit, pick) => {
    const heavy = heavyText(n, unit, pick);
    const light = lightText(n, unit, pick);
    expect(measure[unit](heavy)).toBe(n);
    expect(measure[unit](light)).toBe(n);
    expect(hasLoneSurrogate(heavy) || hasLoneSurrogate(light)).toBe(false);
    // Heavy: 2 UTF-16 units per code point at a code-point bound, 3 bytes per unit at a UTF-16 one.
    if (unit === "codePoints") expect(measure.utf16(heavy)).toBe(2 * n);
    if (unit === "utf16") expect(measure.bytes(heavy)).toBe(3 * n);
    // Light: at most half as many code points past a UTF-16 bound, a quarter (and 3) past bytes.
    if (unit === "utf16") expect(measure.codePoints(light)).toBeLessThanOrEqual(Math.ceil(n / 2));
    if (unit === "bytes") expect(measure.codePoints(light)).toBeLessThanOrEqual(n / 4 + 3);
  },
);
