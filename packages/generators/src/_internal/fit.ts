import {
  BOUND_PATH_NAMES,
  BOUND_PATHS,
  type Bound,
  type BoundPath,
  type Bounds,
  type BoundUnit,
  type DetailedOperationId,
  lengthIn,
  operationOfBound,
} from "@idp/contracts";
import { utf8Bytes } from "./json-text.ts";

// Fitting a generated valid body into the bounds a profile pins (conformance.md §6) and into a byte
// budget: deterministic maps applied after generation, so shrinking (which works on the source
// values) still reaches the smallest body, and every fitted body is as valid as before (only
// shorter strings, fewer items, numbers moved inside a bound).

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The first `n` code points of `s`. */
export function prefixCodePoints(s: string, n: number): string {
  if (s.length <= n) return s;
  let out = "";
  let count = 0;
  for (const cp of s) {
    if (count++ >= n) break;
    out += cp;
  }
  return out;
}

const codePoints = (s: string): number => lengthIn(s, "codePoints");

/** The longest prefix of `s` of at most `n` in `unit`, whole code points only. */
export function prefixIn(s: string, n: number, unit: BoundUnit): string {
  if (unit === "codePoints") return prefixCodePoints(s, n);
  let out = "";
  let used = 0;
  for (const cp of s) {
    used += lengthIn(cp, unit);
    if (used > n) break;
    out += cp;
  }
  return out;
}

/** `value` brought within one bound (a copy where it changes). */
function fitValue(value: unknown, bound: Bound, integer: boolean): unknown {
  if (typeof value === "string" && bound.maxLength !== undefined) {
    const unit = bound.unit ?? "codePoints";
    return lengthIn(value, unit) > bound.maxLength ? prefixIn(value, bound.maxLength, unit) : value;
  }
  if (Array.isArray(value) && bound.maxItems !== undefined)
    return value.length > bound.maxItems ? value.slice(0, bound.maxItems) : value;
  if (isObject(value) && bound.maxItems !== undefined) {
    const keys = Object.keys(value);
    if (keys.length <= bound.maxItems) return value;
    return Object.fromEntries(keys.slice(0, bound.maxItems).map((k) => [k, value[k]]));
  }
  if (typeof value === "number") {
    let v = value;
    if (bound.minimum !== undefined && v < bound.minimum)
      v = integer ? Math.ceil(bound.minimum) : bound.minimum;
    if (bound.maximum !== undefined && v > bound.maximum)
      v = integer ? Math.floor(bound.maximum) : bound.maximum;
    return v;
  }
  return value;
}

/** A path or pattern as steps: keys, `[]` for each array element, `*` for each map value. */
const stepsOf = (path: string): string[] =>
  path === ""
    ? []
    : path.split(".").flatMap((p) => (p.endsWith("[]") ? [p.slice(0, -2), "[]"] : [p]));

/** Replaces every value at the steps below `node` with `f(value)` (copies on the way). */
function mapAt(node: unknown, steps: readonly string[], f: (v: unknown) => unknown): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) return f(node);
  if (step === "[]") return Array.isArray(node) ? node.map((v) => mapAt(v, rest, f)) : node;
  if (step === "*")
    return isObject(node)
      ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, mapAt(v, rest, f)]))
      : node;
  if (!isObject(node) || !Object.hasOwn(node, step)) return node;
  return { ...node, [step]: mapAt(node[step], rest, f) };
}

/**
 * A valid value at `pattern` (e.g. `rules.features.*.labels[]`, `""` for the whole body) brought
 * within every bound at or below that place but `except`. Containers are cut before their contents.
 */
export function fitBoundsAt(
  pattern: string,
  value: unknown,
  bounds: Bounds,
  except?: BoundPath,
): unknown {
  const at = stepsOf(pattern);
  let out = value;
  for (const path of BOUND_PATH_NAMES) {
    const bound = bounds[path];
    if (!bound || path === except) continue;
    const steps = stepsOf(path);
    if (steps.length < at.length || at.some((s, i) => steps[i] !== s)) continue;
    const integer = BOUND_PATHS[path] === "integer";
    out = mapAt(out, steps.slice(at.length), (v) => fitValue(v, bound, integer));
  }
  return out;
}

/**
 * A valid body of `operation` brought within the profile's bounds, except the one at `except`
 * (where an over-bound body is being built). Containers are cut before what is inside them.
 */
export function fitBounds(
  operation: DetailedOperationId,
  body: unknown,
  bounds: Bounds,
  except?: BoundPath,
): unknown {
  // Bound paths start with the operation's wrapper, so the whole body is the pattern "".
  return hasBoundsFor(operation, bounds) ? fitBoundsAt("", body, bounds, except) : body;
}

export const hasBoundsFor = (operation: DetailedOperationId, bounds: Bounds): boolean =>
  BOUND_PATH_NAMES.some((p) => bounds[p] !== undefined && operationOfBound(p) === operation);

// Strings and containers at most this long are never cut to fit bytes: values in use ("date_time")
// and the few items every container keeps stay as generated.
const KEEP_CODE_POINTS = 32;
const KEEP_ITEMS = 4;

/** Every string, key and container longer than what is kept, cut by `factor` (at least to what is kept). */
function shrinkBy(value: unknown, factor: number): unknown {
  const cut = (n: number, keep: number) => (n > keep ? Math.max(keep, Math.floor(n * factor)) : n);
  if (typeof value === "string") {
    const n = codePoints(value);
    return n > KEEP_CODE_POINTS ? prefixCodePoints(value, cut(n, KEEP_CODE_POINTS)) : value;
  }
  if (Array.isArray(value))
    return value.slice(0, cut(value.length, KEEP_ITEMS)).map((v) => shrinkBy(v, factor));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    const entries = Object.entries(value);
    for (const [k, v] of entries.slice(0, cut(entries.length, KEEP_ITEMS))) {
      const key = shrinkBy(k, factor) as string;
      // Two keys cut to one prefix: the later is left out (fewer keys, still valid).
      if (!Object.hasOwn(out, key)) out[key] = shrinkBy(v, factor);
    }
    return out;
  }
  return value;
}

/**
 * The body cut down until its JSON text is at most `maxBytes` of UTF-8: long strings, map keys and
 * long arrays and maps shortened in proportion, the same way every time for the same body.
 */
export function fitBytes(body: unknown, maxBytes: number): unknown {
  let out = body;
  for (let bytes = utf8Bytes(JSON.stringify(out)); bytes > maxBytes; ) {
    const next = shrinkBy(out, Math.min(0.9, (maxBytes / bytes) * 0.95));
    const after = utf8Bytes(JSON.stringify(next));
    if (after >= bytes) break; // nothing left to cut: only kept values remain
    out = next;
    bytes = after;
  }
  return out;
}
