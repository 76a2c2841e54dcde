import fc from "fast-check";

/**
 * Structural stress values, built as JSON text: a 10,000-level value cannot be made with
 * JSON.stringify (it recurses and throws at ~4,450 levels), and the text is what goes on the wire.
 */
export interface StressValue {
  readonly kind: "deep" | "long-string" | "many-keys" | "large-array" | "extreme-number";
  readonly text: string;
  /** Nesting depth: a scalar is 0, `[]` and `{}` are 1. */
  readonly depth: number;
  /** Holds a number literal beyond ±1.8e308, which JSON.parse reads as ±Infinity. */
  readonly outOfRange: boolean;
}

/** Code points that trip up encoders: NUL, controls, line separators, BOM, lone surrogates, astral. */
export const UNUSUAL_UNITS = [
  "é",
  "中",
  "𝄞",
  "🙂",
  "\u{10ffff}",
  "\u0000",
  "\u001f",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\u200b",
  "\u0301",
  "\ud800",
  "\udfff",
  '"',
  "\\",
  "/",
  "a",
] as const;

/** A string of up to `maxLength` UTF-16 units, repeating a few unusual units. */
export const unusualString = (maxLength: number): fc.Arbitrary<string> =>
  fc
    .record({
      length: fc.integer({ min: 0, max: maxLength }),
      units: fc.array(fc.constantFrom(...UNUSUAL_UNITS), { minLength: 1, maxLength: 4 }),
    })
    .map(({ length, units }) => {
      const pattern = units.join("");
      return pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);
    });

/** Arrays and objects nested `depth` levels, the kind of each level taken from `pattern`'s bits. */
export function nestedText(depth: number, pattern: number, leaf: string): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let level = 0; level < depth; level++) {
    const object = ((pattern >>> (level % 31)) & 1) === 1;
    open.push(object ? `{"k${level % 7}":` : "[");
    close.push(object ? "}" : "]");
  }
  return `${open.join("")}${leaf}${close.reverse().join("")}`;
}

/** [literal, beyond ±1.8e308]: IEEE-754 edges and forms JSON allows. */
export const EXTREME_NUMBERS: readonly (readonly [string, boolean])[] = [
  ["1e308", false],
  ["-1.7976931348623157e308", false],
  ["5e-324", false],
  ["1e-400", false],
  ["-0", false],
  ["-0.0e0", false],
  ["9007199254740993", false],
  ["-9007199254740993", false],
  ["123456789012345678901234567890", false],
  ["0.1e1", false],
  ["1E+2", false],
  ["1e309", true],
  ["-1e400", true],
];

export const stressValue = ({
  maxDepth = 10_000,
  maxString = 100_000,
  maxKeys = 20_000,
  maxItems = 100_000,
} = {}): fc.Arbitrary<StressValue> =>
  fc.oneof(
    fc
      .record({
        depth: fc.integer({ min: 1, max: maxDepth }),
        pattern: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        leaf: fc.constantFrom("0", '""', "null", "true", "-0", "1e308"),
      })
      .map(({ depth, pattern, leaf }) => ({
        kind: "deep" as const,
        text: nestedText(depth, pattern, leaf),
        depth,
        outOfRange: false,
      })),
    unusualString(maxString).map((s) => ({
      kind: "long-string" as const,
      text: JSON.stringify(s),
      depth: 0,
      outOfRange: false,
    })),
    fc
      .record({ keys: fc.integer({ min: 0, max: maxKeys }), key: unusualString(8) })
      .map(({ keys, key }) => ({
        kind: "many-keys" as const,
        text: `{${Array.from({ length: keys }, (_, i) => `${JSON.stringify(`${key}${i}`)}:${i}`).join(",")}}`,
        depth: 1,
        outOfRange: false,
      })),
    fc
      .record({
        items: fc.integer({ min: 0, max: maxItems }),
        item: fc.constantFrom("0", "null", '"x"', "[]", "{}", "-0"),
      })
      .map(({ items, item }) => ({
        kind: "large-array" as const,
        text: `[${Array(items).fill(item).join(",")}]`,
        depth: items > 0 && (item === "[]" || item === "{}") ? 2 : 1,
        outOfRange: false,
      })),
    fc.constantFrom(...EXTREME_NUMBERS).map(([text, outOfRange]) => ({
      kind: "extreme-number" as const,
      text,
      depth: 0,
      outOfRange,
    })),
  );

/** Nesting depth of a parsed value (recursive: only for the shallow bodies of the generators). */
export const depthOf = (value: unknown): number =>
  typeof value === "object" && value !== null
    ? 1 + Math.max(0, ...Object.values(value).map(depthOf))
    : 0;
