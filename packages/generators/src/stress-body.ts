import {
  type ClientErrorStatus,
  type ContractProfile,
  type DetailedOperationId,
  defaultProfile,
  formatPath,
  requestShapeFor,
  type ViolationKind,
} from "@idp/contracts";
import fc from "fast-check";
import { cloneJson } from "./_internal/clone.ts";
import { fitBoundsAt } from "./_internal/fit.ts";
import {
  HOLE,
  MEMBERS,
  type MembersAt,
  utf8Bytes,
  writeAroundHole,
} from "./_internal/json-text.ts";
import { safeKey } from "./_internal/json-values.ts";
import { type Json, locate, picksArb, setAt } from "./_internal/locate.ts";
import { formatPattern } from "./_internal/patterns.ts";
import { collectSlots, type Slot } from "./_internal/slots.ts";
import { VALUES_IN_USE } from "./_internal/spec-values.ts";
import {
  anyScalarText,
  arrayText,
  escapeUnit,
  membersText,
  type NestingParams,
  nestingText,
  numberTextArb,
  type Pieces,
  type StressText,
  sizeArb,
  stringText,
  type TextUnit,
  textUnitArb,
  UNICODE_CATEGORIES,
} from "./_internal/stress-text.ts";
import { defOf, numberDomain } from "./_internal/zod-def.ts";
import { GeneratorError } from "./errors.ts";
import { validBodyArb } from "./valid-body.ts";
import { zodArbitrary } from "./zod-arbitrary.ts";

/** The kinds of structural stress, in the order `idp-gen --help` lists them. */
export const STRESS_KINDS = [
  "deep-nesting",
  "long-string",
  "many-keys",
  "large-array",
  "extreme-number",
  "unicode",
] as const;
/** One kind of structural stress (`deep-nesting`, `long-string`, `many-keys`, `large-array`, `extreme-number`, `unicode`). */
export type StressKind = (typeof STRESS_KINDS)[number];

/** Where the stress sits: under a key the tables do not name, or as the value of a tabulated one. */
export type StressPlace = "unknown-key" | "tabulated-field";

/** What a conforming provider must do with the body, under the profile it was built for. */
export type StressExpectation =
  | { readonly outcome: "valid" }
  | {
      readonly outcome: "invalid";
      readonly status: ClientErrorStatus;
      readonly violation: ViolationKind;
    };

/** A request body under structural stress, as the exact text to send, with its expected outcome. */
export interface StressBodyCase {
  /** The body to send, byte for byte (UTF-8): never re-serialise it (that loses -0, 1e400, escapes). */
  readonly text: string;
  /**
   * The same text in pieces, in order (a piece may be the very same string several times): write
   * them one after another to send the body without building one string of up to 1 MiB. `text` is
   * joined from them when first read.
   */
  readonly pieces: readonly string[];
  /** Its length in UTF-8 bytes. */
  readonly bytes: number;
  readonly kind: StressKind;
  readonly place: StressPlace;
  /**
   * Where the stress is: the unknown key (the first one, for many keys) or the tabulated field
   * whose value it replaced, e.g. `["schema", "fields", 0, "name"]`.
   */
  readonly path: readonly (string | number)[];
  /** Known by construction; R4 for `valid`, R5 (the profile's status) for `invalid`. */
  readonly expected: StressExpectation;
  /** The size parameter: depth, code points, keys, elements or the number's length in characters. */
  readonly size: number;
  /** One line: what, where, and the expected outcome. */
  readonly description: string;
}

/** Bounds of the stress; every one shrinks toward 1. */
export interface StressConstraints {
  /** Deepest nesting. @defaultValue 10_000 */
  readonly maxDepth?: number;
  /** Longest string in code points, and the most digits of a number. @defaultValue 100_000 */
  readonly maxStringLength?: number;
  /** Most keys of one object. @defaultValue 10_000 */
  readonly maxKeys?: number;
  /** Most elements of one array. @defaultValue 100_000 */
  readonly maxArrayLength?: number;
  /** Largest body in UTF-8 bytes; sizes are cut to fit. At least 65_536. @defaultValue 1_048_576 (1 MiB) */
  readonly maxBodyBytes?: number;
  /** Which kinds to produce. @defaultValue all of {@link STRESS_KINDS} */
  readonly kinds?: readonly StressKind[];
  /** Whose shapes, status mapping and bounds decide the expected outcome. @defaultValue `defaultProfile` */
  readonly profile?: ContractProfile;
  /** Only bodies whose expected outcome is `valid` (what R4 holds to a success). @defaultValue false */
  readonly onlyValid?: boolean;
}

