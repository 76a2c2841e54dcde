// The request bodies of the three detailed operations, copied by hand from the tables of
// service-interface.md "Resources and their fields". Deliberately not derived from @idp/contracts:
// these providers are oracles for code that is.

/** A JSON type as the spec's tables name it. `integer`: a JSON number whose value has no fraction. */
export type LeafType = "string" | "boolean" | "integer" | "number";

export type Shape =
  | { readonly t: LeafType; readonly inUse?: readonly string[] }
  | { readonly t: "array"; readonly of: Shape }
  /** `optional` lists the fields the spec calls optional; every other field is expected. */
  | {
      readonly t: "object";
      readonly fields: Readonly<Record<string, Shape>>;
      readonly optional?: readonly string[];
    }
  /** An object used as a map: any key, every value of one shape (rules.features). */
  | { readonly t: "map"; readonly of: Shape };

export type OperationId = "createSchema" | "pushToUserDevices" | "updateClusteringRules";

/** How a provider reads the spec's gaps: conformance.md's default, or the service's public docs. */
export type Reading = "default" | "observed-service";

/** Schema field types the service's public developer documentation lists (issue 13). */
export const OBSERVED_FIELD_TYPES = [
  "array",
  "boolean",
  "date",
  "date_time",
  "float",
  "hash",
  "integer",
  "string",
  "time",
] as const;

const string = { t: "string" } as const;
const boolean = { t: "boolean" } as const;
const integer = { t: "integer" } as const;
const strings = { t: "array", of: string } as const;

function schemaInner(reading: Reading): Shape {
  return {
    t: "object",
    fields: {
      name: string,
      fields: {
        t: "array",
        of: {
          t: "object",
          fields: {
            name: string,
            // Default reading: any string (values beyond those in use are "not shown", so never
            // refused). The observed service refuses a type outside its documented list.
            type:
              reading === "observed-service"
                ? { t: "string", inUse: OBSERVED_FIELD_TYPES }
                : string,
            unique: boolean,
          },
          optional: ["unique"],
        },
      },
      permissions: { t: "object", fields: { write_protected: boolean, read_protected: boolean } },
    },
  };
}

const pushData: Shape = {
  t: "object",
  fields: {
    message: string,
    title: string,
    small_icon: string,
    vibrate: boolean,
    vibrate_duration: integer,
    auto_cancel: boolean,
    big_style: boolean,
    activity_class: string,
    badge: integer,
    sound: string,
  },
};

const rulesInner: Shape = {
  t: "object",
  fields: {
    features: {
      t: "map",
      of: {
        t: "object",
        fields: {
          labels: { t: "array", of: { t: "object", fields: { name: string, keywords: strings } } },
          classifier: {
            t: "object",
            // `type` is any string and `threshold` any JSON number: other values are "not shown".
            fields: {
              type: string,
              categories: strings,
              threshold: { t: "number" },
              excluded_words: strings,
            },
            optional: ["excluded_words"],
          },
        },
      },
    },
    parameters: { t: "object", fields: { excluded_words: strings } },
  },
};

const schemaByReading: Record<Reading, Shape> = {
  default: schemaInner("default"),
  "observed-service": schemaInner("observed-service"),
};

/** The one wrapper key of each body and the shape of its value. */
export function bodyShape(op: OperationId, reading: Reading): { wrapper: string; inner: Shape } {
  switch (op) {
    case "createSchema":
      return { wrapper: "schema", inner: schemaByReading[reading] };
    case "pushToUserDevices":
      return { wrapper: "data", inner: pushData };
    case "updateClusteringRules":
      return { wrapper: "rules", inner: rulesInner };
  }
}
