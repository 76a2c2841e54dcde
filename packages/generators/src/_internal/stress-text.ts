import fc from "fast-check";
import { utf8Bytes } from "./json-text.ts";

// The stress parts of a body, as JSON text built by repetition (never recursion), each with its
// exact UTF-8 size, so a body is kept under its byte cap by construction. The text is kept in
// pieces: a repetition is one chunk of about 16 K characters written again and again, never one
// string of up to 1 MiB (building that string, then encoding it, cost more than the rest of the
// case: each such string is fresh memory, and a rope has to be copied flat before it is written).

/** A text as pieces in order; a piece may be the very same string several times. */
export type Pieces = readonly string[];

/** Characters per repeated chunk: small enough to live in the ordinary heap, large enough to be few. */
const CHUNK_CHARS = 16_384;
/** Members of many keys made at once (keys sharing all but their last two digits). */
const BLOCK = 100;

/** `unit` written `times` times, as pieces: one chunk of repetitions, repeated, and the rest. */
export function repeated(unit: string, times: number): string[] {
  if (times <= 0 || unit === "") return [];
  const per = Math.max(1, Math.floor(CHUNK_CHARS / unit.length));
  if (times <= per) return [unit.repeat(times)];
  const chunk = unit.repeat(per);
  const out: string[] = new Array(Math.floor(times / per)).fill(chunk);
  if (times % per > 0) out.push(unit.repeat(times % per));
  return out;
}

/** A stress part: JSON text (a value, or `"k":v` members) and what it is. */
export interface StressText {
  readonly pieces: Pieces;
  readonly bytes: number;
  /** The size parameter it was built with: depth, code points, keys, elements or digits. */
  readonly size: number;
  /** The JSON type of the value (members count as an object). */
  readonly json: "array" | "object" | "string" | "number";
  /** For a number: whether its value, as a double, has no fraction. */
  readonly integral?: boolean;
  /** What it is, for a case's description. */
  readonly what: string;
}

// Sizes up to this are drawn one by one; above it they grow geometrically (see sizeArb).
const EXACT_SIZES = 64;

/**
 * A size parameter in [1, max] that is max about a quarter of the time and shrinks toward 1. Below
 * max, sizes spread evenly over orders of magnitude (every size up to 64, then each factor of e
 * drawn as often as the 64 sizes below it): a thousand, ten thousand and a hundred thousand
 * elements are each reached, where a uniform draw gives mostly sizes near max (the mean body was
 * 60 % of the byte cap) and almost never one below a hundredth of it. One integer, mapped by a
 * monotone function, so shrinking still finds the smallest failing size (exactly up to 64, within
 * a step of 1/64 of it above).
 */
export function sizeArb(max: number): fc.Arbitrary<number> {
  const exact = Math.min(max, EXACT_SIZES);
  // As many steps per factor of e as there are exact sizes: the density is continuous at `exact`.
  const steps = max > exact ? Math.ceil(exact * Math.log(max / exact)) : 0;
  const top = exact + steps;
  const beyond = Math.min(Math.ceil(top / 3), Number.MAX_SAFE_INTEGER - top);
  return fc
    .integer({ min: 1, max: top + beyond })
    .map((n) =>
      n <= exact
        ? n
        : n >= top
          ? max
          : Math.min(max, Math.round(exact * Math.exp((n - exact) / exact))),
    );
}

// ---- Unicode --------------------------------------------------------------------------------

export const UNICODE_CATEGORIES = [
  "ascii",
  "astral",
  "combining",
  "zero-width",
  "bidi",
  "noncharacter",
  "control",
  "json-special",
] as const;
export type UnicodeCategory = (typeof UNICODE_CATEGORIES)[number];

const ranges = (...rs: [number, number][]) =>
  fc.oneof(...rs.map(([min, max]) => fc.integer({ min, max })));

