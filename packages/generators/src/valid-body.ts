import {
  BOUND_PATH_NAMES,
  type ClusteringRules,
  type ContractProfile,
  type CreateSchemaRequest,
  type DetailedOperationId,
  defaultProfile,
  operationOfBound,
  requestShapeFor,
  type UserPublishRequest,
  VALUES_IN_USE_KEYS,
} from "@idp/contracts";
import fc from "fast-check";
import { fitBounds, fitBoundsAt, fitBytes, hasBoundsFor } from "./_internal/fit.ts";
import { locate, picksArb, setAt } from "./_internal/locate.ts";
import { collectSlots } from "./_internal/slots.ts";
import { valuesInUseFor } from "./_internal/spec-values.ts";
import { textUnitArb, UNICODE_CATEGORIES } from "./_internal/stress-text.ts";
import { heavyText } from "./_internal/unit-text.ts";
import { GeneratorError } from "./errors.ts";
import { zodArbitrary } from "./zod-arbitrary.ts";

/** Constraints of the valid-body arbitraries. */
export interface ValidBodyConstraints {
  /** Most elements of every array and keys of every map (fields, features, labels, keywords...). @defaultValue 10 */
  readonly maxLength?: number;
  /** fast-check size hint of arrays and maps; `"large"` gives many features and labels. @defaultValue fast-check's default */
  readonly size?: fc.SizeForArbitrary;
  /** Whose shapes define "valid". @defaultValue `defaultProfile` */
  readonly profile?: ContractProfile;
}

/**
 * Request bodies of a detailed operation that are valid per conformance.md §2, derived from the
 * profile's contract with the profile's values in use (`valuesInUse`: field `type`, classifier
 * `type`; by default the spec's) and a `threshold` of 0, 1 or a fraction, within the profile's
 * `bounds` (§6; none by default).
 */
export function validBodyArb(
  operation: DetailedOperationId,
  constraints: ValidBodyConstraints = {},
): fc.Arbitrary<unknown> {
  const profile = constraints.profile ?? defaultProfile;
  const arb = zodArbitrary(requestShapeFor(profile, operation), {
    overrides: valuesInUseFor(operation, profile),
    ...(constraints.maxLength === undefined ? {} : { maxLength: constraints.maxLength }),
    ...(constraints.size === undefined ? {} : { size: constraints.size }),
  });
  return withinBounds(operation, arb, profile);
}

/**
 * Bodies brought within the profile's bounds (a map, so shrinking is unchanged); one in three, when
 * the operation has string bounds, with one string exactly at its bound's `maxLength`, of the
 * characters heaviest in the other units (astral ones at a code-point bound, CJK ones at a UTF-16
 * bound): a provider that counts another unit than the profile's refuses it.
 */
function withinBounds(
  operation: DetailedOperationId,
  arb: fc.Arbitrary<unknown>,
  profile: ContractProfile,
): fc.Arbitrary<unknown> {
  if (!hasBoundsFor(operation, profile.bounds)) return arb;
  const fitted = (b: unknown) => fitBounds(operation, b, profile.bounds);
  const edges = atStringBounds(operation, profile);
  if (edges === undefined) return arb.map(fitted);
  return fc
    .tuple(
      arb,
      fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: edges }),
    )
    .map(([b, edge]) => (edge ? edge(fitted(b)) : fitted(b)));
}

/** One string at its bound's maxLength, at one place of its path (created if need be). */
function atStringBounds(
  operation: DetailedOperationId,
  profile: ContractProfile,
): fc.Arbitrary<(body: unknown) => unknown> | undefined {
  const slots = collectSlots(requestShapeFor(profile, operation));
  const overrides = valuesInUseFor(operation, profile);
  const fit = (pattern: string, v: unknown) => fitBoundsAt(pattern, v, profile.bounds);
  const edges: fc.Arbitrary<(body: unknown) => unknown>[] = [];
  for (const key of BOUND_PATH_NAMES) {
    const bound = profile.bounds[key];
    if (bound?.maxLength === undefined || operationOfBound(key) !== operation) continue;
    // A value in use stays one: it is never lengthened.
    if ((VALUES_IN_USE_KEYS as readonly string[]).includes(key)) continue;
    const slot = slots.find((s) => s.pattern === key);
    if (!slot) continue;
    const { maxLength, unit = "codePoints" } = bound;
    edges.push(
      fc
        .tuple(picksArb(slots, slot, overrides, false, 2, fit), fc.nat({ max: 7 }))
        .map(([picks, pick]) => (body: unknown) => {
          const b = body as Record<string, unknown>;
          // Containers filled on the way are fitted first, then the place is found again.
          const filled = fitBounds(operation, locate(b, slot, picks).body, profile.bounds);
          const at = locate(filled as typeof b, slot, picks);
          setAt(at.parent, at.key, heavyText(maxLength, unit, pick));
          return fitBounds(operation, at.body, profile.bounds, key);
        }),
    );
  }
  const [first, ...rest] = edges;
  return first ? fc.oneof(first, ...rest) : undefined;
}

