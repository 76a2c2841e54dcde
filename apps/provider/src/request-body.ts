import {
  type BodyClassification,
  type BodyViolation,
  classifyJsonBody,
  classifyRequestBody,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  formatPath,
  type JsonPath,
} from "@idp/contracts";
import { bodyErrorCode, ERROR_CODES, errorResponse } from "./error-body.ts";
import {
  inspectStructure,
  JSON_BOUNDS,
  type StructureProblem,
  shortenLongKeys,
} from "./json-bounds.ts";
import { utf8Text } from "./utf8-text.ts";

/** Bodies above 1 MiB are refused before they are parsed. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** A rejected body lists at most this many violations in `errors` (the last entry says how many more). */
export const MAX_LISTED_VIOLATIONS = 100;
/** Each listed violation is cut to this many characters. */
const MAX_VIOLATION_LENGTH = 1000;

export type BodyRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: "too-large" | "not-utf8" | "aborted" | "timeout" };

export interface BodyReadOptions {
  /** @defaultValue BODY_LIMIT_BYTES */
  readonly limit?: number;
  /** The whole body must arrive within this many ms of the start of reading; 0 waits forever. */
  readonly timeoutMs?: number;
}

const TIMED_OUT = Symbol("timed out");

/** Reads a request body as UTF-8 text, stopping at `limit` bytes. Never throws on client input. */
export async function readBodyText(
  request: Request,
  { limit = BODY_LIMIT_BYTES, timeoutMs = 0 }: BodyReadOptions = {},
): Promise<BodyRead> {
  const lengthHeader = request.headers.get("content-length");
  const declared = lengthHeader === null ? Number.NaN : Number(lengthHeader);
  if (Number.isFinite(declared) && declared > limit) return { ok: false, reason: "too-large" };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline =
    timeoutMs > 0
      ? new Promise<typeof TIMED_OUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
        })
      : undefined;
  try {
    const bytes = Number.isFinite(declared)
      ? await readDeclared(request, deadline)
      : await readStreamed(request, limit, deadline);
    if (typeof bytes === "string") return { ok: false, reason: bytes };
    return decodeUtf8(bytes);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A body of a declared length within the limit, read whole. Node's parser stops at that length, and
 * on node:http @hono/node-server reads such a body straight off the socket, with no web stream
 * between (the stream was most of the reference provider's time per request).
 */
async function readDeclared(
  request: Request,
  deadline: Promise<typeof TIMED_OUT> | undefined,
): Promise<Uint8Array | "aborted" | "timeout"> {
  const read = request.arrayBuffer().then(
    (b) => new Uint8Array(b),
    () => "aborted" as const,
  );
  const got = await (deadline ? Promise.race([read, deadline]) : read);
  return got === TIMED_OUT ? "timeout" : got;
}

/** A body of no declared length (chunked), read chunk by chunk up to `limit` bytes. */
async function readStreamed(
  request: Request,
  limit: number,
  deadline: Promise<typeof TIMED_OUT> | undefined,
): Promise<Uint8Array | "too-large" | "aborted" | "timeout"> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>> | typeof TIMED_OUT;
    try {
      chunk = await (deadline ? Promise.race([reader.read(), deadline]) : reader.read());
    } catch {
      return "aborted";
    }
    if (chunk === TIMED_OUT) {
      await reader.cancel().catch(() => undefined);
      return "timeout";
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return "too-large";
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function decodeUtf8(bytes: Uint8Array): BodyRead {
  const text = utf8Text(bytes);
  return text === undefined ? { ok: false, reason: "not-utf8" } : { ok: true, text };
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
 * §2-3), within the structural bounds of `JSON_BOUNDS`. On success, `wrapped` is the wrapper object
 * (`schema`, `data`, `rules`) exactly as parsed, unknown keys included, because the default profile
 * accepts them.
 */
export async function acceptBody(
  operation: DetailedOperationId,
  request: Request,
  { timeoutMs = 0 }: { readonly timeoutMs?: number } = {},
): Promise<AcceptedBody> {
  const mapping = defaultProfile.statusMapping[operation];
  const read = await readBodyText(request, { timeoutMs });
  if (!read.ok) {
    // A body we cannot read as text is "not JSON" for the pinned mapping; too large or too slow
    // gets the same documented client error (the spec documents no 408 or 413).
    const status = mapping["not-json"];
    const description = {
      "too-large": `the request body is larger than ${BODY_LIMIT_BYTES} bytes`,
      "not-utf8": "the request body is not valid UTF-8, so it is not JSON",
      aborted: "the request body could not be read to its end",
      timeout: `the request body did not arrive within ${timeoutMs / 1000} s`,
    }[read.reason];
    const code = read.reason === "too-large" ? ERROR_CODES.payloadTooLarge : bodyErrorCode(status);
    // No `Connection: close`: Node would close at once, and a client still sending (a large or a
    // dripping body) would get a TCP reset that can destroy the answer before it reads it. The
    // server adapter drains the rest for 500 ms (at most 64 MiB), then closes: a lingering close.
    return { ok: false, response: errorResponse(status, code, description) };
  }
  let parsed: unknown;
  let isJson = true;
  try {
    // Iterative in V8: a 500,000-level array parses; depth is bounded below, after parsing.
    parsed = JSON.parse(read.text);
  } catch {
    isJson = false;
  }
  if (!isJson) {
    const classification = classifyRequestBody(operation, read.text, defaultProfile);
    // Text that JSON.parse refuses is never valid; were it, the object checks below would judge it.
    if (classification.outcome !== "valid") return rejected(classification);
  }
  const structure = inspectStructure(parsed);
  // Under a well-formed wrapper, every violation the contract check finds (wrong type, missing
  // field) has the same pinned status; so does a body beyond the structural bounds.
  const contentStatus = mapping["wrong-type"];
  let classification: BodyClassification;
  try {
    classification = classifyJsonBody(
      operation,
      structure.hasLongKey ? shortenLongKeys(parsed) : parsed,
      defaultProfile,
    );
  } catch (error) {
    // zod collects a record's issues with push(...issues): past ~120,000 violations under one
    // feature that spread overflows the stack. The wrapper was checked before zod ran.
    if (!(error instanceof RangeError)) throw error;
    const description =
      "the request body is invalid: it holds more wrong-typed values than can be listed";
    return {
      ok: false,
      response: errorResponse(contentStatus, bodyErrorCode(contentStatus), description),
    };
  }
  if (classification.outcome !== "valid") return rejected(classification);
  if (structure.problem !== undefined) {
    const description = `the request body is not accepted: ${describeProblem(structure.problem)}`;
    return {
      ok: false,
      response: errorResponse(contentStatus, bodyErrorCode(contentStatus), description),
    };
  }
  const body = parsed as Record<string, unknown>;
  const wrapperKey = detailedOperations[operation].wrapperKey;
  return { ok: true, body, wrapped: body[wrapperKey] as Record<string, unknown> };
}

/**
 * The answer to a body the contracts reject. `unspecified` (e.g. a missing field under the default
 * profile): the spec is silent, and this provider rejects it with the status of that violation.
 */
function rejected(classification: Exclude<BodyClassification, { outcome: "valid" }>): {
  ok: false;
  response: Response;
} {
  const { status, violations } = classification;
  const first: BodyViolation | undefined =
    classification.outcome === "invalid" ? classification.violation : violations[0];
  const description = first
    ? `the request body is invalid: ${describe(first)}`
    : "the request body is invalid";
  // A 1 MiB body can hold 500,000 violations (37 MB of messages): list the first ones only.
  const listed = violations.slice(0, MAX_LISTED_VIOLATIONS).map(describe);
  const more = violations.length - listed.length;
  if (more > 0) listed.push(`... and ${more} more violations`);
  return {
    ok: false,
    response: errorResponse(status, bodyErrorCode(status), description, listed),
  };
}

const cut = (text: string): string =>
  text.length > MAX_VIOLATION_LENGTH ? `${text.slice(0, MAX_VIOLATION_LENGTH - 1)}…` : text;

const describe = (v: BodyViolation): string =>
  cut(
    v.message.startsWith(formatPath(v.path)) || v.path.length === 0
      ? v.message
      : `${formatPath(v.path)}: ${v.message}`,
  );

/** A path for a message: its first segments, each cut short, so the message stays one line. */
const shortPath = (path: JsonPath): string => {
  const shown = path
    .slice(0, 4)
    .map((seg) => (typeof seg === "string" && seg.length > 40 ? `${seg.slice(0, 39)}…` : seg));
  return `${formatPath(shown)}${path.length > 4 ? "…" : ""}`;
};

function describeProblem(problem: StructureProblem): string {
  switch (problem.kind) {
    case "too-deep":
      return `it nests more than ${JSON_BOUNDS.maxDepth} levels deep (at ${shortPath(problem.path)}); this provider accepts at most ${JSON_BOUNDS.maxDepth}`;
    case "number-out-of-range":
      return `${shortPath(problem.path)} is a number beyond the range of a 64-bit float (about ±1.8e308), which JSON.parse reads as Infinity`;
  }
}
