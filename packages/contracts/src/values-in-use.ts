import type { DetailedOperationId } from "./operations.ts";

/** Schema field `type` values seen in the spec; the full set is "not shown". */
export const FIELD_TYPES_IN_USE = ["string", "integer", "date_time"] as const;
/** Classifier `type` value seen in the spec; the full set is "not shown". */
export const CLASSIFIER_TYPES_IN_USE = ["likes"] as const;

/**
 * The places where the spec names values in use, keyed the way a profile file names them
 * (conformance.md §6): a dotted path, `[]` for "every element", `*` for "every map value".
 */
export const VALUES_IN_USE_KEYS = [
  "schema.fields[].type",
  "rules.features.*.classifier.type",
] as const;
/** A field whose values in use a profile may set, e.g. `schema.fields[].type`. */
export type ValuesInUseKey = (typeof VALUES_IN_USE_KEYS)[number];

/** The values in use at each place: they steer generation, and the strict profile allows only these. */
export type ValuesInUse = { readonly [K in ValuesInUseKey]: readonly string[] };

/** Which operation's request body each values-in-use key is a path of. */
export const VALUES_IN_USE_OPERATION: { readonly [K in ValuesInUseKey]: DetailedOperationId } = {
  "schema.fields[].type": "createSchema",
  "rules.features.*.classifier.type": "updateClusteringRules",
};

/** The values in use the spec shows (conformance.md §2). */
export const SPEC_VALUES_IN_USE: ValuesInUse = {
  "schema.fields[].type": FIELD_TYPES_IN_USE,
  "rules.features.*.classifier.type": CLASSIFIER_TYPES_IN_USE,
};