/** The defaults of {@link StressConstraints}. */
export const STRESS_DEFAULTS = {
  maxDepth: 10_000,
  maxStringLength: 100_000,
  maxKeys: 10_000,
  maxArrayLength: 100_000,
  maxBodyBytes: 1_048_576,
} as const;

/** The smallest `maxBodyBytes`: room for a generated base body and some stress. */
export const MIN_STRESS_BODY_BYTES = 65_536;

// The base body is small on purpose: the stress is the point, and it leaves the byte budget free.
const BASE_MAX_LENGTH = 2;
// Bytes kept free beyond every exact count (a key lengthened to avoid a tabulated name).
const RESERVE = 256;

type Limits = Required<Omit<StressConstraints, "profile" | "kinds" | "onlyValid">>;
type Expect = "valid" | ViolationKind;

/**
 * Request bodies of a detailed operation under structural stress (deep nesting, long strings,
 * many keys, large arrays, extreme numbers, unusual Unicode), placed in unknown keys and in
 * tabulated fields, each at most `maxBodyBytes` of UTF-8 and carrying what a conforming provider
 * must answer under the profile. Sizes shrink toward 1; no sample is rejected (no `filter`).
 * @throws GeneratorError `E_USAGE` when a constraint is out of its domain.
 */
export function stressBodyArb(
  operation: DetailedOperationId,
  constraints: StressConstraints = {},
): fc.Arbitrary<StressBodyCase> {
  const limits = checkLimits(constraints);
  const kinds = checkKinds(constraints.kinds);
  const profile = constraints.profile ?? defaultProfile;
  const shape = requestShapeFor(profile, operation);
  const slots = collectSlots(shape);
  const overrides = VALUES_IN_USE[operation];
  const fit = (pattern: string, v: unknown) => fitBoundsAt(pattern, v, profile.bounds);
  const base = validBodyArb(operation, {
    profile,
    maxLength: BASE_MAX_LENGTH,
  }) as fc.Arbitrary<Record<string, unknown>>;
  const status = (violation: ViolationKind) => profile.statusMapping[operation][violation];
  const expectation = (e: Expect): StressExpectation =>
    e === "valid" ? { outcome: "valid" } : { outcome: "invalid", status: status(e), violation: e };
  const describe = (e: StressExpectation) =>
    e.outcome === "valid" ? "valid" : `${e.status} ${e.violation}`;
  // `bytes` is counted from the parts (the text around the hole, the key, the stress part): a
  // stressed body is up to 1 MiB, and reading it again to count it cost as much as building it.
  const finish = (
    kind: StressKind,
    place: StressPlace,
    pieces: Pieces,
    bytes: number,
    path: readonly (string | number)[],
    expected: StressExpectation,
    stress: StressText,
    where: string,
  ): StressBodyCase => {
    if (bytes > limits.maxBodyBytes)
      throw new Error(
        `stressBodyArb: a ${kind} body of ${bytes} bytes exceeds maxBodyBytes ${limits.maxBodyBytes} (a bug)`,
      );
    let text: string | undefined;
    return {
      get text() {
        text ??= pieces.join("");
        return text;
      },
      pieces,
      bytes,
      kind,
      place,
      path,
      expected,
      size: stress.size,
      description: `${stress.what} ${where}: ${describe(expected)}`,
    };
  };
  const freshOf = (slot: Slot | undefined) =>
    slot
      ? zodArbitrary(slot.schema, { overrides, maxLength: BASE_MAX_LENGTH, at: slot.segments })
      : fc.constant(null);
  const childOf = (slot: Slot, segment: "element" | "value") =>
    slots.find((s) => s.pattern === formatPattern([...slot.segments, { kind: segment }]));

  // ---- unknown keys -------------------------------------------------------------------------
  const unknownOutcome = expectation(profile.asserted.has("unknown-key") ? "unknown-key" : "valid");
  const containers: { slot: Slot | undefined; known: Set<string> }[] = [
    { slot: undefined, known: keysOf(shape) },
    ...slots
      .filter((s) => defOf(s.schema).type === "object")
      .map((slot) => ({ slot, known: keysOf(slot.schema) })),
  ];
  const unknownKeyArb = (kind: StressKind): fc.Arbitrary<StressBodyCase> =>
    fc.oneof(
      ...containers.map(({ slot, known }) =>
        fc
          .tuple(
            base,
            slot ? picksArb(slots, slot, overrides, true, BASE_MAX_LENGTH, fit) : fc.constant([]),
            keyUnitsArb(kind),
            fc.constantFrom<MembersAt>("last", "first"),
            valueParamsArb(kind, limits, "unknown-key", undefined),
          )
          .map(([b, picks, keyUnits, at, params]) => {
            // A slot's locate copies the body itself.
            let body: Record<string, unknown> = slot ? b : cloneJson(b);
            let target = body;
            let containerPath: (string | number)[] = [];
            if (slot) {
              const found = locate(b, slot, picks);
              body = found.body;
              target = (found.parent as Record<string | number, unknown>)[found.key] as Record<
                string,
                unknown
              >;
              containerPath = found.path;
            }
            const key = unknownKey(keyUnits, known);
            (target as { [MEMBERS]?: MembersAt })[MEMBERS] = at;
            const { before, after } = writeAroundHole(body);
            const around = utf8Bytes(before) + utf8Bytes(after);
            const budget = limits.maxBodyBytes - around - RESERVE;
            const container = containerPath.length === 0 ? "the body" : formatPath(containerPath);
            if (kind === "many-keys") {
              const p = params as ManyKeysParams;
              const stress = membersText(key.value, p.values, p.count, budget, known);
              return finish(
                kind,
                "unknown-key",
                [before, ...stress.pieces, after],
                around + stress.bytes,
                [...containerPath, stress.firstKey],
                unknownOutcome,
                stress,
                `named ${JSON.stringify(`${key.value}0`)}... (unknown keys) in ${container}`,
              );
            }
            const keyBytes = utf8Bytes(key.text) + 1;
            const stress = buildValue(kind, params, budget - keyBytes);
            return finish(
              kind,
              "unknown-key",
              [`${before}${key.text}:`, ...stress.pieces, after],
              around + keyBytes + stress.bytes,
              [...containerPath, key.value],
              unknownOutcome,
              stress,
              `in unknown key ${JSON.stringify(key.value)} of ${container}`,
            );
          }),
      ),
    );

  // ---- tabulated fields ---------------------------------------------------------------------
  const tabulatedArb = (kind: StressKind): fc.Arbitrary<StressBodyCase> | undefined => {
    const arbs: fc.Arbitrary<StressBodyCase>[] = [];
    for (const slot of slots) {
      const plan = tabulatedPlan(kind, slot, overrides, profile);
      if (plan === undefined) continue;
      // A place with a bound at or below it (§6) is valid only within the bound: no valid stress.
      if ((plan === "valid" || plan === "by-number") && boundedAt(slot.pattern, profile)) continue;
      if (constraints.onlyValid && plan !== "valid") continue;
      const pool =
        kind === "large-array" && slot.expected === "array"
          ? freshOf(childOf(slot, "element"))
          : kind === "many-keys" && defOf(slot.schema).type === "record"
            ? freshOf(childOf(slot, "value"))
            : undefined;
      arbs.push(
        fc
          .tuple(
            base,
            picksArb(slots, slot, overrides, false, BASE_MAX_LENGTH, fit),
            valueParamsArb(kind, limits, "tabulated-field", { slot, pool }),
          )
          .map(([b, picks, params]) => {
            const { body, parent, key, path } = locate(b, slot, picks);
            setAt(parent as Json, key, HOLE);
            const { before, after } = writeAroundHole(body);
            const around = utf8Bytes(before) + utf8Bytes(after);
            const stress = buildValue(kind, params, limits.maxBodyBytes - around - RESERVE);
            const outcome: Expect =
              plan === "by-number" ? (stress.integral ? "valid" : "wrong-type") : plan;
            return finish(
              kind,
              "tabulated-field",
              [before, ...stress.pieces, after],
              around + stress.bytes,
              path,
              expectation(outcome),
              stress,
              `at ${formatPath(path)} (${slot.expected})`,
            );
          }),
      );
    }
    const [first, ...rest] = arbs;
    return first ? fc.oneof(first, ...rest) : undefined;
  };

  const unknownToo = !constraints.onlyValid || unknownOutcome.outcome === "valid";
  const perKind = kinds.flatMap((kind) => {
    const tabulated = tabulatedArb(kind);
    const unknown = unknownToo ? unknownKeyArb(kind) : undefined;
    return tabulated && unknown
      ? [fc.oneof(unknown, tabulated)]
      : [tabulated ?? unknown].filter((a) => a !== undefined);
  });
  const [first, ...rest] = perKind;
  if (!first)
    throw new GeneratorError(
      "E_USAGE",
      `stressBodyArb: no stressed ${operation} body of kinds ${kinds.join(", ")} is valid under profile "${profile.name}"`,
    );
  return fc.oneof(first, ...rest);
}

