import {
  type ContractProfile,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  formatPath,
  requestShapeFor,
  type ViolationKind,
} from "@idp/contracts";
import fc from "fast-check";
import type { z } from "zod";
import {
  anyKey,
  anyString,
  describeJsonType,
  nonObjectValue,
  wrongTypeValue,
} from "./_internal/json-values.ts";
import { locate, picksArb, setAt } from "./_internal/locate.ts";
import { collectSlots, type Slot } from "./_internal/slots.ts";
import { VALUES_IN_USE } from "./_internal/spec-values.ts";
import { codePointBoundary } from "./_internal/unicode.ts";
import { defOf, numberDomain } from "./_internal/zod-def.ts";
import { GeneratorError } from "./errors.ts";
import { validBodyArb } from "./valid-body.ts";

/** A request body that breaks exactly one rule, with what a conforming provider must answer. */
export interface InvalidBodyCase {
  /** The JSON value, or the raw text when `raw` is true. */
  body: unknown;
  /** True when `body` is the raw text to send (not JSON). */
  raw: boolean;
  /** The status conformance.md §3 pins for this operation and violation (the profile's mapping). */
  expectedStatus: 400 | 422;
  /** Human-readable, names the path: `schema.fields[0].unique: expected boolean, got string`. */
  violation: string;
  kind: ViolationKind;
  /** Where the rule is broken; `[]` for the whole body. */
  path: readonly (string | number)[];
}

/** Constraints of the invalid-body arbitraries. */
export interface InvalidBodyConstraints {
  /** Which violations to produce (its `asserted` kinds) and their statuses. @defaultValue `defaultProfile` */
  readonly profile?: ContractProfile;
}

/** Serialises a case to the bytes to send: raw text as is, else `JSON.stringify(body)`. */
export function requestBodyText(c: InvalidBodyCase): string {
  return c.raw ? String(c.body) : JSON.stringify(c.body);
}

// Small bases keep invalid cases fast and readable; the broken place is what matters.
const BASE_MAX_LENGTH = 4;

/**
 * Bodies of a detailed operation that break exactly one rule the profile asserts. Every case is
 * rebuilt from its shrinkable parts, so a shrunk case still breaks the same rule at the same place.
 */
