import type { DetailedOperationId } from "@idp/contracts";

// Every tabulated path of service-interface.md ("Resources and their fields") below the wrapper,
// with `[]` for an array element and `*` for a map value.
export const TABULATED: Record<DetailedOperationId, string[]> = {
  createSchema: [
    "schema.name",
    "schema.fields",
    "schema.fields[]",
    "schema.fields[].name",
    "schema.fields[].type",
    "schema.fields[].unique",
    "schema.permissions",
    "schema.permissions.write_protected",
    "schema.permissions.read_protected",
  ],
  pushToUserDevices: [
    "message",
    "title",
    "small_icon",
    "vibrate",
    "vibrate_duration",
    "auto_cancel",
    "big_style",
    "activity_class",
    "badge",
    "sound",
  ].map((f) => `data.${f}`),
  updateClusteringRules: [
    "rules.features",
    "rules.features.*",
    "rules.features.*.labels",
    "rules.features.*.labels[]",
    "rules.features.*.labels[].name",
    "rules.features.*.labels[].keywords",
    "rules.features.*.labels[].keywords[]",
    "rules.features.*.classifier",
    "rules.features.*.classifier.type",
    "rules.features.*.classifier.categories",
    "rules.features.*.classifier.categories[]",
    "rules.features.*.classifier.threshold",
    "rules.features.*.classifier.excluded_words",
    "rules.features.*.classifier.excluded_words[]",
    "rules.parameters",
    "rules.parameters.excluded_words",
    "rules.parameters.excluded_words[]",
  ],
};

/** The pattern of a concrete path; under rules.features the third segment is a feature name. */
export function patternOf(op: DetailedOperationId, path: readonly (string | number)[]): string {
  return path
    .map((seg, i) => {
      if (typeof seg === "number") return "[]";
      const mapKey = op === "updateClusteringRules" && i === 2 && path[1] === "features";
      return `${i === 0 ? "" : "."}${mapKey ? "*" : seg}`;
    })
    .join("");
}

/** The JSON type of each tabulated path, restated from the spec's tables. */
export const TYPE_OF: Readonly<
  Record<string, "string" | "boolean" | "integer" | "number" | "array" | "object">
> = {
  "schema.name": "string",
  "schema.fields": "array",
  "schema.fields[]": "object",
  "schema.fields[].name": "string",
  "schema.fields[].type": "string",
  "schema.fields[].unique": "boolean",
  "schema.permissions": "object",
  "schema.permissions.write_protected": "boolean",
  "schema.permissions.read_protected": "boolean",
  "data.message": "string",
  "data.title": "string",
  "data.small_icon": "string",
  "data.vibrate": "boolean",
  "data.vibrate_duration": "integer",
  "data.auto_cancel": "boolean",
  "data.big_style": "boolean",
  "data.activity_class": "string",
  "data.badge": "integer",
  "data.sound": "string",
  "rules.features": "object",
  "rules.features.*": "object",
  "rules.features.*.labels": "array",
  "rules.features.*.labels[]": "object",
  "rules.features.*.labels[].name": "string",
  "rules.features.*.labels[].keywords": "array",
  "rules.features.*.labels[].keywords[]": "string",
  "rules.features.*.classifier": "object",
  "rules.features.*.classifier.type": "string",
  "rules.features.*.classifier.categories": "array",
  "rules.features.*.classifier.categories[]": "string",
  "rules.features.*.classifier.threshold": "number",
  "rules.features.*.classifier.excluded_words": "array",
  "rules.features.*.classifier.excluded_words[]": "string",
  "rules.parameters": "object",
  "rules.parameters.excluded_words": "array",
  "rules.parameters.excluded_words[]": "string",
};
