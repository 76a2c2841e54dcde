import type { RuleId, RuleSource } from "../rules.ts";
import { jsonMediaTypeProblem } from "./media-type.ts";

/** The parts of an HTTP answer the judges read (an undici/node answer, a pact's response...). */
export interface ObservedResponse {
  readonly status: number;
  /** The Content-Type header; `undefined` when absent. */
  readonly contentType: string | undefined;
  /** The body as received: text, or bytes (decoded as UTF-8 where text is needed). */
  readonly body: string | Uint8Array;
  /** The body was longer than the reader's cap and was cut. */
  readonly truncated?: boolean;
}

/** What went wrong, by rule: lets a report group one root cause across checks. */
export type ProblemKind =
  | "status"
  | "content-type"
  | "truncated"
  | "not-json"
  | "not-utf8"
  | "body-shape"
  | "errors-item"
  | "error-code"
  | "success-body"
  | "read-back"
  | "field-unnamed";

/** One broken rule: a one-line message (expected vs received) and the source of what it asserted. */
export interface Problem {
  readonly rule: RuleId;
  readonly kind: ProblemKind;
  /** One line, starting with the rule id, e.g. `R3: 418 is not a documented status of ...`. */
  readonly message: string;
  /** Where the asserted value comes from: the spec, a pinned reading, or a profile key. */
  readonly source: RuleSource;
  /** What the rule expected, e.g. `401`, `application/json`. */
  readonly expected: string;
  /** What was received, e.g. `200`, `"text/html"`, `errors[0]: 42`. */
  readonly received: string;
}

const decoder = new TextDecoder();

/** The body as text (UTF-8; invalid bytes become U+FFFD). */
export const bodyText = (body: string | Uint8Array): string =>
  typeof body === "string" ? body : decoder.decode(body);

/** The body's length in bytes (UTF-8 for text). */
export const bodyBytes = (body: string | Uint8Array): number =>
  typeof body === "string" ? new TextEncoder().encode(body).length : body.length;

/**
 * `application/json` as RFC 9110 §8.3.1 compares it: type, subtype and parameter names in any case,
 * any parameters, no `charset` other than UTF-8 (conformance.md §1 R2).
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  return jsonMediaTypeProblem(contentType) === undefined;
}

/** A short, one-line rendering of a received value for a message. */
export function preview(value: unknown, max = 60): string {
  const text = value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Text from elsewhere (a zod message, a key of the body) made safe for a one-line message. */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1));
}
