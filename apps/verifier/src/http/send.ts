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
  /**
   * Whether bytes nobody asked for came on its connection soon after it (it may then be another
   * request's answer: conformance.md §9). Asked before a failure is reported; resolves in ~10 ms.
   */
  readonly suspect?: () => Promise<boolean>;
  /** The Content-Encoding undone before judging (`body` is decoded), e.g. `gzip`. */
  readonly decoded?: string;
}

export interface TransportFailure {
  readonly kind: "transport-error";
  /** ECONNREFUSED, ECONNRESET, ETIMEDOUT, HPE_INVALID_CONSTANT, ... */
  readonly code: string;
  readonly message: string;
  readonly durationMs: number;
  /**
   * May be sent again, once, on a new connection: a connection kept alive that waited idle was
   * closed before one byte of the answer, or bytes nobody asked for followed the answer on a
   * connection kept alive (conformance.md §9).
   */
  readonly retry?: "idle-close" | "stray";
  /** An answer whose body does not match its Content-Encoding: its status and the coding. */
  readonly answered?: { readonly status: number; readonly coding: string };
}

export type HttpResult = HttpResponse | TransportFailure;

export interface SendOptions {
  /** The whole exchange (connect, headers and body) must end within this. */
  readonly timeoutMs: number;
  readonly maxBodyBytes?: number;
  /** On a new connection (a request sent again). */
  readonly fresh?: boolean;
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

/** Kept-alive connections to one origin that send requests and read their answers. */
export interface Transport {
  send(req: HttpRequest, options: SendOptions): Promise<HttpResult>;
  /** Closes every connection; requests still waiting fail. */
  destroy(): Promise<void>;
}
