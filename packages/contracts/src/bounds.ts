import type { JsonPath } from "./json-path.ts";
import type { DetailedOperationId } from "./operations.ts";

// Bounds a provider keeps that the spec does not state (conformance.md §6, key `bounds`): per
// field or map, the longest string, the most items or keys, the smallest and largest number, and
// the status the provider answers past them. No bounds are known by default (§2): a profile pins
// them. Paths as in `valuesInUse`: `[]` for every element of an array, `*` for every map value.

/** What a bound limits at a path: a string's length, an array's items or a map's keys, a number. */
export type BoundedKind = "string" | "array" | "map" | "integer" | "number";

/** Every path a bound may name, with what is there (the tabulated shapes, §2). */
export const BOUND_PATHS = {
  "schema.name": "string",
  "schema.fields": "array",
  "schema.fields[].name": "string",
  "schema.fields[].type": "string",
  "data.message": "string",
  "data.title": "string",
  "data.small_icon": "string",
  "data.vibrate_duration": "integer",
  "data.activity_class": "string",
  "data.badge": "integer",
  "data.sound": "string",
  "rules.features": "map",
  "rules.features.*.labels": "array",
  "rules.features.*.labels[].name": "string",
  "rules.features.*.labels[].keywords": "array",
  "rules.features.*.labels[].keywords[]": "string",
  "rules.features.*.classifier.type": "string",
  "rules.features.*.classifier.categories": "array",
  "rules.features.*.classifier.categories[]": "string",
  "rules.features.*.classifier.threshold": "number",
  "rules.features.*.classifier.excluded_words": "array",
  "rules.features.*.classifier.excluded_words[]": "string",
  "rules.parameters.excluded_words": "array",
  "rules.parameters.excluded_words[]": "string",
} as const satisfies Record<string, BoundedKind>;

/** A path a bound may name, e.g. `schema.name` or `rules.features.*.labels[].keywords`. */
export type BoundPath = keyof typeof BOUND_PATHS;
/** Every bound path, in the order of {@link BOUND_PATHS} (containers before what they hold). */
export const BOUND_PATH_NAMES = Object.keys(BOUND_PATHS) as BoundPath[];

/**
 * What a string bound's `maxLength` counts (conformance.md §6): code points (the default), UTF-16
 * units (a JavaScript or Java provider's `length`) or UTF-8 bytes (a Go or C provider's `len`).
 */
export const BOUND_UNITS = ["codePoints", "utf16", "bytes"] as const;
/** A unit of {@link BOUND_UNITS}. */
export type BoundUnit = (typeof BOUND_UNITS)[number];

/** A unit in words, for messages: `code points`, `UTF-16 units`, `bytes`. */
export const UNIT_WORDS: { readonly [U in BoundUnit]: string } = {
  codePoints: "code points",
  utf16: "UTF-16 units",
  bytes: "bytes",
};

/**
 * The length of `s` in `unit`. Bytes are those of its UTF-8 encoding, a lone surrogate counted as
 * the 3 bytes of U+FFFD that an encoder writes for it.
 */