/** Constraints of {@link largeValidBodyArb}. */
export interface LargeBodyConstraints {
  /** Largest body in UTF-8 bytes; long strings and long arrays are cut to fit. @defaultValue 1_048_576 (1 MiB) */
  readonly maxBodyBytes?: number;
  /** Longest generated string, in code points (map keys: a quarter of it). @defaultValue 2048 */
  readonly maxStringLength?: number;
  /** Whose shapes, values in use and bounds define "valid". @defaultValue `defaultProfile` */
  readonly profile?: ContractProfile;
}

/** The defaults of {@link LargeBodyConstraints}. */
export const LARGE_BODY_DEFAULTS = { maxBodyBytes: 1_048_576, maxStringLength: 2048 } as const;

/**
 * A string of exactly `length` code points (uniform in [0, max]), cycling 1-4 code points that are
 * mostly ASCII: shrinking the length alone finds the shortest string that still fails.
 */
function longStringArb(max: number): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.integer({ min: 0, max }),
      fc.array(textUnitArb(UNICODE_CATEGORIES, { ascii: 24 }), { minLength: 1, maxLength: 4 }),
    )
    .map(([length, units]) => {
      const cps = units.map((u) => String.fromCodePoint(u.cp));
      // The whole cycles at once: a large body has dozens of strings of thousands of code points.
      return (
        cps.join("").repeat(Math.floor(length / cps.length)) +
        cps.slice(0, length % cps.length).join("")
      );
    });
}

// Many items: how many elements or keys a container at each nesting depth may get (depth 0:
// fields, features, the parameters' excluded words; 1: labels, categories; 2: keywords), so that
// the largest rules stay near 13,000 strings before they are fitted to the byte budget (a large body costs milliseconds to generate, and R4 sends one in ten).
const MANY_ITEMS_BY_DEPTH = [96, 8, 16] as const;
const depthOf = (pattern: string) => (pattern.match(/\[\]|\*/g) ?? []).length;

/**
 * Valid bodies at the large end (conformance.md §2 sets no bounds): half with long strings in
 * every string field and map key (up to `maxStringLength` code points, map keys a quarter of it:
 * 512 by default), half with many fields, features, labels, keywords and array items; each cut to
 * fit `maxBodyBytes` and within the profile's bounds. Shrinking reaches the smallest size that
 * still fails.
 * @throws GeneratorError `E_USAGE` when a constraint is out of its domain.
 */
export function largeValidBodyArb(
  operation: DetailedOperationId,
  constraints: LargeBodyConstraints = {},
): fc.Arbitrary<unknown> {
  const profile = constraints.profile ?? defaultProfile;
  const maxBodyBytes = constraints.maxBodyBytes ?? LARGE_BODY_DEFAULTS.maxBodyBytes;
  const maxString = constraints.maxStringLength ?? LARGE_BODY_DEFAULTS.maxStringLength;
  for (const [name, value, min] of [
    ["maxBodyBytes", maxBodyBytes, 1024],
    ["maxStringLength", maxString, 1],
  ] as const)
    if (!Number.isSafeInteger(value) || value < min)
      throw new GeneratorError(
        "E_USAGE",
        `largeValidBodyArb: ${name} must be a whole number >= ${min} (received ${value})`,
      );
  const shape = requestShapeFor(profile, operation);
  const overrides = valuesInUseFor(operation, profile);
  const longStrings = zodArbitrary(shape, {
    overrides,
    maxLength: 4,
    string: longStringArb(maxString),
    key: longStringArb(Math.max(1, Math.floor(maxString / 4))),
  });
  const manyItems = zodArbitrary(shape, {
    overrides,
    size: "max",
    maxLengthAt: (pattern) => MANY_ITEMS_BY_DEPTH[Math.min(depthOf(pattern), 2)],
  });
  // Without bias: fast-check's bias draws lengths near 0 most of the time, and sizes are the point.
  return withinBounds(
    operation,
    fc.noBias(fc.oneof(longStrings, manyItems)).map((b) => fitBytes(b, maxBodyBytes)),
    profile,
  );
}

/** Valid bodies of POST /marketing/datastore/schemas. */
export function createSchemaRequestArb(
  constraints?: ValidBodyConstraints,
): fc.Arbitrary<CreateSchemaRequest> {
  return validBodyArb("createSchema", constraints) as fc.Arbitrary<CreateSchemaRequest>;
}

/** Valid bodies of POST /marketing/push_notifications/login/users/{id}/publish. */
export function userPublishRequestArb(
  constraints?: ValidBodyConstraints,
): fc.Arbitrary<UserPublishRequest> {
  return validBodyArb("pushToUserDevices", constraints) as fc.Arbitrary<UserPublishRequest>;
}

/** Valid bodies of PUT /marketing/login/apps/clustering/rules. */
export function clusteringRulesArb(
  constraints?: ValidBodyConstraints,
): fc.Arbitrary<ClusteringRules> {
  return validBodyArb("updateClusteringRules", constraints) as fc.Arbitrary<ClusteringRules>;
}
