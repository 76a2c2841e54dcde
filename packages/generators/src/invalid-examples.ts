import {
  BOUND_PATH_NAMES,
  BOUND_PATHS,
  type Bound,
  type BoundPath,
  type ContractProfile,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  formatPath,
  operationOfBound,
  requestShapeFor,
  UNIT_WORDS,
  VALUES_IN_USE_KEYS,
} from "@idp/contracts";
import type { z } from "zod";
import { cloneJson } from "./_internal/clone.ts";
import { fitBounds } from "./_internal/fit.ts";
import {
  describeJsonType,
  type JsonKind,
  type JsonType,
  wrongKindsOf,
} from "./_internal/json-values.ts";
import { collectSlots } from "./_internal/slots.ts";
import { lightText } from "./_internal/unit-text.ts";
import { defOf, numberDomain } from "./_internal/zod-def.ts";
import type { InvalidBodyCase } from "./invalid-body.ts";

// Every wrong type at every place, once: a provider that takes `null` (or "1", or []) for one field
// is found for sure, not by luck of the draw. Random cases reach a (place, kind) pair with
// probability 1/(places x kinds) each; these examples reach all of them in a few hundred requests.

/** One value of a kind, chosen as the mistake a client makes: `"1"` for a number, `"true"` for a boolean. */
function valueOfKind(kind: JsonKind, expected: JsonType): unknown {
  switch (kind) {
    case "null":
      return null;
    case "boolean":
      return true;
    case "integer":
      return 1;
    case "fraction":
      return 1.5;
    case "string":
      return expected === "boolean" ? "true" : expected === "object" ? "{}" : "1";
    case "array":
      return [];
    case "object":
      return {};
  }
}

/**
 * The fullest small valid value of a shape: every optional key present, one element per array,
 * one key `k` per map, the first value in use, numbers inside their domain.
 */
function fullValue(
  schema: z.core.$ZodType,
  pattern: string,
  inUse: (p: string) => unknown,
): unknown {
  const given = inUse(pattern);
  if (given !== undefined) return given;
  const def = defOf(schema);
  const child = (seg: string) => (pattern === "" ? seg : `${pattern}${seg}`);
  switch (def.type) {
    case "string":
      return "x";
    case "boolean":
      return true;
    case "number": {
      const { integer, min, max } = numberDomain(schema, pattern);
      const lo = min?.value ?? (integer ? 1 : 0.5);
      const v = integer ? Math.max(1, Math.ceil(lo)) : lo === 0 ? 0.5 : lo;
      return max && v > max.value ? max.value : v;
    }
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "literal":
      return (def.values as unknown[])[0];
    case "optional":
    case "nullable":
      return fullValue(def.innerType as z.core.$ZodType, pattern, inUse);
    case "array":
      return [fullValue(def.element as z.core.$ZodType, child("[]"), inUse)];
    case "record":
      return {
        k: fullValue(def.valueType as z.core.$ZodType, child(pattern === "" ? "*" : ".*"), inUse),
      };
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.core.$ZodType>))
        out[key] = fullValue(field, pattern === "" ? key : `${pattern}.${key}`, inUse);
      return out;
    }
    default:
      return null;
  }
}

/** The concrete path of a slot in a {@link fullValue} body: `[]` is index 0, `*` is key `k`. */
function pathIn(body: unknown, segments: ReturnType<typeof collectSlots>[number]["segments"]) {
  const path: (string | number)[] = [];
  let node: unknown = body;
  for (const seg of segments) {
    const step = seg.kind === "key" ? seg.key : seg.kind === "element" ? 0 : "k";
    if (node === null || typeof node !== "object" || !Object.hasOwn(node as object, step))
      return undefined; // cut away by a bound (maxItems 0)
    path.push(step);
    node = (node as Record<string | number, unknown>)[step];
  }
  return path;
}

/**
 * Values just past a bound, each with what it is: a string one past `maxLength` in the bound's unit
 * (of the characters lightest in the other units), one item or key more than `maxItems`, one past
 * the minimum and the maximum.
 */
