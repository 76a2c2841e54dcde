import type { ClusteringRules, CreateSchemaRequest, UserPublishRequest } from "../src/index.ts";

// Examples built from the values the spec shows in use (field types string/integer/date_time,
// unique true/false/absent, classifier type likes, threshold 0 and a fraction).
export const createSchemaExample: CreateSchemaRequest = {
  schema: {
    name: "customers",
    fields: [
      { name: "email", type: "string", unique: true },
      { name: "age", type: "integer", unique: false },
      { name: "signed_up", type: "date_time" },
    ],
    permissions: { write_protected: true, read_protected: false },
  },
};

export const pushExample: UserPublishRequest = {
  data: {
    message: "Hello",
    title: "Welcome",
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

export const clusteringExample: ClusteringRules = {
  rules: {
    features: {
      sports: {
        labels: [{ name: "football", keywords: ["goal", "league"] }],
        classifier: {
          type: "likes",
          categories: ["Sports"],
          threshold: 0.5,
          excluded_words: ["the"],
        },
      },
      music: {
        labels: [],
        classifier: { type: "likes", categories: [], threshold: 0 },
      },
    },
    parameters: { excluded_words: ["a", "an"] },
  },
};
