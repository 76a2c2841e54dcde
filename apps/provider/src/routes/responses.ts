import { ERROR_CODES, errorResponse } from "../error-body.ts";

/** Success answers of the detailed operations carry no body (R8). */
export const noBody = (status: 200 | 201 | 204): Response =>
  new Response(null, { status, headers: status === 204 ? {} : { "content-length": "0" } });

export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });

export const methodNotAllowed = (allowed: readonly string[]): Response =>
  errorResponse(
    405,
    ERROR_CODES.methodNotAllowed,
    `this path accepts only ${allowed.join(", ")}`,
    undefined,
    { allow: allowed.join(", ") },
  );
