import fc from "fast-check";
import { UnitTable, unitString } from "./unit-string.ts";

/** The JSON types the spec's tables use; `integer` is a JSON number without a fraction. */
export type JsonType = "string" | "boolean" | "integer" | "number" | "array" | "object" | "null";

// The units of the strings below (unit-string.ts draws them without an arbitrary per character).
/** Printable ASCII, as fast-check's default `fc.string()`. */
const ASCII = new UnitTable([[0x20, 0x7e]]);
/**
 * Characters a user types beyond ASCII: accented Latin, combining marks alone, the rest of the BMP
 * but surrogate halves, astral code points, and characters of several code points (a letter and
 * a combining accent, a ZWJ family, a flag, a keycap, a skin tone, decomposed Hangul, CRLF).
 */
const CHARACTERS = new UnitTable(
  [
    [0x20, 0x7e],
    [0xa0, 0xd7ff],
    [0xe000, 0xfffd],
    [0x10000, 0x10ffff],
  ],
  [
    "e\u0301",
    "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}",
    "\u{1f1eb}\u{1f1f7}",
    "1\ufe0f\u20e3",
    "\u{1f44d}\u{1f3fd}",
    "\u1112\u1161\u11ab",
    "\r\n",
    "\u0928\u093f",
  ],
);
/** Any Unicode scalar value (every code point but the surrogate halves), from U+0000. */
const SCALARS = new UnitTable([
  [0, 0xd7ff],
  [0xe000, 0x10ffff],
]);

/** Strings biased toward the edges the spec allows: empty, non-ASCII, control characters. */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: unitString(ASCII) },
  { weight: 2, arbitrary: unitString(CHARACTERS) },
  { weight: 1, arbitrary: unitString(SCALARS) },
  { weight: 1, arbitrary: fc.constant("") },
);

/**
 * `__proto__` is an own key after JSON.parse but a prototype setter in object literals and in
 * zod's record output, so a generated map key never takes that one value.
 */
export function safeKey(key: string): string {
  return key === "__proto__" ? "__proto__\u200b" : key;
}

export const anyKey: fc.Arbitrary<string> = anyString.map(safeKey);

// JSON.stringify switches to exponent notation at 1e21; below it every integer prints as digits.
const LARGE_INTEGERS = [
  0,
  -1,
  1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  2 ** 53,
  -(2 ** 53),
  2 ** 63,
  -(2 ** 63),
  2 ** 64,
];

/** Integers of any magnitude a JSON number can carry as digits: 32-bit, safe, and beyond 2^53. */
export const anyInteger: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.maxSafeInteger() },
  { weight: 1, arbitrary: fc.constantFrom(...LARGE_INTEGERS) },
);

/** Finite doubles (JSON has no NaN or Infinity); -0 prints as 0, so it is folded into 0. */
export const anyNumber: fc.Arbitrary<number> = fc
  .double({ noNaN: true, noDefaultInfinity: true })
  .map((x) => x + 0);

const anyFraction: fc.Arbitrary<number> = fc
  .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(0.5, 0.25, 0.1, 0.001))
  .map(([i, f]) => i + f);

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  anyString,
  fc.boolean(),
  fc.constant(null),
  anyInteger,
  anyFraction,
);

/** Small JSON values of every type, for the contents of a wrong-typed array or object. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(anyKey, scalar, { maxKeys: 3, noNullPrototype: true }),
  },
);

// For each JSON type, values of that type that look like another: "true" for a boolean, "1" for an
// integer, 1 for a boolean. These are the mistakes clients make.
const ofType: { readonly [T in JsonType]: fc.Arbitrary<unknown> } = {
  string: fc.oneof(fc.constantFrom("true", "false", "1", "0", "", "null", "[]", "{}"), anyString),
  boolean: fc.boolean(),
  integer: anyInteger,
  number: fc.oneof(anyFraction, anyInteger),
  array: fc.array(anyJson, { maxLength: 3 }),
  object: fc.dictionary(anyKey, anyJson, { maxKeys: 3, noNullPrototype: true }),
  null: fc.constant(null),
};

/** The JSON kinds a replacement is drawn from; `fraction` is a number with a fractional part. */
export const JSON_KINDS = [
  "null",
  "boolean",
  "integer",
  "fraction",
  "string",
  "array",
  "object",
] as const;
/** One JSON kind of {@link JSON_KINDS}. */
export type JsonKind = (typeof JSON_KINDS)[number];

/** The kinds a value of `expected` type is not (a `number` field takes integers and fractions). */
export function wrongKindsOf(expected: JsonType): JsonKind[] {
  const own: Readonly<Record<JsonType, readonly JsonKind[]>> = {
    null: ["null"],
    boolean: ["boolean"],
    integer: ["integer"],
    number: ["integer", "fraction"],
    string: ["string"],
    array: ["array"],
    object: ["object"],
  };
  return JSON_KINDS.filter((k) => !own[expected].includes(k));
}

// The order fast-check draws the kinds in (kept, so a seed gives the values it always gave).
const DRAW_ORDER: readonly JsonKind[] = [
  "string",
  "boolean",
  "integer",
  "null",
  "array",
  "object",
  "fraction",
];
const ofKind: { readonly [K in JsonKind]: fc.Arbitrary<unknown> } = {
  ...ofType,
  fraction: anyFraction,
};

/** Values of every JSON kind `expected` does not have ({@link wrongKindsOf}). */
export function wrongTypeValue(expected: JsonType): fc.Arbitrary<unknown> {
  const wrong = wrongKindsOf(expected);
  const [first, ...rest] = DRAW_ORDER.filter((k) => wrong.includes(k)).map((k) => ofKind[k]);
  if (!first) throw new Error(`wrongTypeValue: no kind is wrong for ${expected}`);
  return fc.oneof(first, ...rest);
}

/** The JSON type of a value, as a message names it ("fraction" for a non-integral number). */
export function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "fraction";
  return typeof value;
}

/** Any JSON value that is not an object: what a body or wrapper is when it is "not an object". */
export const nonObjectValue: fc.Arbitrary<unknown> = fc.oneof(
  ofType.string,
  ofType.boolean,
  ofType.null,
  ofType.integer,
  anyFraction,
  ofType.array,
);
