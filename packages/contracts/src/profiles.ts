import type { z } from "zod";
import type { BoundPath, Bounds } from "./bounds.ts";
import { type ErrorsItemKind, errorBodyShape, SPEC_ERRORS_ITEMS } from "./error-items.ts";
import { type NeighbourName, type Neighbours, PINNED_NEIGHBOURS } from "./neighbours.ts";
import { type DetailedOperationId, detailedOperations } from "./operations.ts";
import { builtInSource, PROFILE_KEYS, type ProfileKey } from "./profile-keys.ts";
import type { ProfileShapes } from "./profile-shapes.ts";
import type { RuleSource } from "./rules.ts";
import { ClusteringRules, CreateSchemaRequest, UserPublishRequest } from "./shapes.ts";
import { strictRequestShapes } from "./strict-shapes.ts";
import { SPEC_VALUES_IN_USE, type ValuesInUse } from "./values-in-use.ts";
import {
  PINNED_STATUS_MAPPING,
  SPEC_VIOLATION_KINDS,
  type StatusMapping,
  VIOLATION_KINDS,
  type ViolationKind,
} from "./violations.ts";

/** Every status each operation documents (R3), per operation. */
export type DocumentedStatuses = { readonly [O in DetailedOperationId]: readonly number[] };

/** The statuses R7 asserts for push to an id that is no login user of this login app. */
export interface LoginUserStatuses {
  /** No login user has the id. @defaultValue 404 (conformance.md §1 R7) */
  readonly unknown: number;
  /** The id is a login user of another login app. @defaultValue 403 (conformance.md §1 R7) */
  readonly otherLoginApp: number;
}

/** The built-in profiles every profile is or extends. */
export type BuiltInProfileName = "default" | "strict";

/**
 * How a provider is read: which shapes define "valid", which violations are asserted, which
 * statuses are documented and pinned, and where each of those values comes from.
 */
export interface ContractProfile {
  readonly name: string;
  readonly description: string;
  /** Every assumption this profile makes beyond the spec; empty for the default profile. */
  readonly assumptions: readonly string[];
  /** The built-in profile this one is or extends: only `strict` checks values against `valuesInUse`. */
  readonly builtIn: BuiltInProfileName;
  readonly shapes: ProfileShapes;
  /** Violations a conforming provider must reject under this profile. */
  readonly asserted: ReadonlySet<ViolationKind>;
  /** Which 4xx each (operation, violation) gets (R5). */
  readonly statusMapping: StatusMapping;
  /** Every status each operation documents (R3). @defaultValue the spec's, as in `detailedOperations` */
  readonly documentedStatuses: DocumentedStatuses;
  /** The statuses of push to an id that is no login user of this login app (R7). */
  readonly loginUserStatuses: LoginUserStatuses;
  /** What an element of an error body's `errors` may be (R1, R2). @defaultValue `["string"]` */
  readonly errorsItems: readonly ErrorsItemKind[];
  /** Values in use: they steer generation; only the strict profile rejects other values. */
  readonly valuesInUse: ValuesInUse;
  /** The neighbour operations' requests (conformance.md §8): restore, cleanup and R9 use them. */
  readonly neighbours: Neighbours;
  /** Limits the provider keeps that the spec does not state (conformance.md §6); none by default. */
  readonly bounds: Bounds;
  /** The source of every profile key's value. */
  readonly sources: { readonly [K in ProfileKey]: RuleSource };
  /**
   * Where the value of a profile key comes from, e.g. `sourceOf("statusMapping.pushToUserDevices.wrong-type")`:
   * the spec or conformance.md section for a built-in value, `<file>: <key>` for a profile file's.
   * Throws for a key that is not a profile key.
   */
  sourceOf(key: ProfileKey): RuleSource;
}

/** The value a profile gives one profile key. */
export function profileValue(profile: ContractProfile, key: ProfileKey): unknown {
  const [head, ...rest] = key.split(".");
  switch (head) {
    case "documentedStatuses":
      return profile.documentedStatuses[rest[0] as DetailedOperationId];
    case "statusMapping":
      return profile.statusMapping[rest[0] as DetailedOperationId][rest[1] as ViolationKind];
    case "loginUserStatuses":
      return profile.loginUserStatuses[rest[0] as keyof LoginUserStatuses];
    case "errorsItems":
      return profile.errorsItems;
    case "neighbours":
      return profile.neighbours[rest[0] as NeighbourName];
    case "bounds":
      return profile.bounds[rest.join(".") as BoundPath];
    default:
      return profile.valuesInUse[rest.join(".") as keyof ValuesInUse];
  }
}

const SPEC_DOCUMENTED_STATUSES: DocumentedStatuses = {
  createSchema: detailedOperations.createSchema.documentedStatuses,
  pushToUserDevices: detailedOperations.pushToUserDevices.documentedStatuses,
  updateClusteringRules: detailedOperations.updateClusteringRules.documentedStatuses,
};

const SPEC_LOGIN_USER_STATUSES: LoginUserStatuses = { unknown: 404, otherLoginApp: 403 };

function strictAssumptions(valuesInUse: ValuesInUse): string[] {
  const fieldTypes = valuesInUse["schema.fields[].type"].join(", ");
  const classifierTypes = valuesInUse["rules.features.*.classifier.type"].join(", ");
  return [
    "every tabulated field except `unique` and `excluded_words` is required (spec: not shown)",
    "unknown keys are rejected (spec: not shown)",
    `schema field \`type\` is one of ${fieldTypes} (valuesInUse)`,
    `classifier \`type\` is one of ${classifierTypes} (valuesInUse)`,
    "classifier `threshold` is in [0, 1] (spec: 0 and fractions are used)",
  ];
}