// Scalar values only (never a surrogate half), so every text is well-formed and encodes as UTF-8.
const CODE_POINTS: { readonly [C in UnicodeCategory]: fc.Arbitrary<number> } = {
  ascii: fc.integer({ min: 0x20, max: 0x7e }),
  astral: fc.oneof(
    fc.constantFrom(0x1f600, 0x1f468, 0x1d11e, 0x10000, 0x1f1fa, 0x20bb7, 0xe0041, 0x10fffd),
    fc.integer({ min: 0x10000, max: 0x10ffff }),
  ),
  combining: ranges([0x300, 0x36f], [0x1ab0, 0x1aff], [0x20d0, 0x20ff], [0xfe20, 0xfe2f]),
  // zero width space, non-joiner, joiner, word joiner, BOM, Mongolian vowel separator, soft hyphen
  "zero-width": fc.constantFrom(0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0xad),
  // marks, embeddings, overrides, isolates; Hebrew and Arabic letters
  bidi: fc.oneof(
    fc.constantFrom(0x200e, 0x200f, 0x61c, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2069),
    ranges([0x5d0, 0x5ea], [0x627, 0x64a]),
  ),
  // U+FDD0..U+FDEF and the last two code points of each of the 17 planes
  noncharacter: fc.oneof(
    fc.integer({ min: 0xfdd0, max: 0xfdef }),
    fc
      .tuple(fc.integer({ min: 0, max: 16 }), fc.boolean())
      .map(([plane, last]) => plane * 0x10000 + 0xfffe + (last ? 1 : 0)),
  ),
  // NUL and C0 (escaped: JSON requires it), DEL, C1, NEL, line and paragraph separators
  control: fc.oneof(
    fc.integer({ min: 0, max: 0x1f }),
    fc.constantFrom(0x7f, 0x85, 0x2028, 0x2029),
    fc.integer({ min: 0x80, max: 0x9f }),
  ),
  "json-special": fc.constantFrom(0x22, 0x5c, 0x2f, 0xfffd),
};

/** One code point and how it is written: raw, `\u` lower-case hex or `\u` upper-case hex. */
export interface TextUnit {
  readonly cp: number;
  readonly category: UnicodeCategory;
  /** 0 raw (or the short escape JSON requires), 1 a short or lower-case `\u` escape, 2 upper-case `\u`. */
  readonly form: 0 | 1 | 2;
}

/** Text units of the given categories; shrinks toward the first category and the raw form. */
export function textUnitArb(
  categories: readonly UnicodeCategory[] = UNICODE_CATEGORIES,
  weights: Partial<Record<UnicodeCategory, number>> = {},
): fc.Arbitrary<TextUnit> {
  const [first, ...rest] = categories.map((category) => ({
    weight: weights[category] ?? 1,
    arbitrary: fc.record({
      cp: CODE_POINTS[category],
      category: fc.constant(category),
      form: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
    }),
  }));
  if (!first) throw new Error("textUnitArb: no category");
  return fc.oneof(first, ...rest);
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  8: "\\b",
  9: "\\t",
  10: "\\n",
  12: "\\f",
  13: "\\r",
  34: '\\"',
  92: "\\\\",
  47: "\\/",
};

const hex4 = (n: number, upper: boolean) => {
  const h = n.toString(16).padStart(4, "0");
  return upper ? h.toUpperCase() : h;
};

/** A code point inside a JSON string: controls, `"` and `\` always escaped; astral as a pair. */
export function escapeUnit(unit: TextUnit): string {
  const { cp, form } = unit;
  const mustEscape = cp < 0x20 || cp === 0x22 || cp === 0x5c;
  if (form === 0 && !mustEscape) return String.fromCodePoint(cp);
  const short = SHORT_ESCAPES[cp];
  if (short !== undefined && form !== 2) return short;
  const upper = form === 2;
  if (cp < 0x10000) return `\\u${hex4(cp, upper)}`;
  const v = cp - 0x10000;
  return `\\u${hex4(0xd800 + (v >> 10), upper)}\\u${hex4(0xdc00 + (v & 0x3ff), upper)}`;
}

const categoriesOf = (units: readonly TextUnit[]) =>
  [...new Set(units.map((u) => u.category))].join(", ");