export function lengthIn(s: string, unit: BoundUnit): number {
  if (unit === "utf16") return s.length;
  let n = 0;
  for (const ch of s) {
    if (unit === "codePoints") n++;
    else {
      const cp = ch.codePointAt(0) as number;
      n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
  }
  return n;
}

/** One bound: its limits (those that fit what is at the path) and the status past them. */
export interface Bound {
  /** The longest string, in `unit`. */
  readonly maxLength?: number;
  /** What `maxLength` counts. @defaultValue `"codePoints"` */
  readonly unit?: BoundUnit;
  /** The most array items or map keys. */
  readonly maxItems?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  /** What the provider answers past the bound (the operation must document it). */
  readonly status: 400 | 422;
}

/** A profile's bounds, by path. */
export type Bounds = { readonly [P in BoundPath]?: Bound };

/** The operation whose body a bound path is in (by its wrapper key). */
export function operationOfBound(path: BoundPath): DetailedOperationId {
  return path.startsWith("schema.")
    ? "createSchema"
    : path.startsWith("data.")
      ? "pushToUserDevices"
      : "updateClusteringRules";
}

/** The limits a kind of value takes. */
export const LIMITS_OF: { readonly [K in BoundedKind]: readonly (keyof Bound)[] } = {
  string: ["maxLength"],
  array: ["maxItems"],
  map: ["maxItems"],
  integer: ["minimum", "maximum"],
  number: ["minimum", "maximum"],
};

/** A value past a bound: where, which bound, and what was there. */
export interface BoundBreach {
  readonly path: JsonPath;
  readonly key: BoundPath;
  readonly bound: Bound;
  /** One line: the limit and the value, e.g. `schema.name: 65 UTF-16 units, the most is 64`. */
  readonly message: string;
}

type Segment = { readonly kind: "key"; readonly key: string } | { readonly kind: "each" };

/** `rules.features.*.labels[].keywords[]` as segments: keys, and `each` for `*` and `[]`. */
function segmentsOf(path: BoundPath): Segment[] {
  const out: Segment[] = [];
  for (const part of path.split(".")) {
    if (part === "*") {
      out.push({ kind: "each" });
      continue;
    }
    const name = part.replace(/\[\]$/, "");
    out.push({ kind: "key", key: name });
    if (part.endsWith("[]")) out.push({ kind: "each" });
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Every value at a bound's path in a body, with its concrete path. */
function* valuesAt(
  body: unknown,
  segments: readonly Segment[],
  at: JsonPath = [],
): Generator<[unknown, JsonPath]> {
  const [first, ...rest] = segments;
  if (!first) {
    yield [body, at];
    return;
  }
  if (first.kind === "key") {
    if (isObject(body) && Object.hasOwn(body, first.key))
      yield* valuesAt(body[first.key], rest, [...at, first.key]);
    return;
  }
  if (Array.isArray(body))
    for (const [i, v] of body.entries()) yield* valuesAt(v, rest, [...at, i]);
  else if (isObject(body))
    for (const [k, v] of Object.entries(body)) yield* valuesAt(v, rest, [...at, k]);
}

/** What is wrong with one value under one bound, or undefined. */
function breachOf(value: unknown, bound: Bound): string | undefined {
  if (typeof value === "string" && bound.maxLength !== undefined) {
    const unit = bound.unit ?? "codePoints";
    const n = lengthIn(value, unit);
    if (n > bound.maxLength) return `${n} ${UNIT_WORDS[unit]}, the most is ${bound.maxLength}`;
  }
  if (bound.maxItems !== undefined) {
    const n = Array.isArray(value)
      ? value.length
      : isObject(value)
        ? Object.keys(value).length
        : undefined;
    if (n !== undefined && n > bound.maxItems)
      return `${n} ${Array.isArray(value) ? "items" : "keys"}, the most is ${bound.maxItems}`;
  }
  if (typeof value === "number") {
    if (bound.minimum !== undefined && value < bound.minimum)
      return `${value}, the least is ${bound.minimum}`;
    if (bound.maximum !== undefined && value > bound.maximum)
      return `${value}, the most is ${bound.maximum}`;
  }
  return undefined;
}

/** The first value of a valid body past one of the bounds of its operation, in path order. */
export function boundBreach(
  operation: DetailedOperationId,
  body: unknown,
  bounds: Bounds,
): BoundBreach | undefined {
  for (const key of BOUND_PATH_NAMES) {
    const bound = bounds[key];
    if (!bound || operationOfBound(key) !== operation) continue;
    for (const [value, path] of valuesAt(body, segmentsOf(key))) {
      const why = breachOf(value, bound);
      if (why)
        return {
          path,
          key,
          bound,
          message: `${path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("")}: ${why}`,
        };
    }
  }
  return undefined;
}
