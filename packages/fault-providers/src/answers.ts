// How the hand provider answers: error bodies (R2), success without a body (R8), and the faults
// that change every answer (echo of credentials, huge bodies, a broken 422).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import type { Reading } from "./body-shapes.ts";
import type { Fault } from "./faults.ts";
import type { Problem } from "./judge-body.ts";
import { hugeErrorBodyParts, streamLazily } from "./lazy-body.ts";

/** An element of `errors`: a message, or (observed-service reading) a field problem. */
export type ErrorItem = string | Problem;

export interface AnswerConfig {
  readonly reading: Reading;
  readonly faults: ReadonlySet<Fault>;
  readonly bigBodyBytes: number;
  /** The Content-Type of JSON answers. */
  readonly jsonType: string;
  /** The body of a request (fault latin1-error-bodies echoes it). */
  readonly bodyOf: (req: IncomingMessage) => Buffer | "too-large" | undefined;
  /** Error bodies sent compressed, labelled with their Content-Encoding (HTTP lets a server choose). */
  readonly errorCoding?: ErrorCoding;
}

/** A content coding the provider may compress its error bodies with. */
export type ErrorCoding = "gzip" | "deflate" | "br";

const ENCODE: Record<ErrorCoding, (b: Buffer) => Buffer> = {
  gzip: (b) => gzipSync(b),
  // RFC 9110 §8.4.1.2: "deflate" is the zlib format.
  deflate: (b) => deflateSync(b),
  br: (b) => brotliCompressSync(b),
};

/** `error` codes: the spec shows only authentication_failed; the rest are this provider's words. */
const CODES: Record<Reading, Record<number, string>> = {
  default: {
    400: "bad_request",
    401: "authentication_failed",
    403: "forbidden",
    404: "record_not_found",
    405: "method_not_allowed",
    422: "parameter_error",
    500: "server_error",
  },
  // As the service's public developer documentation shows them (issue 13).
  "observed-service": {
    400: "bad_request",
    401: "authentication_failed",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    422: "unprocessable_entity",
    500: "internal_server_error",
  },
};

/** The Content-Type of JSON answers unless the options name another. */
export const JSON_TYPE = "application/json; charset=utf-8";

/** How much of a request body fault latin1-error-bodies echoes. */
const ECHOED = 200;

/** Text written as ISO-8859-1, as a servlet's writer does by default: `?` for what it cannot hold. */
const latin1 = (text: string) =>
  Buffer.from(
    [...text].map((c) => ((c.codePointAt(0) as number) > 0xff ? "?" : c)).join(""),
    "latin1",
  );

// Header values must be visible ASCII or Latin-1; anything else is percent-encoded so that an echo
// never throws (a leak in another spelling is still a leak).
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;
const headerValue = (s: string) => (HEADER_SAFE.test(s) ? s : encodeURIComponent(s));

/** The Authorization value and what it decodes to, leniently (even "no colon" leaks the secret). */
export function echoedCredentials(
  req: IncomingMessage,
): { raw: string; decoded: string } | undefined {
  const raw = req.headers.authorization;
  if (raw === undefined) return undefined;
  const token = raw.slice(raw.indexOf(" ") + 1).trim();
  return { raw, decoded: Buffer.from(token, "base64").toString("utf8") };
}

export function createAnswers(config: AnswerConfig) {
  const { faults, reading, jsonType } = config;
  const echo = faults.has("echo-authorization");
  const big = faults.has("big-body");

  const echoHeaders = (req: IncomingMessage, headers: OutgoingHttpHeaders) => {
    const e = echo ? echoedCredentials(req) : undefined;
    if (e) {
      headers["x-echo-authorization"] = headerValue(e.raw);
      // The decoded bytes as Latin-1: on the wire they are exactly the UTF-8 bytes received.
      const bytes = Buffer.from(e.decoded, "utf8").toString("latin1");
      headers["x-echo-credentials"] = headerValue(bytes);
    }
    return headers;
  };

  const renderItem = (
    item: ErrorItem,
  ): string | { attribute: string; message: string; code: string } => {
    if (typeof item === "string") return item;
    if (reading === "observed-service")
      return { attribute: item.attribute, message: item.message, code: item.code };
    return item.attribute === "" ? item.message : `${item.attribute} ${item.message}`;
  };

  /** Answers `status` with the error body of R2 (`code` overrides the status's usual `error`). */
  function fail(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    description: string,
    items: readonly ErrorItem[],
    code?: string,
  ) {
    const headers = echoHeaders(req, {});
    if (status === 401) headers["www-authenticate"] = 'Basic realm="idp", charset="UTF-8"';
    if (status === 422 && faults.has("broken-error-body")) {
      headers["content-type"] = "text/plain";
      res.writeHead(status, headers);
      res.end("parameter error");
      return;
    }
    headers["content-type"] = jsonType;
    if (big) return huge(res, status, headers);
    let error = code ?? CODES[reading][status] ?? "error";
    if (status === 401 && faults.has("auth-wrong-error")) error = "unauthorized";
    const errors = items.map(renderItem);
    let errorDescription = description;
    const e = echo ? echoedCredentials(req) : undefined;
    if (e) {
      errorDescription += ` (received Authorization: ${e.raw}, credentials ${e.decoded})`;
      errors.push(`Authorization: ${e.raw}`, `credentials: ${e.decoded}`);
    }
    if ((status === 400 || status === 422) && faults.has("latin1-error-bodies")) {
      const raw = config.bodyOf(req);
      const received = raw === undefined || raw === "too-large" ? "" : raw.toString("utf8");
      errorDescription += `; received: ${received.slice(0, ECHOED)}`;
      const bytes = latin1(JSON.stringify({ error, error_description: errorDescription, errors }));
      headers["content-type"] = "application/json";
      headers["content-length"] = bytes.length;
      res.writeHead(status, headers);
      res.end(bytes);
      return;
    }
    const text = JSON.stringify({ error, error_description: errorDescription, errors });
    let body: Buffer = Buffer.from(text, "utf8");
    if (faults.has("wrong-content-coding")) headers["content-encoding"] = "gzip";
    else if (config.errorCoding) {
      body = ENCODE[config.errorCoding](body);
      headers["content-encoding"] = config.errorCoding;
      headers.vary = "accept-encoding";
    }
    headers["content-length"] = body.length;
    res.writeHead(status, headers);
    res.end(body);
  }

  /** A success answer: no body (R8), unless a fault adds one. */
  function succeed(req: IncomingMessage, res: ServerResponse, status: number) {
    if (!echo && !big) {
      // The hot path of a benchmark: no header object to build.
      res.writeHead(status);
      res.end();
      return;
    }
    const headers = echoHeaders(req, {});
    if (big) {
      headers["content-type"] = jsonType;
      return huge(res, status, headers);
    }
    res.writeHead(status, headers);
    res.end();
  }

  /** A success answer with a JSON body (fault body-on-success). */
  function succeedWithBody(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: unknown,
  ) {
    const text = JSON.stringify(body);
    res.writeHead(
      status,
      echoHeaders(req, { "content-type": jsonType, "content-length": Buffer.byteLength(text) }),
    );
    res.end(text);
  }

  function huge(res: ServerResponse, status: number, headers: OutgoingHttpHeaders) {
    const { prefix, suffix } = hugeErrorBodyParts(config.bigBodyBytes);
    headers["content-length"] = config.bigBodyBytes;
    res.writeHead(status, headers);
    streamLazily(res, config.bigBodyBytes, prefix, suffix);
  }

  return { fail, succeed, succeedWithBody };
}

export type Answers = ReturnType<typeof createAnswers>;
