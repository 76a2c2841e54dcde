import {
  BOUND_PATH_NAMES,
  BOUND_PATHS,
  type BodyViolationKind,
  type BoundPath,
  type ContractProfile,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  formatPath,
  lengthIn,
  operationOfBound,
  requestShapeFor,
  UNIT_WORDS,
  type ViolationKind,
} from "@idp/contracts";
import fc from "fast-check";
import type { z } from "zod";
import { cloneJson } from "./_internal/clone.ts";
import { fitBounds, fitBoundsAt, prefixIn } from "./_internal/fit.ts";
import {
  anyKey,
  anyString,
  describeJsonType,
  nonObjectValue,
  wrongTypeValue,
} from "./_internal/json-values.ts";
import { locate, picksArb, setAt } from "./_internal/locate.ts";
import { collectSlots, type Slot } from "./_internal/slots.ts";
import { VALUES_IN_USE, valuesInUseFor } from "./_internal/spec-values.ts";
import { codePointBoundary } from "./_internal/unicode.ts";
import { lightText } from "./_internal/unit-text.ts";
import { defOf, numberDomain } from "./_internal/zod-def.ts";
import { GeneratorError } from "./errors.ts";
import { validBodyArb } from "./valid-body.ts";
import { zodArbitrary } from "./zod-arbitrary.ts";

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
  /** The violation, or `out-of-bounds` for a value past a bound the profile pins (§6). */
  kind: BodyViolationKind;
  /** Where the rule is broken; `[]` for the whole body. */
  path: readonly (string | number)[];
  /** For `out-of-bounds`: the profile key of the bound, e.g. `bounds.schema.name`. */
  bound?: `bounds.${BoundPath}`;
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
  const fit = (pattern: string, v: unknown) => fitBoundsAt(pattern, v, profile.bounds);
  const picksFor = (slot: Slot, freshAtLast = false) =>
    picksArb(slots, slot, VALUES_IN_USE[operation], freshAtLast, BASE_MAX_LENGTH, fit);
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
            // A slot's locate copies the body itself.
            let body: Record<string, unknown> = root ? cloneJson(b) : b;
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
  // A bound the profile pins: the value at one place of its path goes just past it (shrinking
  // toward exactly one past), everything else stays within every other bound.
  for (const key of BOUND_PATH_NAMES) {
    const bound = profile.bounds[key];
    if (!bound || operationOfBound(key) !== operation) continue;
    const slot = slots.find((s) => s.pattern === key);
    if (!slot) continue;
    const child = slots.find(
      (s) => s.segments.length === slot.segments.length + 1 && s.pattern.startsWith(key),
    );
    const over = overBoundArb(key, bound, child, valuesInUseFor(operation, profile));
    cases.push(
      fc.tuple(base, picksFor(slot), over).map(([b, picks, make]) => {
        // Fresh values put in empty containers on the way are fitted first, then the place is
        // found again (an index past a fitted array's end wraps around).
        const filled = fitBounds(operation, locate(b, slot, picks).body, profile.bounds);
        const { body, parent, key: at, path } = locate(filled as typeof b, slot, picks);
        const current = (parent as Record<string | number, unknown>)[at];
        const { value, what } = make(current);
        setAt(parent, at, value);
        return {
          body: fitBounds(operation, body, profile.bounds, key),
          raw: false,
          expectedStatus: bound.status,
          violation: `${formatPath(path)}: ${what}`,
          kind: "out-of-bounds" as const,
          path,
          bound: `bounds.${key}` as const,
        };
      }),
    );
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

type OverBound = (current: unknown) => { value: unknown; what: string };

/**
 * Makes the value at a bound's path go past it by `extra` + 1 (`extra` shrinks to 0): a longer
 * string in the bound's unit (the current one's characters repeated, or the characters lightest in
 * the other units: astral ones past a UTF-16 bound, multi-byte ones past a byte bound), more items
 * or keys (copies of the current ones, or fresh valid ones), or a number beyond the minimum or
 * maximum.
 */
function overBoundArb(
  key: BoundPath,
  bound: NonNullable<ContractProfile["bounds"][BoundPath]>,
  child: Slot | undefined,
  overrides: Readonly<Record<string, fc.Arbitrary<unknown>>>,
): fc.Arbitrary<OverBound> {
  const extra = fc.nat({ max: 3 });
  const kind = BOUND_PATHS[key];
  if (kind === "string" && bound.maxLength !== undefined) {
    const n = bound.maxLength;
    const unit = bound.unit ?? "codePoints";
    const what = (e: number) =>
      `${n + 1 + e} ${UNIT_WORDS[unit]}, past the profile's maxLength ${n}`;
    const repeated = fc.tuple(extra, anyString).map(([e, filler]) => (current: unknown) => {
      const seed = [...`${typeof current === "string" ? current : ""}${filler}`];
      const units = seed.length > 0 ? seed : ["x"];
      const target = n + 1 + e;
      let text = "";
      for (let i = 0, used = 0; used < target; i++) {
        const ch = units[i % units.length] as string;
        text += ch;
        used += lengthIn(ch, unit);
      }
      // The last character may overshoot (an astral one past a UTF-16 bound): cut, then pad.
      text = prefixIn(text, target, unit);
      return { value: text + "x".repeat(target - lengthIn(text, unit)), what: what(e) };
    });
    const light = fc.tuple(extra, fc.nat({ max: 7 })).map(([e, pick]) => () => ({
      value: lightText(n + 1 + e, unit, pick),
      what: what(e),
    }));
    return unit === "codePoints" ? repeated : fc.oneof(repeated, light);
  }
  if ((kind === "array" || kind === "map") && bound.maxItems !== undefined) {
    const n = bound.maxItems;
    const fresh = child
      ? zodArbitrary(child.schema, { overrides, maxLength: 2, at: child.segments })
      : fc.constant(null);
    return fc.tuple(extra, fresh).map(([e, item]) => (current: unknown) => {
      const count = n + 1 + e;
      if (kind === "array") {
        const have = Array.isArray(current) && current.length > 0 ? current : [item];
        return {
          value: Array.from({ length: count }, (_, i) => cloneJson(have[i % have.length])),
          what: `${count} items, past the profile's maxItems ${n}`,
        };
      }
      const entries = Object.entries((current ?? {}) as Record<string, unknown>);
      const have = entries.length > 0 ? entries : [["k", item] as [string, unknown]];
      const out: Record<string, unknown> = {};
      for (let i = 0; Object.keys(out).length < count; i++) {
        const [k, v] = have[i % have.length] as [string, unknown];
        const name = i < have.length ? k : `${k}~${i}`;
        if (!Object.hasOwn(out, name)) out[name] = cloneJson(v);
      }
      return { value: out, what: `${count} keys, past the profile's maxItems ${n}` };
    });
  }
  const step = kind === "integer" ? fc.integer({ min: 1, max: 4 }) : fc.constantFrom(0.5, 1, 0.001);
  const sides: fc.Arbitrary<OverBound>[] = [];
  const { minimum, maximum } = bound;
  if (maximum !== undefined)
    sides.push(
      step.map((d) => () => {
        const v =
          kind === "integer"
            ? Math.floor(maximum) + d
            : maximum + Math.max(d, Math.abs(maximum) * 1e-9);
        return { value: v, what: `${v}, past the profile's maximum ${maximum}` };
      }),
    );
  if (minimum !== undefined)
    sides.push(
      step.map((d) => () => {
        const v =
          kind === "integer"
            ? Math.ceil(minimum) - d
            : minimum - Math.max(d, Math.abs(minimum) * 1e-9);
        return { value: v, what: `${v}, past the profile's minimum ${minimum}` };
      }),
    );
  const [first, ...rest] = sides;
  if (!first) throw new Error(`overBoundArb: bound ${key} has no limit for a ${kind}`);
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
