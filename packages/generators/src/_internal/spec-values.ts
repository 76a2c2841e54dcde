import {
  CLASSIFIER_TYPES_IN_USE,
  type DetailedOperationId,
  FIELD_TYPES_IN_USE,
} from "@idp/contracts";
import fc from "fast-check";

// The only places where the spec gives values in use (conformance.md §2). Everything else is
// derived from the contracts as they are.

const threshold: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 1),
  fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x + 0),
);

export const VALUES_IN_USE: {
  readonly [O in DetailedOperationId]: Readonly<Record<string, fc.Arbitrary<unknown>>>;
} = {
  createSchema: { "schema.fields[].type": fc.constantFrom(...FIELD_TYPES_IN_USE) },
  pushToUserDevices: {},
  updateClusteringRules: {
    "rules.features.*.classifier.type": fc.constantFrom(...CLASSIFIER_TYPES_IN_USE),
    "rules.features.*.classifier.threshold": threshold,
  },
};
