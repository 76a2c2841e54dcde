import {
  type BodyViolation,
  classifyJsonBody,
  classifyRequestBody,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  formatPath,
} from "@idp/contracts";
import { bodyErrorCode, ERROR_CODES, errorResponse } from "./error-body.ts";

/** Bodies above 1 MiB are refused before they are parsed. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export type BodyRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: "too-large" | "not-utf8" | "aborted" };

/** Reads a request body as UTF-8 text, stopping at `limit` bytes. Never throws on client input. */
export async function readBodyText(request: Request, limit = BODY_LIMIT_BYTES): Promise<BodyRead> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return { ok: false, reason: "too-large" };
  if (request.body === null) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      return { ok: false, reason: "aborted" };
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, reason: "too-large" };
    }
    chunks.push(value);
  }
  try {
    // ignoreBOM keeps a leading BOM in the text, so the contract (not the decoder) judges it.
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
      Buffer.concat(chunks),
    );
    return { ok: true, text };
  } catch {
    return { ok: false, reason: "not-utf8" };
  }
}

export type AcceptedBody =
  | {
      readonly ok: true;
      readonly body: Record<string, unknown>;
      readonly wrapped: Record<string, unknown>;
    }
  | { readonly ok: false; readonly response: Response };

/**
 * Reads and classifies the body of a detailed operation with the default profile (conformance.md
 * §2-3). On success, `wrapped` is the wrapper object (`schema`, `data`, `rules`) exactly as sent,
 * unknown keys included, because the default profile accepts them.
 */
export async function acceptBody(
  operation: DetailedOperationId,
  request: Request,
): Promise<AcceptedBody> {
  const mapping = defaultProfile.statusMapping[operation];
  const read = await readBodyText(request);
  if (!read.ok) {
    // A body we cannot read as text is "not JSON" for the pinned mapping; too large gets the same
    // documented client error (the spec documents no 413).
    const status = mapping["not-json"];
    const description = {
      "too-large": `the request body is larger than ${BODY_LIMIT_BYTES} bytes`,
      "not-utf8": "the request body is not valid UTF-8, so it is not JSON",
      aborted: "the request body could not be read to its end",
    }[read.reason];
    const code = read.reason === "too-large" ? ERROR_CODES.payloadTooLarge : bodyErrorCode(status);
    return {
      ok: false,
      response: errorResponse(status, code, description, [description], {
        ...(read.reason === "too-large" ? { connection: "close" } : {}),
      }),
    };
  }
  let parsed: unknown;
  let isJson = true;
  try {
    parsed = JSON.parse(read.text);
  } catch {
    isJson = false;
  }
  const classification = isJson
    ? classifyJsonBody(operation, parsed, defaultProfile)
    : classifyRequestBody(operation, read.text, defaultProfile);
  if (classification.outcome === "valid") {
    const body = parsed as Record<string, unknown>;
    const wrapperKey = detailedOperations[operation].wrapperKey;
    return { ok: true, body, wrapped: body[wrapperKey] as Record<string, unknown> };
  }
  // `unspecified` (e.g. a missing field under the default profile): the spec is silent, and this
  // provider chooses to reject it with the status the pinned mapping gives that violation.
  const status = classification.status;
  const violations = classification.violations;
  const first: BodyViolation | undefined =
    classification.outcome === "invalid" ? classification.violation : violations[0];
  const description = first
    ? `the request body is invalid: ${describe(first)}`
    : "the request body is invalid";
  return {
    ok: false,
    response: errorResponse(status, bodyErrorCode(status), description, violations.map(describe)),
  };
}

const describe = (v: BodyViolation): string =>
  v.message.startsWith(formatPath(v.path)) || v.path.length === 0
    ? v.message
    : `${formatPath(v.path)}: ${v.message}`;
