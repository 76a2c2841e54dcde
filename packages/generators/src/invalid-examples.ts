import {
  type ContractProfile,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  formatPath,
  requestShapeFor,
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
  if (!profile.asserted.has("wrong-type")) return out;
  for (const slot of collectSlots(shape)) {
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