export function invalidBodyArb(
  operation: DetailedOperationId,
  constraints: InvalidBodyConstraints = {},
): fc.Arbitrary<InvalidBodyCase> {
  const profile = constraints.profile ?? defaultProfile;
  const wrapper = detailedOperations[operation].wrapperKey;
  const shape = requestShapeFor(profile, operation);
  const slots = collectSlots(shape);
  const base = validBodyArb(operation, { profile, maxLength: BASE_MAX_LENGTH }) as fc.Arbitrary<
    Record<string, unknown>
  >;
  const status = (kind: ViolationKind) => profile.statusMapping[operation][kind];
  const make = (
    kind: ViolationKind,
    body: unknown,
    path: readonly (string | number)[],
    what: string,
    raw = false,
  ): InvalidBodyCase => ({
    body,
    raw,
    expectedStatus: status(kind),
    violation: `${formatPath(path)}: ${what}`,
    kind,
    path,
  });
  const picksFor = (slot: Slot, freshAtLast = false) =>
    picksArb(slots, slot, VALUES_IN_USE[operation], freshAtLast, BASE_MAX_LENGTH);
  const asserted = profile.asserted;
  const cases: fc.Arbitrary<InvalidBodyCase>[] = [];

  if (asserted.has("not-json")) {
    const texts = [
      " ",
      "undefined",
      "NaN",
      "{",
      "}",
      "[",
      "'x'",
      `{'${wrapper}': {}}`,
      `${wrapper}=1`,
    ];
    cases.push(
      fc
        .oneof(
          fc.tuple(base, fc.nat()).map(([b, n]) => {
            const text = JSON.stringify(b);
            const cut = codePointBoundary(text, n % text.length);
            return [text.slice(0, cut), `truncated after ${cut} UTF-16 code units`];
          }),
          fc.tuple(base, anyString).map(([b, s]) => [`${JSON.stringify(b)},${s}`, "trailing text"]),
          fc.constantFrom(...texts).map((t) => [t, JSON.stringify(t)]),
        )
        .map(([text, what]) => make("not-json", text, [], `not JSON (${what})`, true)),
    );
  }
  if (asserted.has("not-object")) {
    cases.push(
      fc
        .oneof(
          nonObjectValue,
          base.map((b) => [b]),
          base.map((b) => JSON.stringify(b)),
        )
        .map((v) => make("not-object", v, [], `expected object, got ${describeJsonType(v)}`)),
    );
  }
  if (asserted.has("wrapper-missing")) {
    const otherKey = anyKey.map((k) => (k === wrapper ? `${k}_` : k));
    cases.push(
      fc
        .oneof(
          fc.constant(null).map(() => ({})),
          base.map((b) => ({ ...(b[wrapper] as Record<string, unknown>) })),
          fc.tuple(base, otherKey).map(([b, k]) => ({ [k]: b[wrapper] })),
        )
        .map((v) => {
          delete (v as Record<string, unknown>)[wrapper];
          return make("wrapper-missing", v, [wrapper], "missing (expected an object)");
        }),
    );
  }
  if (asserted.has("wrapper-not-object")) {
    cases.push(
      fc
        .oneof(
          nonObjectValue,
          base.map((b) => [b[wrapper]]),
        )
        .map((v) =>
          make(
            "wrapper-not-object",
            { [wrapper]: v },
            [wrapper],
            `expected object, got ${describeJsonType(v)}`,
          ),
        ),
    );
  }
  for (const slot of slots) {
    if (slot.segments.length < 2) continue; // the wrapper: its own kinds above
    if (asserted.has("wrong-type")) {
      cases.push(
        fc.tuple(base, picksFor(slot), wrongTypeValue(slot.expected)).map(([b, picks, bad]) => {
          const { body, parent, key, path } = locate(b, slot, picks);
          setAt(parent, key, bad);
          return make(
            "wrong-type",
            body,
            path,
            `expected ${slot.expected}, got ${describeJsonType(bad)}`,
          );
        }),
      );
    }
    const last = slot.segments[slot.segments.length - 1];
    if (asserted.has("missing-field") && last?.kind === "key" && !slot.optional) {
      cases.push(
        fc.tuple(base, picksFor(slot)).map(([b, picks]) => {
          const { body, parent, key, path } = locate(b, slot, picks);
          delete (parent as Record<string, unknown>)[key];
          return make("missing-field", body, path, `missing (expected ${slot.expected})`);
        }),
      );
    }
    const notInUse = asserted.has("value-not-in-use") ? valueNotInUse(slot) : undefined;
    if (notInUse) {
      cases.push(
        fc.tuple(base, picksFor(slot), notInUse).map(([b, picks, bad]) => {
          const { body, parent, key, path } = locate(b, slot, picks);
          setAt(parent, key, bad);
          return make(
            "value-not-in-use",
            body,
            path,
            `${JSON.stringify(bad)} is not a value in use`,
          );
        }),
      );
    }
  }
  if (asserted.has("unknown-key")) {
    const objects = [{ segments: [], schema: shape }, ...slots].filter(
      (s) => defOf(s.schema).type === "object",
    );
    for (const obj of objects) {
      const known = new Set(Object.keys(defOf(obj.schema).shape as object));
      const unknownKey = anyKey.map((k) => {
        let key = k;
        while (known.has(key)) key = `${key}_`;
        return key;
      });
      const root = obj.segments.length === 0;
      cases.push(
        fc
          .tuple(base, root ? fc.constant([]) : picksFor(obj as Slot, true), unknownKey, anyString)
          .map(([b, picks, extra, value]) => {
            let body: Record<string, unknown> = structuredClone(b);
            let target = body;
            let path: (string | number)[] = [];
            if (!root) {
              const at = locate(b, obj as Slot, picks);
              body = at.body;
              target = (at.parent as Record<string | number, unknown>)[at.key] as typeof target;
              path = [...at.path];
            }
            target[extra] = value;
            return make("unknown-key", body, [...path, extra], "unknown key");
          }),
      );
    }
  }
  const [first, ...rest] = cases;
  if (!first)
    throw new GeneratorError(
      "E_USAGE",
      `profile "${profile.name}" asserts no violation kind this package can generate.\n` +
        "Expected: a profile whose `asserted` set is not empty.",
    );
  return fc.oneof(first, ...rest);
}

/** Values of the slot's JSON type that its (strict) schema does not allow, if it restricts values. */
function valueNotInUse(slot: Slot): fc.Arbitrary<unknown> | undefined {
  const def = defOf(slot.schema);
  if (def.type === "enum") {
    const allowed = new Set(Object.values(def.entries as Record<string, unknown>));
    return anyString.map((s) => {
      let v = s;
      while (allowed.has(v)) v = `${v}_`;
      return v;
    });
  }
  if (def.type !== "number") return undefined;
  const { min, max } = numberDomain(slot.schema as z.core.$ZodType, slot.pattern);
  const step = fc.constantFrom(0.5, 1, 0.001, 1_000_000);
  const out: fc.Arbitrary<number>[] = [];
  // v - max(step, |v|) is exactly below v for every finite v, even where v - step rounds back to v.
  if (min) out.push(step.map((d) => min.value - Math.max(d, Math.abs(min.value))));
  if (max) out.push(step.map((d) => max.value + Math.max(d, Math.abs(max.value))));
  const [first, ...rest] = out;
  return first ? fc.oneof(first, ...rest) : undefined;
}

/** Invalid bodies of POST /marketing/datastore/schemas (400 or 422, conformance.md §3). */
export function invalidCreateSchemaRequestArb(
  constraints?: InvalidBodyConstraints,
): fc.Arbitrary<InvalidBodyCase> {
  return invalidBodyArb("createSchema", constraints);
}

/** Invalid bodies of the push to all user devices (always 400, conformance.md §3). */
export function invalidUserPublishRequestArb(
  constraints?: InvalidBodyConstraints,
): fc.Arbitrary<InvalidBodyCase> {
  return invalidBodyArb("pushToUserDevices", constraints);
}

/** Invalid bodies of the clustering rules update (always 422, conformance.md §3). */
export function invalidClusteringRulesArb(
  constraints?: InvalidBodyConstraints,
): fc.Arbitrary<InvalidBodyCase> {
  return invalidBodyArb("updateClusteringRules", constraints);
}
