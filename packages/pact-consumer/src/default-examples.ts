import type {
  ClusteringRules,
  CreateSchemaRequest,
  DetailedOperationId,
  RequestBody,
  UserPublishRequest,
} from "@idp/contracts";

/** The request body type of each detailed operation (its request shape in the catalogue). */
export type RequestBodies = { readonly [O in DetailedOperationId]: RequestBody<O> };

// The builders' examples when a consumer gives none: valid under the default profile, built from the
// values the spec shows in use, and with non-empty arrays (Pact's mock server checks the elements
// of an array against the example's first element; an empty example array checks none).

/** A valid create-schema body. */
export const EXAMPLE_CREATE_SCHEMA: CreateSchemaRequest = {
  schema: {
    name: "customers",
    fields: [
      { name: "email", type: "string", unique: true },
      { name: "age", type: "integer", unique: false },
    ],
    permissions: { write_protected: false, read_protected: true },
  },
};

/** A valid push body. */
export const EXAMPLE_PUSH: UserPublishRequest = {
  data: {
    message: "Your order has shipped",
    title: "Order update",
    small_icon: "ic_notification",
    vibrate: true,
    vibrate_duration: 300,
    auto_cancel: true,
    big_style: false,
    activity_class: "com.example.MainActivity",
    badge: 1,
    sound: "default",
  },
};

/** A valid clustering-rules body. */
export const EXAMPLE_CLUSTERING_RULES: ClusteringRules = {
  rules: {
    features: {
      sports: {
        labels: [{ name: "football", keywords: ["goal", "match"] }],
        classifier: {
          type: "likes",
          categories: ["sports"],
          threshold: 0.5,
          excluded_words: ["ad"],
        },
      },
    },
    parameters: { excluded_words: ["the"] },
  },
};

export const VALID_EXAMPLES: { readonly [O in DetailedOperationId]: RequestBodies[O] } = {
  createSchema: EXAMPLE_CREATE_SCHEMA,
  pushToUserDevices: EXAMPLE_PUSH,
  updateClusteringRules: EXAMPLE_CLUSTERING_RULES,
};

/** One invalid body per client-error cell, each breaking one rule (conformance.md §3). */
export const INVALID_EXAMPLES = {
  createSchema: {
    400: { schema: "customers" },
    422: { schema: { ...EXAMPLE_CREATE_SCHEMA.schema, name: 42 } },
  },
  pushToUserDevices: {
    400: { data: { ...EXAMPLE_PUSH.data, vibrate_duration: "300" } },
  },
  updateClusteringRules: {
    422: { rules: { ...EXAMPLE_CLUSTERING_RULES.rules, parameters: { excluded_words: "the" } } },
  },
} as const;
