import type { Dispatcher } from "undici";

/** Response bodies are read up to this many bytes, then cut (the same cap for Pact's guard). */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpRequest {
  /** scheme://host:port: a proxy dispatcher needs it; a pool knows its own. */
  readonly origin?: string;
  readonly method: string;
  /** Path and query, relative to the dispatcher's origin. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

export interface HttpResponse {
  readonly kind: "response";
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly contentType: string | undefined;
  readonly body: Buffer;
  /** The body was longer than the cap and was cut. */
  readonly truncated: boolean;
  readonly durationMs: number;
}

export interface TransportFailure {
  readonly kind: "transport-error";
  /** ECONNREFUSED, ECONNRESET, ETIMEDOUT, HPE_INVALID_CONSTANT, ... */
  readonly code: string;
  readonly message: string;
  readonly durationMs: number;
}

export type HttpResult = HttpResponse | TransportFailure;

export interface SendOptions {
  /** The whole exchange (connect, headers and body) must end within this. */
  readonly timeoutMs: number;
  readonly maxBodyBytes?: number;
}

const EMPTY = Buffer.alloc(0);

/** The answer made of what was read: the body's chunks joined (up to the cap when `truncated`). */
export function responseOf(
  status: number,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  chunks: readonly Buffer[],
  size: number,
  truncated: boolean,
  started: number,
): HttpResponse {
  const contentType = headers["content-type"];
  return {
    kind: "response",
    status,
    headers,
    contentType: Array.isArray(contentType) ? contentType.join(", ") : contentType,
    body:
      chunks.length === 0
        ? EMPTY
        : chunks.length === 1
          ? (chunks[0] as Buffer)
          : Buffer.concat(chunks, size),
    truncated,
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * One HTTP exchange through an undici dispatcher (a proxy; direct connections are h1-pool.ts's),
 * with full control: an overall deadline (a provider that drips a byte at a time
 * cannot hold it), the body read up to a cap, redirects never followed (undici's dispatch does not
 * follow them), and every failure returned as a result, never thrown. Built on undici's dispatch
 * handler (no streams, no promise per chunk): it is the verifier's hot path.
 */
export function send(
  dispatcher: Dispatcher,
  req: HttpRequest,
  options: SendOptions,
): Promise<HttpResult> {
  const started = performance.now();
  const cap = options.maxBodyBytes ?? MAX_BODY_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let headers:
      | Dispatcher.DispatchController["rawHeaders"]
      | Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    const finish = (result: HttpResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const respond = (truncated: boolean) =>
      finish(
        responseOf(
          status,
          headers as Record<string, string | string[] | undefined>,
          chunks,
          size,
          truncated,
          started,
        ),
      );
    const timer = setTimeout(() => {
      timedOut = true;
      controller?.abort(new Error("deadline"));
      finish({
        kind: "transport-error",
        code: "ETIMEDOUT",
        message: `no complete answer within ${options.timeoutMs} ms`,
        durationMs: Math.round(performance.now() - started),
      });
    }, options.timeoutMs);
    try {
      dispatcher.dispatch(
        {
          ...(req.origin ? { origin: req.origin } : {}),
          method: req.method as Dispatcher.HttpMethod,
          path: req.path,
          headers: req.headers,
          ...(req.body === undefined ? {} : { body: req.body }),
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        },
        {
          onRequestStart(c) {
            controller = c;
            if (settled) c.abort(new Error("deadline"));
          },
          onResponseStart(_c, statusCode, h) {
            status = statusCode;
            headers = h;
          },
          onResponseData(c, chunk) {
            if (settled) return;
            const room = cap - size;
            if (chunk.length > room) {
              if (room > 0) chunks.push(chunk.subarray(0, room));
              size = cap;
              // Stop reading at once: a hostile provider's 512 MiB body never enters memory.
              respond(true);
              c.abort(new Error("body cap"));
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          },
          onResponseEnd() {
            respond(false);
          },
          onResponseError(_c, error) {
            if (settled || timedOut) return;
            finish({
              kind: "transport-error",
              ...transportError(error),
              durationMs: Math.round(performance.now() - started),
            });
          },
        },
      );
    } catch (error) {
      finish({
        kind: "transport-error",
        ...transportError(error),
        durationMs: Math.round(performance.now() - started),
      });
    }
  });
}

/** The most specific code and message of a network error (undici wraps the system error in `cause`). */
function transportError(e: unknown): { code: string; message: string } {
  const err = e as {
    code?: unknown;
    message?: unknown;
    cause?: { code?: unknown; message?: unknown };
  };
  const causeCode = typeof err.cause?.code === "string" ? err.cause.code : undefined;
  // undici's HTTPParserError carries no code for some protocol errors: name it like llhttp does.
  const parser = (e as Error)?.name === "HTTPParserError" ? "HPE_INVALID_RESPONSE" : undefined;
  const code = causeCode ?? (typeof err.code === "string" ? err.code : (parser ?? "EREQUEST"));
  const message =
    typeof err.cause?.message === "string" && causeCode
      ? err.cause.message
      : typeof err.message === "string"
        ? err.message
        : String(e);
  const friendly: Record<string, string> = {
    UND_ERR_SOCKET: "the connection was closed before a complete answer",
    UND_ERR_HEADERS_TIMEOUT: "no answer headers in time",
    UND_ERR_BODY_TIMEOUT: "the answer body stalled",
    UND_ERR_CONNECT_TIMEOUT: "could not connect in time",
    UND_ERR_RESPONSE_STATUS_CODE: "bad status line",
  };
  return { code, message: friendly[code] ? `${friendly[code]} (${message})` : message };
}
