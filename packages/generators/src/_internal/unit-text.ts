import { type BoundUnit, lengthIn } from "@idp/contracts";

// Strings of an exact length in one unit (conformance.md §6 `unit`), made of the characters that
// weigh most, or least, in the other units: a bound counted in the wrong unit is then found at its
// edge. What one character weighs, as [code points, UTF-16 units, UTF-8 bytes]:
//   ASCII 1,1,1   Latin-1 letter 1,1,2   CJK (BMP) 1,1,3   astral (emoji) 1,2,4

/** A few characters of each weight; `pick` chooses among them so edges are not all one letter. */
const ASCII = ["x", "a", "Z", "0"];
const TWO_BYTES = ["é", "ß", "Ω", "ж"];
const THREE_BYTES = ["中", "語", "한", "€"];
const ASTRAL = ["😀", "𝄞", "𠀋", "🚀"];

const at = (chars: readonly string[], i: number) => chars[i % chars.length] as string;

/**
 * A string of exactly `n` in `unit`, heaviest in the others: what a bound in `unit` still accepts
 * and a provider counting another unit may refuse. Code points: astral characters (2n UTF-16 units,
 * 4n bytes); UTF-16 units: CJK characters of the BMP (3n bytes); bytes: ASCII (as heavy as any
 * string of n bytes in the other units).
 */
export function heavyText(n: number, unit: BoundUnit, pick = 0): string {
  const chars = unit === "codePoints" ? ASTRAL : unit === "utf16" ? THREE_BYTES : ASCII;
  let out = "";
  for (let i = 0; i < n; i++) out += at(chars, pick + i);
  return out;
}

/**
 * A string of exactly `n` in `unit`, lightest in the others: just past a bound in `unit`, it is
 * within the same number in every other unit where it can be. Code points: ASCII; UTF-16 units:
 * astral pairs (about n/2 code points); bytes: astral characters, then a 2-byte letter and ASCII
 * for what is left (about n/4 code points, n/2 UTF-16 units).
 */
export function lightText(n: number, unit: BoundUnit, pick = 0): string {
  let out = "";
  let used = 0;
  let i = pick;
  const fill = (chars: readonly string[]) => {
    for (;;) {
      const ch = at(chars, i);
      const w = lengthIn(ch, unit);
      if (used + w > n) return;
      out += ch;
      used += w;
      i++;
    }
  };
  if (unit !== "codePoints") fill(ASTRAL);
  if (unit === "bytes") fill(TWO_BYTES);
  fill(ASCII);
  return out;
}