/**
 * A JSON string of `length` code points cycling through `units`, at most `budget` bytes
 * (shortened to fit, never below one code point).
 */
export function stringText(units: readonly TextUnit[], length: number, budget: number): StressText {
  const escaped = units.map(escapeUnit);
  const bytes = escaped.map(utf8Bytes);
  const cycleBytes = bytes.reduce((a, b) => a + b, 0);
  const fit = Math.max(1, Math.floor((budget - 2) / cycleBytes) * units.length);
  const n = Math.min(length, fit);
  const whole = Math.floor(n / units.length);
  const part = n % units.length;
  const partBytes = bytes.slice(0, part).reduce((a, b) => a + b, 0);
  return {
    pieces: ['"', ...repeated(escaped.join(""), whole), escaped.slice(0, part).join(""), '"'],
    bytes: 2 + whole * cycleBytes + partBytes,
    size: n,
    json: "string",
    what: `a string of ${n} code point${n === 1 ? "" : "s"} (${categoriesOf(units)})`,
  };
}

/** A JSON string (with quotes) of a key built from units, for unknown keys and map keys. */
export function keyText(units: readonly TextUnit[]): string {
  return `"${units.map(escapeUnit).join("")}"`;
}

// ---- Nesting --------------------------------------------------------------------------------

export interface NestingParams {
  readonly depth: number;
  readonly outer: "array" | "object";
  /** Arrays and objects alternate level by level (`[{"k":[{"k":...`), else one kind throughout. */
  readonly alternate: boolean;
  /** The JSON text of the key of every object level. */
  readonly key: string;
  /** The innermost scalar. */
  readonly inner: string;
}

/** `depth` nested arrays and/or objects around a scalar, within `budget` bytes. */
export function nestingText(p: NestingParams, budget: number): StressText {
  const other = p.outer === "array" ? "object" : "array";
  const open = (t: "array" | "object") => (t === "array" ? "[" : `{${p.key}:`);
  const close = (t: "array" | "object") => (t === "array" ? "]" : "}");
  const keyBytes = utf8Bytes(p.key);
  const levelBytes = (t: "array" | "object") => (t === "array" ? 2 : keyBytes + 3);
  const perTwo = levelBytes(p.outer) + levelBytes(p.alternate ? other : p.outer);
  const fit = Math.max(1, Math.floor((budget - p.inner.length) / perTwo) * 2);
  const depth = Math.min(p.depth, fit);
  const pairs = Math.floor(depth / 2);
  const odd = depth % 2 === 1;
  const second = p.alternate ? other : p.outer;
  const shape = p.alternate ? "arrays and objects alternating" : `${p.outer}s`;
  return {
    pieces: [
      ...repeated(open(p.outer) + open(second), pairs),
      (odd ? open(p.outer) : "") + p.inner + (odd ? close(p.outer) : ""),
      ...repeated(close(second) + close(p.outer), pairs),
    ],
    bytes: pairs * perTwo + (odd ? levelBytes(p.outer) : 0) + p.inner.length,
    size: depth,
    json: p.outer,
    what: `${depth} level${depth === 1 ? "" : "s"} of nested ${shape}`,
  };
}

// ---- Many keys, large arrays ----------------------------------------------------------------

/**
 * Members `"prefix0":v0,"prefix1":v1,...` (`values` cycled): distinct keys ending in a digit, so
 * never a key the tables name; a key in `taken` is lengthened with `_` (a custom profile's names).
 * The size is counted from the parts, never by reading the text again: a body of 10,000 members is
 * built for each case, and a second pass over it cost more than building it.
 */
