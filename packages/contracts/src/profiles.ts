import type { z } from "zod";
import type { DetailedOperationId } from "./operations.ts";
import { detailedOperations } from "./operations.ts";
import { ClusteringRules, CreateSchemaRequest, ErrorBody, UserPublishRequest } from "./shapes.ts";
import { strictShapes } from "./strict-shapes.ts";
import {
  PINNED_STATUS_MAPPING,
  SPEC_VIOLATION_KINDS,
  type StatusMapping,
  VIOLATION_KINDS,
  type ViolationKind,
} from "./violations.ts";

export interface ProfileShapes {
  readonly CreateSchemaRequest: z.ZodType<CreateSchemaRequest>;
  readonly UserPublishRequest: z.ZodType<UserPublishRequest>;
  readonly ClusteringRules: z.ZodType<ClusteringRules>;
  readonly ErrorBody: z.ZodType<ErrorBody>;
}

/** How strictly a payload is read: which shapes define "valid", and which violations are asserted. */
export interface ContractProfile {
  readonly name: string;
  readonly description: string;
  /** Every assumption this profile makes beyond the spec; empty for the default profile. */
  readonly assumptions: readonly string[];
  readonly shapes: ProfileShapes;
  /** Violations a conforming provider must reject under this profile. */
  readonly asserted: ReadonlySet<ViolationKind>;
  /** Which 4xx each (operation, violation) gets. */
  readonly statusMapping: StatusMapping;
}

/** Asserts only what the spec states: tabulated JSON types and the optional/present rule (§2). */
export const defaultProfile: ContractProfile = {
  name: "default",
  description:
    "Only what the spec states: every tabulated field has its JSON type; only `unique` and a " +
    "classifier's `excluded_words` may be absent. Missing fields, unknown keys and values beyond " +
    "those in use are never called invalid.",
  assumptions: [],
  shapes: { CreateSchemaRequest, UserPublishRequest, ClusteringRules, ErrorBody },
  asserted: new Set(SPEC_VIOLATION_KINDS),
  statusMapping: PINNED_STATUS_MAPPING,
};

/** Opt-in: the default plus the usual assumptions the spec does not state, each named. */
export const strictProfile: ContractProfile = {
  name: "strict (assumptions beyond the spec)",
  description:
    "The default profile plus assumptions the spec does not state: required fields must be " +
    "present, unknown keys are rejected, only the values in use are allowed, threshold is in [0, 1].",
  assumptions: [
    "every tabulated field except `unique` and `excluded_words` is required (spec: not shown)",
    "unknown keys are rejected (spec: not shown)",
    "schema field `type` is one of string, integer, date_time (spec: values used)",
    "classifier `type` is likes (spec: value used)",
    "classifier `threshold` is in [0, 1] (spec: 0 and fractions are used)",
  ],
  shapes: strictShapes,
  asserted: new Set(VIOLATION_KINDS),
  statusMapping: PINNED_STATUS_MAPPING,
};

/** A profile derived from another, e.g. with a different 400/422 mapping for a provider's reading. */
export function defineProfile(
  base: ContractProfile,
  overrides: Partial<Omit<ContractProfile, "shapes">> & { shapes?: Partial<ProfileShapes> },
): ContractProfile {
  return { ...base, ...overrides, shapes: { ...base.shapes, ...overrides.shapes } };
}

/** The request shape of a detailed operation under a profile. */
export function requestShapeFor(
  profile: ContractProfile,
  operation: DetailedOperationId,
): z.ZodType {
  return profile.shapes[detailedOperations[operation].requestShape];
}
