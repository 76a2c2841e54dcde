import { z } from "zod";
import { ErrorBody } from "./shapes.ts";

/** What an element of an error body's `errors` may be (conformance.md §6, `errorsItems`). */
export const ERRORS_ITEM_KINDS = ["string", "object"] as const;
/** What an element of the error body's `errors` may be: `string` (the spec) or `object` (a profile's reading). */
export type ErrorsItemKind = (typeof ERRORS_ITEM_KINDS)[number];

/** The spec's reading: `errors` is an array of strings (service-interface.md: Errors). */
export const SPEC_ERRORS_ITEMS: readonly ErrorsItemKind[] = ["string"];

/** An `errors` element of kind `object`: string `attribute`, `message` and `code`; extra keys allowed. */
export const ErrorItemObject = z
  .looseObject({ attribute: z.string(), message: z.string(), code: z.string() })
  .meta({
    id: "ErrorItemObject",
    description: "An element of `errors` under a profile with errorsItems `object`.",
  });
export type ErrorItemObject = z.infer<typeof ErrorItemObject>;

/** An error body whose `errors` may hold objects as well as strings (a profile's reading). */
export type ProfileErrorBody = Omit<ErrorBody, "errors"> & {
  errors: (string | ErrorItemObject)[];
};

/**
 * How `errorsItems` reads in a message: `"many"` for the array ("strings or objects {attribute,
 * message, code}"), `"one"` for one element ("a string or an object {attribute, message, code}").
 */
export function describeErrorsItems(
  items: readonly ErrorsItemKind[],
  count: "one" | "many" = "many",
): string {
  const words = ERRORS_ITEM_KINDS.filter((k) => items.includes(k)).map((k) => {
    const object = "object {attribute, message, code}";
    if (count === "one") return k === "string" ? "a string" : `an ${object}`;
    return k === "string" ? "strings" : `${object.replace("object", "objects")}`;
  });
  return words.join(" or ") || "nothing";
}

/** The error body shape for a profile's `errorsItems`; `["string"]` is the spec's `ErrorBody` itself. */
export function errorBodyShape(items: readonly ErrorsItemKind[]): z.ZodType<ProfileErrorBody> {
  const string = items.includes("string");
  const object = items.includes("object");
  if (string && !object) return ErrorBody;
  const item = string
    ? z.union([z.string(), ErrorItemObject])
    : object
      ? ErrorItemObject
      : z.never();
  return z.looseObject({
    error: z.string(),
    error_description: z.string(),
    errors: z.array(item),
  });
}