/** One line per key a profile sets: its value and where it is set. */
function profileReadings(profile: Omit<ContractProfile, "assumptions">): string[] {
  return PROFILE_KEYS.filter((key) => profile.sources[key].source === "profile").map(
    (key) =>
      `${key} is ${JSON.stringify(profileValue(profile as ContractProfile, key))} (${profile.sources[key].ref})`,
  );
}

function withSourceOf(profile: Omit<ContractProfile, "sourceOf">): ContractProfile {
  const { sources } = profile;
  return {
    ...profile,
    sourceOf(key: ProfileKey): RuleSource {
      if (!Object.hasOwn(sources, key))
        throw new Error(`sourceOf: "${String(key)}" is not a profile key (see PROFILE_KEYS)`);
      return sources[key];
    },
  };
}

const BUILT_IN_SOURCES = Object.fromEntries(
  PROFILE_KEYS.map((key) => [key, builtInSource(key)]),
) as ContractProfile["sources"];

/** Asserts only what the spec states: tabulated JSON types and the optional/present rule (§2). */
export const defaultProfile: ContractProfile = withSourceOf({
  name: "default",
  description:
    "Only what the spec states: every tabulated field has its JSON type; only `unique` and a " +
    "classifier's `excluded_words` may be absent. Missing fields, unknown keys and values beyond " +
    "those in use are never called invalid.",
  assumptions: [],
  builtIn: "default",
  shapes: {
    CreateSchemaRequest,
    UserPublishRequest,
    ClusteringRules,
    ErrorBody: errorBodyShape(SPEC_ERRORS_ITEMS),
  },
  asserted: new Set(SPEC_VIOLATION_KINDS),
  statusMapping: PINNED_STATUS_MAPPING,
  documentedStatuses: SPEC_DOCUMENTED_STATUSES,
  loginUserStatuses: SPEC_LOGIN_USER_STATUSES,
  errorsItems: SPEC_ERRORS_ITEMS,
  valuesInUse: SPEC_VALUES_IN_USE,
  neighbours: PINNED_NEIGHBOURS,
  bounds: {},
  sources: BUILT_IN_SOURCES,
});

/** Opt-in: the default plus the usual assumptions the spec does not state, each named. */
export const strictProfile: ContractProfile = withSourceOf({
  ...defaultProfile,
  name: "strict (assumptions beyond the spec)",
  description:
    "The default profile plus assumptions the spec does not state: required fields must be " +
    "present, unknown keys are rejected, only the values in use are allowed, threshold is in [0, 1].",
  assumptions: strictAssumptions(SPEC_VALUES_IN_USE),
  builtIn: "strict",
  shapes: {
    ...strictRequestShapes(SPEC_VALUES_IN_USE),
    ErrorBody: defaultProfile.shapes.ErrorBody,
  },
  asserted: new Set(VIOLATION_KINDS),
});

/** What {@link defineProfile} may replace. */
export type ProfileOverrides = Partial<
  Omit<ContractProfile, "shapes" | "sources" | "sourceOf" | "builtIn">
> & { readonly shapes?: Partial<ProfileShapes> };

/**
 * Derives a profile; `sourceFor(key)` names the source of each key the derivation sets (undefined:
 * the key keeps the base's value and source).
 */
export function deriveProfile(
  base: ContractProfile,
  overrides: ProfileOverrides,
  sourceFor: (key: ProfileKey, derived: ContractProfile) => RuleSource | undefined,
): ContractProfile {
  const { shapes: shapeOverrides, ...fields } = overrides;
  const merged = { ...base, ...fields } as ContractProfile;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const shapes: ProfileShapes = {
    ...base.shapes,
    // The value check of strict is built from the values in use; default never checks values.
    ...(merged.builtIn === "strict" && !same(merged.valuesInUse, base.valuesInUse)
      ? strictRequestShapes(merged.valuesInUse)
      : {}),
    ...(same(merged.errorsItems, base.errorsItems)
      ? {}
      : { ErrorBody: errorBodyShape(merged.errorsItems) }),
    ...shapeOverrides,
  };
  const sources = Object.fromEntries(
    PROFILE_KEYS.map((key) => [key, sourceFor(key, merged) ?? base.sources[key]]),
  ) as ContractProfile["sources"];
  const derived = { ...merged, shapes, sources };
  const assumptions = overrides.assumptions ?? [
    ...(merged.builtIn === "strict" ? strictAssumptions(merged.valuesInUse) : []),
    ...profileReadings(derived),
  ];
  return withSourceOf({ ...derived, assumptions });
}

/**
 * A profile derived from another, e.g. with a different 400/422 mapping for a provider's reading.
 * Every key whose value differs from the base gets the source `profile` (ref `<name>: <key>`);
 * a strict base rebuilds its value check from new `valuesInUse`, and new `errorsItems` rebuild
 * `shapes.ErrorBody` (explicit `shapes` win). `assumptions` are derived unless given.
 */
export function defineProfile(base: ContractProfile, overrides: ProfileOverrides): ContractProfile {
  const name = overrides.name ?? base.name;
  return deriveProfile(base, overrides, (key, derived) =>
    JSON.stringify(profileValue(derived, key)) === JSON.stringify(profileValue(base, key))
      ? undefined
      : { source: "profile", ref: `${name}: ${key}` },
  );
}

/** The request shape of a detailed operation under a profile. */
export function requestShapeFor(
  profile: ContractProfile,
  operation: DetailedOperationId,
): z.ZodType {
  return profile.shapes[detailedOperations[operation].requestShape];
}