// ---- constraints ----------------------------------------------------------------------------

function checkLimits(c: StressConstraints): Limits {
  const limits = { ...STRESS_DEFAULTS };
  for (const name of Object.keys(STRESS_DEFAULTS) as (keyof Limits)[]) {
    const value = c[name];
    if (value === undefined) continue;
    const min = name === "maxBodyBytes" ? MIN_STRESS_BODY_BYTES : 1;
    if (!Number.isSafeInteger(value) || value < min)
      throw new GeneratorError(
        "E_USAGE",
        `stressBodyArb: ${name} must be a whole number >= ${min} (received ${value})`,
      );
    (limits as Record<keyof Limits, number>)[name] = value;
  }
  return limits;
}

function checkKinds(kinds: readonly StressKind[] | undefined): readonly StressKind[] {
  if (kinds === undefined) return STRESS_KINDS;
  const unknown = kinds.find((k) => !(STRESS_KINDS as readonly string[]).includes(k));
  if (kinds.length === 0 || unknown !== undefined)
    throw new GeneratorError(
      "E_USAGE",
      `stressBodyArb: kinds must be a non-empty list of ${STRESS_KINDS.join(", ")} (received ${JSON.stringify(kinds)})`,
    );
  return [...new Set(kinds)];
}

// ---- what goes where ------------------------------------------------------------------------

