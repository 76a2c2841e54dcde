import {
  AUTHENTICATION_FAILED,
  type DetailedOperationId,
  detailedOperations,
  ErrorBody,
} from "@idp/contracts";
import type { HttpResponse } from "./http.ts";

// Each judge returns undefined when the answer follows the rule, else one line: expected vs received.

const isJsonContentType = (ct: string | undefined) =>
  ct !== undefined && /^application\/json\s*(;.*)?$/i.test(ct.trim());

/** R2: application/json and a body with error, error_description, errors. */
export function errorBodyProblem(res: HttpResponse): string | undefined {
  if (!isJsonContentType(res.contentType))
    return `R2: a ${res.status} answer must have Content-Type application/json, got ${res.contentType === undefined ? "none" : JSON.stringify(res.contentType)}`;
  if (res.truncated) return `R2: the ${res.status} error body is longer than 1 MiB (cut)`;
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString("utf8"));
  } catch {
    return `R2: the ${res.status} error body is not JSON`;
  }
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "(body)";
    return `R2: the ${res.status} error body needs error (string), error_description (string), errors (array of strings); ${where}: ${issue?.message ?? "invalid"}`;
  }
  return undefined;
}

/** R1: 401 with the error body, `error` = authentication_failed. */
export function authRejectionProblem(res: HttpResponse): string | undefined {
  if (res.status !== 401)
    return `R1: a request without acceptable credentials must get 401, got ${res.status}`;
  const bodyProblem = errorBodyProblem(res);
  if (bodyProblem) return `R1: 401 without the error body (${bodyProblem})`;
  const { error } = JSON.parse(res.body.toString("utf8")) as { error: string };
  if (error !== AUTHENTICATION_FAILED)
    return `R1: a 401 must carry error "${AUTHENTICATION_FAILED}", got ${JSON.stringify(error)}`;
  return undefined;
}

/** R3: the status is one the operation documents. */
export function undocumentedStatusProblem(
  operation: DetailedOperationId,
  status: number,
): string | undefined {
  const documented = detailedOperations[operation].documentedStatuses;
  return documented.includes(status)
    ? undefined
    : `R3: ${status} is not a documented status of ${operation} (documented: ${documented.join(", ")})`;
}

/** R6: no 5xx for any generated request. */
export function serverErrorProblem(status: number): string | undefined {
  return status >= 500 ? `R6: a generated request must never get a 5xx, got ${status}` : undefined;
}

/** R8: a success answer carries no body. */
export function successBodyProblem(res: HttpResponse): string | undefined {
  if (res.status < 200 || res.status > 299) return undefined;
  return res.body.length > 0
    ? `R8: a ${res.status} success answer must carry no body, got ${res.truncated ? "more than 1 MiB" : `${res.body.length} bytes`}`
    : undefined;
}