function pastBound(key: BoundPath, bound: Bound, current: unknown): [unknown, string][] {
  const kind = BOUND_PATHS[key];
  const out: [unknown, string][] = [];
  if (kind === "string" && bound.maxLength !== undefined) {
    const unit = bound.unit ?? "codePoints";
    const n = bound.maxLength + 1;
    out.push([
      lightText(n, unit),
      `${n} ${UNIT_WORDS[unit]}, past the profile's maxLength ${n - 1}`,
    ]);
  }
  if (kind === "array" && bound.maxItems !== undefined && Array.isArray(current)) {
    const n = bound.maxItems + 1;
    const item = current[0] ?? null;
    out.push([
      Array.from({ length: n }, () => cloneJson(item)),
      `${n} items, past the profile's maxItems ${n - 1}`,
    ]);
  }
  if (kind === "map" && bound.maxItems !== undefined && current && typeof current === "object") {
    const n = bound.maxItems + 1;
    const item = Object.values(current)[0] ?? {};
    const map = Object.fromEntries(
      Array.from({ length: n }, (_, i) => [i === 0 ? "k" : `k~${i}`, cloneJson(item)]),
    );
    out.push([map, `${n} keys, past the profile's maxItems ${n - 1}`]);
  }
  if (kind === "integer" || kind === "number") {
    const step = kind === "integer" ? 1 : 0.5;
    if (bound.maximum !== undefined) {
      const v =
        kind === "integer"
          ? Math.floor(bound.maximum) + 1
          : bound.maximum + Math.max(step, Math.abs(bound.maximum) * 1e-9);
      out.push([v, `${v}, past the profile's maximum ${bound.maximum}`]);
    }
    if (bound.minimum !== undefined) {
      const v =
        kind === "integer"
          ? Math.ceil(bound.minimum) - 1
          : bound.minimum - Math.max(step, Math.abs(bound.minimum) * 1e-9);
      out.push([v, `${v}, past the profile's minimum ${bound.minimum}`]);
    }
  }
  return out;
}

/**
 * Invalid bodies of an operation, one per place and JSON kind: a fixed, full valid body with the
 * value at one tabulated place replaced by a value of each kind it does not have (wrong-type), and
 * the wrapper and the whole body replaced by each kind that is not an object. Only the kinds the
 * profile asserts; the same list every time (no seed).
 */
export function invalidBodyExamples(
  operation: DetailedOperationId,
  constraints: { readonly profile?: ContractProfile } = {},
): InvalidBodyCase[] {
  const profile = constraints.profile ?? defaultProfile;
  const shape = requestShapeFor(profile, operation);
  const wrapper = detailedOperations[operation].wrapperKey;
  const inUse = (pattern: string): unknown => {
    if (pattern === "rules.features.*.classifier.threshold") return 0.5;
    const values = (profile.valuesInUse as Readonly<Record<string, readonly string[]>>)[pattern];
    return values?.[0];
  };
  const base = fitBounds(operation, fullValue(shape, "", inUse), profile.bounds) as Record<
    string,
    unknown
  >;
  const mapping = profile.statusMapping[operation];
  const out: InvalidBodyCase[] = [];
  const nonObject = wrongKindsOf("object");
  if (profile.asserted.has("not-object"))
    for (const kind of nonObject) {
      const body = valueOfKind(kind, "object");
      out.push({
        body,
        raw: false,
        expectedStatus: mapping["not-object"],
        violation: `(body): expected object, got ${describeJsonType(body)}`,
        kind: "not-object",
        path: [],
      });
    }
  if (profile.asserted.has("wrapper-not-object"))
    for (const kind of nonObject) {
      const value = valueOfKind(kind, "object");
      out.push({
        body: { ...base, [wrapper]: value },
        raw: false,
        expectedStatus: mapping["wrapper-not-object"],
        violation: `${wrapper}: expected object, got ${describeJsonType(value)}`,
        kind: "wrapper-not-object",
        path: [wrapper],
      });
    }
  const slots = collectSlots(shape);
  // Each bound, just past it once: a provider that counts another unit than the profile's is found
  // for sure (an astral string one UTF-16 unit past the bound has half as many code points).
  for (const key of BOUND_PATH_NAMES) {
    const bound = profile.bounds[key];
    const slot = slots.find((s) => s.pattern === key);
    if (!bound || !slot || operationOfBound(key) !== operation) continue;
    // A value in use made longer is not in use either: two violations, not one.
    if ((VALUES_IN_USE_KEYS as readonly string[]).includes(key)) continue;
    const path = pathIn(base, slot.segments);
    if (!path) continue;
    let parent: Record<string | number, unknown> = base;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    const last = path[path.length - 1] as string | number;
    for (const [value, what] of pastBound(key, bound, parent[last])) {
      const body = cloneJson(base);
      let at: Record<string | number, unknown> = body;
      for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
      at[last] = value;
      out.push({
        body,
        raw: false,
        expectedStatus: bound.status,
        violation: `${formatPath(path)}: ${what}`,
        kind: "out-of-bounds",
        path,
        bound: `bounds.${key}`,
      });
    }
  }
  if (!profile.asserted.has("wrong-type")) return out;
  for (const slot of slots) {
    if (slot.segments.length < 2) continue; // the wrapper: above
    const path = pathIn(base, slot.segments);
    if (!path) continue;
    for (const kind of wrongKindsOf(slot.expected)) {
      const body = cloneJson(base);
      let parent: Record<string | number, unknown> = body;
      for (const step of path.slice(0, -1))
        parent = parent[step] as Record<string | number, unknown>;
      const value = valueOfKind(kind, slot.expected);
      parent[path[path.length - 1] as string | number] = value;
      out.push({
        body,
        raw: false,
        expectedStatus: mapping["wrong-type"],
        violation: `${formatPath(path)}: expected ${slot.expected}, got ${describeJsonType(value)}`,
        kind: "wrong-type",
        path,
      });
    }
  }
  return out;
}