const keysOf = (schema: Slot["schema"]) =>
  new Set(Object.keys((defOf(schema).shape ?? {}) as object));

/**
 * What a stress of `kind` as the value of `slot` is, decided from the slot's type alone (or, for
 * numbers in an integer field, by the number's class); `undefined` where the outcome would be
 * neither valid nor a violation the profile asserts, or would need a value in use.
 */
function tabulatedPlan(
  kind: StressKind,
  slot: Slot,
  overrides: Readonly<Record<string, unknown>>,
  profile: ContractProfile,
): Expect | "by-number" | undefined {
  const def = defOf(slot.schema);
  const wrapper = slot.segments.length === 1;
  const wrong: ViolationKind = wrapper ? "wrapper-not-object" : "wrong-type";
  const asserted = (v: Expect) => (v === "valid" || profile.asserted.has(v) ? v : undefined);
  const unchecked = ((def.checks as unknown[] | undefined) ?? []).length === 0;
  const inUse = Object.hasOwn(overrides, slot.pattern);
  const t = slot.expected;
  switch (kind) {
    case "deep-nesting": // the outermost level is never the slot's type (see valueParamsArb)
      return asserted(wrong);
    case "long-string":
    case "unicode":
      if (t !== "string") return asserted(wrong);
      return def.type === "string" && unchecked && !inUse ? "valid" : undefined;
    case "many-keys":
      if (t !== "object") return asserted(wrong);
      return def.type === "record" && unchecked && !wrapper ? "valid" : undefined;
    case "large-array":
      if (t !== "array") return asserted(wrong);
      return unchecked ? "valid" : undefined;
    case "extreme-number": {
      if (t !== "integer" && t !== "number") return asserted(wrong);
      const { min, max } = numberDomain(slot.schema, slot.pattern);
      if (inUse || min !== undefined || max !== undefined) return undefined;
      if (t === "number") return "valid";
      return profile.asserted.has("wrong-type") ? "by-number" : undefined;
    }
  }
}

/** Whether the profile pins a bound at the pattern or anywhere inside what is there. */
function boundedAt(pattern: string, profile: ContractProfile): boolean {
  return Object.keys(profile.bounds).some(
    (k) => k === pattern || k.startsWith(`${pattern}[]`) || k.startsWith(`${pattern}.`),
  );
}

// ---- the stress values ----------------------------------------------------------------------

