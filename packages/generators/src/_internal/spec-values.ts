import {
  type ContractProfile,
  type DetailedOperationId,
  defaultProfile,
  VALUES_IN_USE_KEYS,
  VALUES_IN_USE_OPERATION,
} from "@idp/contracts";
import fc from "fast-check";

// The only places where the spec gives values in use (conformance.md §2), read from the profile's
// valuesInUse (a profile file may name others). Everything else is derived from the contracts.

const threshold: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 1),
  fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x + 0),
);

/** Overrides of the valid-body arbitrary for one operation: the profile's values in use. */
export function valuesInUseFor(
  operation: DetailedOperationId,
  profile: ContractProfile = defaultProfile,
): Readonly<Record<string, fc.Arbitrary<unknown>>> {
  const overrides: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of VALUES_IN_USE_KEYS) {
    const values = profile.valuesInUse[key];
    // An empty list leaves the contract's own arbitrary (any string) in place.
    if (VALUES_IN_USE_OPERATION[key] === operation && values.length > 0)
      overrides[key] = fc.constantFrom(...values);
  }
  if (operation === "updateClusteringRules")
    overrides["rules.features.*.classifier.threshold"] = threshold;
  return overrides;
}

/** The default profile's values in use, per operation (the spec's). */
export const VALUES_IN_USE: {
  readonly [O in DetailedOperationId]: Readonly<Record<string, fc.Arbitrary<unknown>>>;
} = {
  createSchema: valuesInUseFor("createSchema"),
  pushToUserDevices: valuesInUseFor("pushToUserDevices"),
  updateClusteringRules: valuesInUseFor("updateClusteringRules"),
};
