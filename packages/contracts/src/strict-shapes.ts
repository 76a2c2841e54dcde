import { z } from "zod";
import { jsonInteger } from "./primitives.ts";
import {
  type ClusteringRules,
  type CreateSchemaRequest,
  ErrorBody,
  type UserPublishRequest,
} from "./shapes.ts";

// The strict profile: the default shapes plus the usual assumptions the spec does NOT state —
// no unknown keys, only the values in use (field type string|integer|date_time, classifier type
// likes) and threshold in [0, 1]. Required-ness is the same as the default (conformance.md §2), but
// a strict verification also asserts that a provider rejects a missing field. Opt-in only.

/** Schema field `type` values seen in the spec; the full set is "not shown". */
export const FIELD_TYPES_IN_USE = ["string", "integer", "date_time"] as const;
/** Classifier `type` value seen in the spec; the full set is "not shown". */
export const CLASSIFIER_TYPES_IN_USE = ["likes"] as const;

const StrictSchemaField = z.strictObject({
  name: z.string(),
  type: z.enum(FIELD_TYPES_IN_USE),
  unique: z.boolean().optional(),
});

const StrictCreateSchemaRequest = z.strictObject({
  schema: z.strictObject({
    name: z.string(),
    fields: z.array(StrictSchemaField),
    permissions: z.strictObject({ write_protected: z.boolean(), read_protected: z.boolean() }),
  }),
});

const StrictUserPublishRequest = z.strictObject({
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

const StrictClusteringRules = z.strictObject({
  rules: z.strictObject({
    features: z.record(
      z.string(),
      z.strictObject({
        labels: z.array(z.strictObject({ name: z.string(), keywords: z.array(z.string()) })),
        classifier: z.strictObject({
          type: z.enum(CLASSIFIER_TYPES_IN_USE),
          categories: z.array(z.string()),
          threshold: z.number().min(0).max(1),
          excluded_words: z.array(z.string()).optional(),
        }),
      }),
    ),
    parameters: z.strictObject({ excluded_words: z.array(z.string()) }),
  }),
});

/** The strict-profile request and error shapes, typed as their default-profile counterparts. */
export const strictShapes: {
  readonly CreateSchemaRequest: z.ZodType<CreateSchemaRequest>;
  readonly UserPublishRequest: z.ZodType<UserPublishRequest>;
  readonly ClusteringRules: z.ZodType<ClusteringRules>;
  readonly ErrorBody: z.ZodType<ErrorBody>;
} = {
  CreateSchemaRequest: StrictCreateSchemaRequest,
  UserPublishRequest: StrictUserPublishRequest,
  ClusteringRules: StrictClusteringRules,
  // R2 allows extra keys in error bodies, so even the strict profile keeps the error body open.
  ErrorBody,
};
