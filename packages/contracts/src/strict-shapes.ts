import { z } from "zod";
import { errorBodyShape, SPEC_ERRORS_ITEMS } from "./error-items.ts";
import { jsonInteger } from "./primitives.ts";
import type { ProfileShapes } from "./profile-shapes.ts";
import { SPEC_VALUES_IN_USE, type ValuesInUse } from "./values-in-use.ts";

// The strict profile: the default shapes plus the usual assumptions the spec does NOT state —
// no unknown keys, only the values in use (the profile's valuesInUse: by default field type
// string|integer|date_time, classifier type likes) and threshold in [0, 1]. Required-ness is the
// same as the default (conformance.md §2), but a strict verification also asserts that a provider
// rejects a missing field. Opt-in only.

// z.enum needs at least one value; an empty list allows nothing (every value is "not in use").
const oneOf = (values: readonly string[]) => {
  const [first, ...rest] = values;
  return first === undefined ? z.never() : z.enum([first, ...rest]);
};

const strictUserPublishRequest = z.strictObject({
  data: z.strictObject({
    message: z.string(),
    title: z.string(),
    small_icon: z.string(),
    vibrate: z.boolean(),
    vibrate_duration: jsonInteger(),
    auto_cancel: z.boolean(),
    big_style: z.boolean(),
    activity_class: z.string(),
    badge: jsonInteger(),
    sound: z.string(),
  }),
});

/** The strict request shapes whose value checks are built from `valuesInUse`. */
export function strictRequestShapes(valuesInUse: ValuesInUse): Omit<ProfileShapes, "ErrorBody"> {
  const CreateSchemaRequest = z.strictObject({
    schema: z.strictObject({
      name: z.string(),
      fields: z.array(
        z.strictObject({
          name: z.string(),
          type: oneOf(valuesInUse["schema.fields[].type"]),
          unique: z.boolean().optional(),
        }),
      ),
      permissions: z.strictObject({ write_protected: z.boolean(), read_protected: z.boolean() }),
    }),
  });
  const ClusteringRules = z.strictObject({
    rules: z.strictObject({
      features: z.record(
        z.string(),
        z.strictObject({
          labels: z.array(z.strictObject({ name: z.string(), keywords: z.array(z.string()) })),
          classifier: z.strictObject({
            type: oneOf(valuesInUse["rules.features.*.classifier.type"]),
            categories: z.array(z.string()),
            threshold: z.number().min(0).max(1),
            excluded_words: z.array(z.string()).optional(),
          }),
        }),
      ),
      parameters: z.strictObject({ excluded_words: z.array(z.string()) }),
    }),
  });
  return {
    CreateSchemaRequest,
    UserPublishRequest: strictUserPublishRequest,
    ClusteringRules,
  };
}

/** The strict-profile request and error shapes with the spec's values in use. */
export const strictShapes: ProfileShapes = {
  ...strictRequestShapes(SPEC_VALUES_IN_USE),
  // R2 allows extra keys in error bodies, so even the strict profile keeps the error body open.
  ErrorBody: errorBodyShape(SPEC_ERRORS_ITEMS),
};
