import { z } from "zod";
import { jsonInteger } from "./primitives.ts";

// The tabulated shapes of docs/spec/service-interface.md ("Resources and their fields"), in the
// default profile: every tabulated field with its tabulated JSON type; only `unique` and a
// classifier's `excluded_words` may be absent (conformance.md §2). Unknown keys are accepted and
// values are not restricted, because the spec does not say either makes a payload invalid.

/** Schema permissions: `write_protected` and `read_protected` (booleans). */
export const SchemaPermissions = z
  .object({ write_protected: z.boolean(), read_protected: z.boolean() })
  .meta({ id: "SchemaPermissions", description: "Schema permissions." });
export type SchemaPermissions = z.infer<typeof SchemaPermissions>;

/** One field of a schema to create: `name`, `type`, optional `unique`. */
export const CreateSchemaField = z
  .object({
    name: z.string().meta({ description: "field name" }),
    type: z.string().meta({ description: "values used: string, integer, date_time" }),
    unique: z.boolean().optional().meta({ description: "optional; true and false are used" }),
  })
  .meta({ id: "CreateSchemaField", description: "Schema field (create)." });
export type CreateSchemaField = z.infer<typeof CreateSchemaField>;

/** The body of create schema (POST /marketing/datastore/schemas), as a zod schema and a type. */
export const CreateSchemaRequest = z
  .object({
    schema: z
      .object({
        name: z.string().meta({ description: "name of the schema" }),
        fields: z.array(CreateSchemaField).meta({ description: "ordered list of fields" }),
        permissions: SchemaPermissions,
      })
      .meta({ description: "wrapper of the request body" }),
  })
  .meta({ id: "CreateSchemaRequest", description: "Datastore schema (request shape)." });
export type CreateSchemaRequest = z.infer<typeof CreateSchemaRequest>;

/** The `data` object of a push: message, title, icon, vibration, badge, sound. */
export const PushNotificationData = z
  .object({
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
  })
  .meta({ id: "PushNotificationData", description: "The `data` object of the push payload." });
export type PushNotificationData = z.infer<typeof PushNotificationData>;

/** The body of push to user devices (POST .../login/users/{id}/publish), as a zod schema and a type. */
export const UserPublishRequest = z
  .object({ data: PushNotificationData })
  .meta({ id: "UserPublishRequest", description: "Push notification payload." });
export type UserPublishRequest = z.infer<typeof UserPublishRequest>;

/** A candidate label of a clustering feature: `name` and `keywords`. */
export const ClusteringLabel = z
  .object({
    name: z.string().meta({ description: "label name" }),
    keywords: z.array(z.string()).meta({ description: "keywords that match the label" }),
  })
  .meta({ id: "ClusteringLabel", description: "A candidate label of a clustering feature." });
export type ClusteringLabel = z.infer<typeof ClusteringLabel>;

/** How a clustering feature is evaluated: type, categories, threshold, optional excluded words. */
export const ClusteringClassifier = z
  .object({
    type: z.string().meta({ description: "value used: likes" }),
    categories: z.array(z.string()).meta({ description: "categories considered" }),
    threshold: z
      .number()
      .meta({ description: "minimum likelihood threshold; 0 and fractional values are used" }),
    excluded_words: z
      .array(z.string())
      .optional()
      .meta({ description: "optional, per classifier" }),
  })
  .meta({ id: "ClusteringClassifier", description: "How a clustering feature is evaluated." });
export type ClusteringClassifier = z.infer<typeof ClusteringClassifier>;

/** A clustering feature: its labels and its classifier. */
export const ClusteringFeature = z
  .object({ labels: z.array(ClusteringLabel), classifier: ClusteringClassifier })
  .meta({ id: "ClusteringFeature", description: "A clustering feature." });
export type ClusteringFeature = z.infer<typeof ClusteringFeature>;

/** Global clustering parameters: `excluded_words`. */
export const ClusteringParameters = z
  .object({
    excluded_words: z.array(z.string()).meta({ description: "words excluded globally" }),
  })
  .meta({ id: "ClusteringParameters", description: "Global clustering parameters." });
export type ClusteringParameters = z.infer<typeof ClusteringParameters>;

/** The body of update clustering rules (PUT /marketing/login/apps/clustering/rules): a features map and parameters. */
export const ClusteringRules = z
  .object({
    rules: z
      .object({
        features: z
          .record(z.string(), ClusteringFeature)
          .meta({ description: "a map; each key is a feature name, each value a feature object" }),
        parameters: ClusteringParameters,
      })
      .meta({ description: "wrapper" }),
  })
  .meta({ id: "ClusteringRules", description: "Clustering rules (deprecated operation)." });
export type ClusteringRules = z.infer<typeof ClusteringRules>;

// Loose: R2 allows extra keys, and OpenAPI consumers (prism, the pact comparator) must not reject them.
/** The error body of every answer >= 400 (R2): `error`, `error_description`, `errors`; extra keys allowed. */
export const ErrorBody = z
  .looseObject({ error: z.string(), error_description: z.string(), errors: z.array(z.string()) })
  .meta({ id: "ErrorBody", description: "Error body of every >= 400 answer; extra keys allowed." });
export type ErrorBody = z.infer<typeof ErrorBody>;
