import {
  type ClusteringRules,
  type ContractProfile,
  type CreateSchemaRequest,
  type DetailedOperationId,
  defaultProfile,
  requestShapeFor,
  type UserPublishRequest,
} from "@idp/contracts";
import type fc from "fast-check";
import { valuesInUseFor } from "./_internal/spec-values.ts";
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
 * `type`; by default the spec's) and a `threshold` of 0, 1 or a fraction.
 */
export function validBodyArb(
  operation: DetailedOperationId,
  constraints: ValidBodyConstraints = {},
): fc.Arbitrary<unknown> {
  const profile = constraints.profile ?? defaultProfile;
  return zodArbitrary(requestShapeFor(profile, operation), {
    overrides: valuesInUseFor(operation, profile),
    ...(constraints.maxLength === undefined ? {} : { maxLength: constraints.maxLength }),
    ...(constraints.size === undefined ? {} : { size: constraints.size }),
  });
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
