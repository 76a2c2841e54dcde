import { AUTHENTICATION_FAILED, type ErrorBody } from "@idp/contracts";

/**
 * The `error` values this provider answers with. The spec shows only `authentication_failed`
 * (pinned for every 401 by R1); the others are ours, one per condition, and stable.
 */
export const ERROR_CODES = {
  authenticationFailed: AUTHENTICATION_FAILED,
  invalidRequest: "invalid_request",
  parameterError: "parameter_error",
  forbidden: "forbidden",
  recordNotFound: "record_not_found",
  notFound: "not_found",
  methodNotAllowed: "method_not_allowed",
  payloadTooLarge: "payload_too_large",
  headersTooLarge: "headers_too_large",
  requestTimeout: "request_timeout",
  unknownProviderState: "unknown_provider_state",
  serverError: "server_error",
} as const;
/** An `error` value the provider answers with. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** An R2 error answer: JSON with `error`, `error_description` and `errors`. */
export function errorResponse(
  status: number,
  error: ErrorCode,
  description: string,
  errors: readonly string[] = [description],
  headers: Record<string, string> = {},
): Response {
  const body: ErrorBody = { error, error_description: description, errors: [...errors] };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** The `error` value for a rejected body, by status (400 Bad Request, 422 Parameter Error). */
export const bodyErrorCode = (status: 400 | 422): ErrorCode =>
  status === 400 ? ERROR_CODES.invalidRequest : ERROR_CODES.parameterError;