export function membersText(
  prefix: string,
  values: readonly string[],
  count: number,
  budget: number,
  taken: ReadonlySet<string> = NO_KEYS,
): StressText & { readonly firstKey: string } {
  const open = JSON.stringify(prefix).slice(0, -1); // digits need no escaping
  const openBytes = utf8Bytes(open);
  const valueBytes = values.map(utf8Bytes);
  const perMember = openBytes + String(count).length + 3 + Math.max(...valueBytes);
  const fit = Math.max(1, Math.floor((budget + 1) / perMember));
  const n = Math.min(count, fit);
  // Only `prefix` + a number can be taken: find which numbers once, instead of asking per key.
  const clashes = new Set<number>();
  for (const k of taken) {
    const rest = k.startsWith(prefix) ? k.slice(prefix.length) : "";
    if (/^(0|[1-9][0-9]{0,8})$/.test(rest) && Number(rest) < n) clashes.add(Number(rest));
  }
  const key = (i: number) => {
    let k = `${prefix}${i}`;
    while (taken.has(k)) k += "_";
    return k;
  };
  // Keys from BLOCK * q to BLOCK * q + BLOCK - 1 share their leading digits: such a block is one
  // join of fixed fragments around `${q}` (a few µs for 100 members; one member at a time was
  // most of what a body of 10,000 keys cost to make). The values cycle, so a block's fragments
  // depend only on where in the cycle it starts.
  const blocks = new Map<number, { readonly fragments: string[]; readonly bytes: number }>();
  const blockAt = (start: number) => {
    const phase = start % values.length;
    let b = blocks.get(phase);
    if (!b) {
      const fragments = [open];
      let fixed = 0;
      for (let r = 0; r < BLOCK; r++) {
        const v = (phase + r) % values.length;
        const tail = `${String(r).padStart(2, "0")}":${values[v]}`;
        fragments.push(r < BLOCK - 1 ? `${tail},${open}` : tail);
        fixed += openBytes + 2 + 2 + (valueBytes[v] as number);
      }
      b = { fragments, bytes: fixed };
      blocks.set(phase, b);
    }
    return b;
  };
  const clashIn = (from: number, to: number) => {
    for (const c of clashes) if (c >= from && c < to) return true;
    return false;
  };
  // Joined about a chunk's length at a time: pieces of the ordinary heap's size.
  const pieces: string[] = [];
  const members: string[] = [];
  let chars = 0;
  let bytes = n - 1; // the commas between members (inside a block too)
  for (let i = 0; i < n; ) {
    let member: string;
    let size: number;
    if (i >= BLOCK && i % BLOCK === 0 && i + BLOCK <= n && !clashIn(i, i + BLOCK)) {
      const digits = String(i / BLOCK);
      const block = blockAt(i);
      member = block.fragments.join(digits);
      bytes += block.bytes + BLOCK * digits.length;
      size = BLOCK;
    } else {
      const v = i % values.length;
      if (clashes.has(i)) {
        const text = JSON.stringify(key(i));
        member = `${text}:${values[v]}`;
        bytes += utf8Bytes(text) + 1 + (valueBytes[v] as number);
      } else {
        const digits = String(i);
        member = `${open}${digits}":${values[v]}`;
        bytes += openBytes + digits.length + 2 + (valueBytes[v] as number);
      }
      size = 1;
    }
    members.push(member);
    chars += member.length + 1;
    i += size;
    if (chars >= CHUNK_CHARS && i < n) {
      pieces.push(`${members.join(",")},`);
      members.length = 0;
      chars = 0;
    }
  }
  pieces.push(members.join(","));
  return {
    pieces,
    bytes,
    size: n,
    json: "object",
    firstKey: key(0),
    what: `${n} key${n === 1 ? "" : "s"}`,
  };
}

const NO_KEYS: ReadonlySet<string> = new Set();

/** A JSON array of `length` elements cycling through `elements` (JSON texts), within `budget`. */
export function arrayText(elements: readonly string[], length: number, budget: number): StressText {
  const sizes = elements.map(utf8Bytes);
  const elementBytes = Math.max(...sizes);
  const fit = Math.max(1, Math.floor((budget - 1) / (elementBytes + 1)));
  const n = Math.min(length, fit);
  const all = elements.join(",");
  const whole = Math.floor(n / elements.length);
  const part = n % elements.length;
  const rest = elements.slice(0, part).join(",");
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  // n >= 1, so either some whole cycles or a partial one; commas only between elements
  const pieces =
    part === 0
      ? ["[", ...repeated(`${all},`, whole - 1), `${all}]`]
      : ["[", ...repeated(`${all},`, whole), `${rest}]`];
  return {
    pieces,
    // brackets, n - 1 commas, the elements: counted, not read again from the text
    bytes: 2 + (n - 1) + whole * sum(sizes) + sum(sizes.slice(0, part)),
    size: n,
    json: "array",
    what: `an array of ${n} element${n === 1 ? "" : "s"}`,
  };
}

