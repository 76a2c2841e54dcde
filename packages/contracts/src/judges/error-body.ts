import { describeErrorsItems } from "../error-items.ts";
import { AUTHENTICATION_FAILED } from "../errors.ts";
import { formatPath } from "../json-path.ts";
import { type ContractProfile, defaultProfile } from "../profiles.ts";
import { FIXED_SOURCES } from "../rules.ts";
import { jsonMediaTypeProblem } from "./media-type.ts";
import {
  bodyBytes,
  bodyText,
  type ObservedResponse,
  oneLine,
  type Problem,
  preview,
} from "./problem.ts";
import { decodeUtf8 } from "./utf8.ts";

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * R2: an error answer is `application/json` with `error`, `error_description` (strings) and
 * `errors` (an array whose elements are what the profile's `errorsItems` allow). Extra keys are
 * fine, and so is any `error` value: only 401 pins one (R1). Undefined when the answer conforms.
 */
export function errorBodyProblem(
  res: ObservedResponse,
  profile: ContractProfile = defaultProfile,
): Problem | undefined {
  const { status } = res;
  const spec = FIXED_SOURCES.errorBody;
  // Built only for a message: judging a conforming answer stays cheap.
  const needs = () =>
    `error (string), error_description (string), errors (array of ${describeErrorsItems(profile.errorsItems)})`;
  const mediaProblem = jsonMediaTypeProblem(res.contentType);
  if (mediaProblem !== undefined) {
    const received = res.contentType === undefined ? "none" : JSON.stringify(res.contentType);
    // The type itself says what is wrong; a charset or a broken parameter needs saying.
    const why =
      res.contentType === undefined || mediaProblem.startsWith("the media type")
        ? ""
        : ` (${mediaProblem})`;
    return {
      rule: "R2",
      kind: "content-type",
      message: `R2: a ${status} answer must have Content-Type application/json, got ${received}${why}`,
      source: spec,
      expected: "application/json (any case, any parameters, no charset but UTF-8)",
      received,
    };
  }
  if (res.truncated)
    return {
      rule: "R2",
      kind: "truncated",
      message: `R2: the ${status} error body was cut after ${bodyBytes(res.body)} bytes, too long to be the error body`,
      source: spec,
      expected: needs(),
      received: `more than ${bodyBytes(res.body)} bytes`,
    };
  const decoded = typeof res.body === "string" ? { text: res.body } : decodeUtf8(res.body);
  if ("invalidAt" in decoded) {
    const at = decoded.invalidAt;
    const byte = (res.body as Uint8Array)[at] ?? 0;
    const hex = `0x${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    return {
      rule: "R2",
      kind: "not-utf8",
      message: `R2: the ${status} error body is not UTF-8 (RFC 8259 §8.1): byte ${hex} at offset ${at} begins no UTF-8 character`,
      source: spec,
      expected: "a UTF-8 JSON text",
      received: `byte ${hex} at offset ${at}`,
    };
  }
  const text = decoded.text;
  const parsed = parseJson(text);
  if (!parsed.ok)
    return {
      rule: "R2",
      kind: "not-json",
      message: `R2: the ${status} error body is not JSON, got ${preview(text)}`,
      source: spec,
      expected: needs(),
      received: preview(text),
    };
  const result = profile.shapes.ErrorBody.safeParse(parsed.value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).filter((s) => typeof s !== "symbol");
  const [first, index] = path;
  const errors = (parsed.value as { errors?: unknown } | null)?.errors;
  if (first === "errors" && typeof index === "number" && Array.isArray(errors)) {
    // An element of `errors`: what it may be is the profile's errorsItems.
    const received = `errors[${index}]: ${preview(errors[index])}`;
    const one = describeErrorsItems(profile.errorsItems, "one");
    return {
      rule: "R2",
      kind: "errors-item",
      message: `R2: the ${status} error body's errors[${index}] must be ${one}, got ${preview(errors[index])}`,
      source: profile.sourceOf("errorsItems"),
      expected: one,
      received,
    };
  }
  const received = oneLine(`${formatPath(path)}: ${issue?.message ?? "invalid"}`);
  return {
    rule: "R2",
    kind: "body-shape",
    message: `R2: the ${status} error body needs ${needs()}; ${received}`,
    source: spec,
    expected: needs(),
    received,
  };
}

/**
 * R1: a request without acceptable credentials gets 401 with the error body (R2, under the
 * profile's `errorsItems`) and `error` = `authentication_failed`. Undefined when it does.
 */
export function authRejectionProblem(
  res: ObservedResponse,
  profile: ContractProfile = defaultProfile,
): Problem | undefined {
  if (res.status !== 401)
    return {
      rule: "R1",
      kind: "status",
      message: `R1: a request without acceptable credentials must get 401, got ${res.status}`,
      source: FIXED_SOURCES.authStatus,
      expected: "401",
      received: String(res.status),
    };
  const bodyProblem = errorBodyProblem(res, profile);
  if (bodyProblem)
    return {
      ...bodyProblem,
      rule: "R1",
      message: `R1: 401 without the error body (${bodyProblem.message})`,
    };
  const { error } = JSON.parse(bodyText(res.body)) as { error: string };
  if (error !== AUTHENTICATION_FAILED)
    return {
      rule: "R1",
      kind: "error-code",
      message: `R1: a 401 must carry error "${AUTHENTICATION_FAILED}", got ${JSON.stringify(error)}`,
      source: FIXED_SOURCES.authErrorCode,
      expected: JSON.stringify(AUTHENTICATION_FAILED),
      received: JSON.stringify(error),
    };
  return undefined;
}
