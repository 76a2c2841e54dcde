/** A path into a JSON body: keys and array indexes, e.g. `["schema", "fields", 0, "unique"]`. */
export type JsonPath = readonly (string | number)[];

/** Renders a path the way the spec's tables name fields: `schema.fields[0].unique`. */
export function formatPath(path: JsonPath): string {
  if (path.length === 0) return "(body)";
  return path
    .map((seg, i) => (typeof seg === "number" ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join("");
}