interface ManyKeysParams {
  readonly count: number;
  readonly values: readonly string[];
}
type Params =
  | NestingParams
  | { readonly units: readonly TextUnit[]; readonly length: number }
  | ManyKeysParams
  | { readonly length: number; readonly elements: readonly string[] }
  | StressText;

const unitsArb = (maxLength: number, weights: Partial<Record<string, number>> = {}) =>
  fc.array(textUnitArb(UNICODE_CATEGORIES, weights), { minLength: 1, maxLength });

/** Names of unknown keys: mostly ASCII; all-unusual for the unicode kind. */
function keyUnitsArb(kind: StressKind): fc.Arbitrary<readonly TextUnit[]> {
  return kind === "unicode" ? unitsArb(16) : unitsArb(8, { ascii: 12 });
}

/** A key from units, lengthened with `_` until no tabulated key has its name. */
function unknownKey(
  units: readonly TextUnit[],
  known: ReadonlySet<string>,
): { value: string; text: string } {
  let value = String.fromCodePoint(...units.map((u) => u.cp));
  let text = `"${units.map(escapeUnit).join("")}"`;
  // `__proto__` would be a prototype setter, not a key, in many readers' objects.
  while (known.has(value) || safeKey(value) !== value) {
    value += "_";
    text = `${text.slice(0, -1)}_"`;
  }
  return { value, text };
}

function valueParamsArb(
  kind: StressKind,
  limits: Limits,
  place: StressPlace,
  at: { slot: Slot; pool: fc.Arbitrary<unknown> | undefined } | undefined,
): fc.Arbitrary<Params> {
  const t = at?.slot.expected;
  const validPool = (pool: fc.Arbitrary<unknown>) =>
    fc.array(
      pool.map((v) => JSON.stringify(v)),
      { minLength: 1, maxLength: 3 },
    );
  const anyPool = fc.array(anyScalarText, { minLength: 1, maxLength: 4 });
  switch (kind) {
    case "deep-nesting":
      return fc.record({
        depth: sizeArb(limits.maxDepth),
        // never the slot's own type at the outermost level: an array where an object belongs...
        outer:
          t === "array"
            ? fc.constant("object" as const)
            : t === "object"
              ? fc.constant("array" as const)
              : fc.constantFrom("array" as const, "object" as const),
        alternate: fc.boolean(),
        key: fc.string({ maxLength: 3 }).map((k) => JSON.stringify(k)),
        inner: fc.constantFrom("null", "0", '""', "true"),
      });
    case "long-string":
      return fc.record({
        units: unitsArb(16, { ascii: 12 }),
        length: sizeArb(limits.maxStringLength),
      });
    case "unicode":
      return unitsArb(Math.min(64, limits.maxStringLength)).map((units) => ({
        units,
        length: units.length,
      }));
    case "many-keys":
      return fc.record({
        count: sizeArb(limits.maxKeys),
        values: at?.pool ? validPool(at.pool) : anyPool,
      });
    case "large-array":
      return fc.record({
        length: sizeArb(limits.maxArrayLength),
        elements: at?.pool ? validPool(at.pool) : anyPool,
      });
    case "extreme-number":
      return numberTextArb(place === "tabulated-field", limits.maxStringLength);
  }
}

/** The JSON text of a stress value within `budget` bytes (sizes are cut to fit). */
function buildValue(kind: StressKind, params: Params, budget: number): StressText {
  switch (kind) {
    case "deep-nesting":
      return nestingText(params as NestingParams, budget);
    case "long-string":
    case "unicode": {
      const p = params as { units: readonly TextUnit[]; length: number };
      return stringText(p.units, p.length, budget);
    }
    case "many-keys": {
      const p = params as ManyKeysParams;
      const members = membersText("k", p.values, p.count, budget - 2);
      return { ...members, pieces: ["{", ...members.pieces, "}"], bytes: members.bytes + 2 };
    }
    case "large-array": {
      const p = params as { length: number; elements: readonly string[] };
      return arrayText(p.elements, p.length, budget);
    }
    case "extreme-number": {
      // Only an integer literal can be longer than a budget; any prefix of two or more of its
      // characters is still an integer literal.
      const p = params as StressText;
      if (p.bytes <= budget) return p;
      const text = p.pieces.join("").slice(0, Math.max(2, budget));
      return {
        ...p,
        pieces: [text],
        bytes: text.length,
        size: text.length,
        what: `an integer of ${text.replace("-", "").length} digits`,
      };
    }
  }
}