/** Small JSON values of every type, for elements and values where any type will do. */
export const anyScalarText: fc.Arbitrary<string> = fc.constantFrom(
  "null",
  "0",
  "true",
  "false",
  '""',
  '"x"',
  "-1",
  "1.5",
  "{}",
  "[]",
);

// ---- Numbers --------------------------------------------------------------------------------

// Numbers whose value is a finite double of the same class (integral or not) as the decimal
// value the text writes: a provider reading with doubles, 64-bit integers or decimals agrees
// whether each is an integer. These may go into tabulated fields.
const SAME_CLASS_NUMBERS = [
  "1e308",
  "-1e308",
  "1.7976931348623157e308",
  "-1.7976931348623157E+308",
  "1E+308",
  "-0",
  "-0.0",
  "0.0",
  "0e0",
  "9007199254740993", // 2^53 + 1: a double reads 2^53
  "-9007199254740993",
  "18446744073709551616", // 2^64
  "-9223372036854775809", // below the 64-bit minimum
  "5e-324",
  "-5e-324",
  "4.9406564584124654e-324",
  "2.2250738585072014e-308",
  "1.0",
  "100e-2",
  "0.1",
  "-0.5",
];

// Numbers a double cannot hold (Infinity, or 0 for a nonzero value): readers disagree on their
// class, so they go only into unknown keys, where every reading of the body is the same.
const BEYOND_DOUBLE_NUMBERS = ["1e400", "-1e400", "1E99999", "1e-400", "-1e-400", "0.1e-999"];

function numberText(text: string, what: string): StressText {
  const value = Number(text);
  return {
    pieces: [text],
    bytes: text.length,
    size: text.length,
    json: "number",
    integral: Number.isInteger(value),
    what,
  };
}

/** A decimal integer literal of `digits` digits (a repeated pattern), optionally negative. */
const integerLiteral = (maxDigits: number) =>
  fc
    .record({
      digits: sizeArb(maxDigits),
      lead: fc.integer({ min: 1, max: 9 }),
      pattern: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 8 }),
      negative: fc.boolean(),
    })
    .map(({ digits, lead, pattern, negative }) => {
      const p = pattern.join("");
      const tail = p.repeat(Math.ceil((digits - 1) / p.length)).slice(0, digits - 1);
      return numberText(`${negative ? "-" : ""}${lead}${tail}`, `an integer of ${digits} digits`);
    });

/** `0.000…01` with up to 320 zeros: tiny, but a nonzero double. */
const tinyFraction = fc
  .tuple(fc.integer({ min: 0, max: 320 }), fc.boolean())
  .map(([zeros, negative]) =>
    numberText(`${negative ? "-" : ""}0.${"0".repeat(zeros)}1`, `a fraction with ${zeros} zeros`),
  );

/**
 * Extreme JSON numbers. `sameClassOnly`: only those whose double value has the class the text
 * writes (for tabulated fields); else also huge literals (up to `maxDigits` digits), 1e400, 1e-400.
 */
export function numberTextArb(sameClassOnly: boolean, maxDigits: number): fc.Arbitrary<StressText> {
  const table = (texts: readonly string[]) =>
    fc.constantFrom(...texts).map((t) => numberText(t, `the number ${t}`));
  const same = [
    table(SAME_CLASS_NUMBERS),
    integerLiteral(Math.min(308, maxDigits)),
    tinyFraction,
  ] as const;
  if (sameClassOnly) return fc.oneof(...same);
  return fc.oneof(...same, table(BEYOND_DOUBLE_NUMBERS), integerLiteral(maxDigits));
}
