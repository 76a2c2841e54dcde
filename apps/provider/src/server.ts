import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Duplex } from "node:stream";
import { getRequestListener, RequestError } from "@hono/node-server";
import { ERROR_CODES, type ErrorCode } from "./error-body.ts";
import type { LogSink } from "./log.ts";

/** Socket limits: slow or stuck clients are cut off instead of holding the server. */
export interface ServerLimits {
  /** Time from a request's first byte (or the connection) to the end of its headers. */
  readonly headersTimeoutMs: number;
  /** Time from the end of the headers to the end of the body, for an operation that reads one. */
  readonly bodyTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  readonly keepAliveTimeoutMs: number;
  /** Request line + headers above this get 431. */
  readonly maxHeaderSizeBytes: number;
  /**
   * How often Node checks the headers timeout (and the backstop below). Node's default, 30 s, let
   * slow headers live 29 s against a 10 s limit; a quarter second keeps every limit within 0.25 s.
   */
  readonly checkIntervalMs: number;
}

/** The documented defaults (README, "Limits"). */
export const SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderSizeBytes: 16 * 1024,
  checkIntervalMs: 250,
};

type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface RunningServer {
  readonly port: number;
  close(): Promise<void>;
}

export interface ServerOptions {
  readonly fetch: FetchHandler;
  readonly port: number;
  readonly host: string;
  readonly limits: ServerLimits;
  readonly log: LogSink;
  /** The pinned status for a body that cannot be read, by method and path (400, or 422). */
  readonly unreadableBodyStatus: (method: string, path: string) => 400 | 422;
}

/** One answer written below the app, as bytes: the error body, JSON, and the connection closed. */
export function rawErrorAnswer(
  status: number,
  error: ErrorCode,
  description: string,
  headers: Record<string, string> = {},
): string {
  const body = JSON.stringify({ error, error_description: description, errors: [description] });
  const lines = Object.entries({
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    ...headers,
    Connection: "close",
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\n${lines.join("")}\r\n${body}`;
}

/** What the socket is doing, so a late error does not write a second answer to one request. */
interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

/**
 * Serves `fetch` on node:http. Every answer written here, below the app, carries the error body:
 * Node's own answers (400 for a missing Host, 417 for an unknown `Expect`, a dropped CONNECT, 400,
 * 408 and 431 from `clientError`) have none, so each case is taken over.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { limits, log } = options;
  const current = new WeakMap<Duplex, Exchange>();
  // The target up to its query: a query string could carry anything (the app logs paths only too).
  const logAnswer = (method: string | undefined, target: string | undefined, status: number) =>
    log({
      level: "info",
      msg: "request",
      method,
      path: target?.split(/[?#]/, 1)[0],
      status,
      below: "http",
    });

  const listener = getRequestListener(options.fetch, {
    // HTTP/1.0 may omit Host (RFC 9112 §3.2 requires it of 1.1 only, checked below).
    hostname: "localhost",
    // The request could not become a fetch Request: Host or target is malformed (e.g. `OPTIONS *`).
    // (It also gets what the app throws synchronously, which Hono never does: a 500 then.)
    errorHandler: (error) => {
      const [status, code, description] =
        error instanceof RequestError
          ? [400, ERROR_CODES.invalidRequest, requestErrorDescription(error)]
          : [500, ERROR_CODES.serverError, "the server failed to answer this request"];
      return new Response(
        JSON.stringify({ error: code, error_description: description, errors: [description] }),
        { status, headers: { "content-type": "application/json; charset=utf-8" } },
      );
    },
  });

  const server: Server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    // Backstop only: the app times the body of the operations that read one (their pinned
    // 400/422). This closes a connection whose unread body still trickles in after its answer.
    requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs + 1_000,
    connectionsCheckingInterval: limits.checkIntervalMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: limits.maxHeaderSizeBytes,
    // Node answers a missing Host with an empty 400; we answer it with the error body instead.
    requireHostHeader: false,
  });

  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    current.set(req.socket, { req, res });
    const hostProblem = checkHost(req);
    if (hostProblem !== undefined) {
      const body = JSON.stringify({
        error: ERROR_CODES.invalidRequest,
        error_description: hostProblem,
        errors: [hostProblem],
      });
      res.writeHead(400, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(body),
        connection: "close",
      });
      res.end(body);
      logAnswer(req.method, req.url, 400);
      return;
    }
    void listener(req, res);
  };
  server.on("request", serve);
  // Any `Expect` but 100-continue: RFC 9110 §10.1.1 lets a server ignore an expectation it does
  // not know, which keeps every answer one the operation documents (Node would answer 417).
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res);
  });
  // Node drops a CONNECT without a word unless someone listens. This is no proxy: say so.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => undefined);
    logAnswer(req.method, req.url, 405);
    socket.end(
      rawErrorAnswer(
        405,
        ERROR_CODES.methodNotAllowed,
        "CONNECT is not served: this server is not a proxy",
        { Allow: "" },
      ),
    );
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const last = current.get(socket);
    const inProgress = last !== undefined && !last.res.writableFinished ? last : undefined;
    // Nothing can be said on a closed socket, or once an answer has started on this one; and a
    // body still trickling in after its answer (an operation that did not need it) is just cut.
    if (
      error.code === "ECONNRESET" ||
      !socket.writable ||
      inProgress?.res.headersSent === true ||
      (last !== undefined && inProgress === undefined && !last.req.complete)
    ) {
      socket.destroy();
      return;
    }
    log({ level: "warn", msg: "client error", code: error.code, error: error.message });
    const [status, code, description] = clientErrorAnswer(error, inProgress, options);
    const answer = () => {
      logAnswer(inProgress?.req.method, inProgress?.req.url, status);
      if (socket.writable) socket.end(rawErrorAnswer(status, code, description));
      else socket.destroy();
    };
    // A malformed request pipelined behind one being answered: that answer goes first.
    if (inProgress?.req.complete === true) inProgress.res.once("finish", answer);
    else answer();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address !== null ? address.port : options.port;
  return {
    port: actualPort,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

// RFC 3986 host (reg-name, IPv4, or a bracketed IPv6 literal) and an optional port.
const HOST_FIELD = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{0,5})?$/;

/**
 * RFC 9112 §3.2: an HTTP/1.1 request without Host, and any request with more than one or an
 * invalid one, is answered 400. HTTP/1.0 may omit it.
 */
function checkHost(req: IncomingMessage): string | undefined {
  const hosts: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === "host") hosts.push(req.rawHeaders[i + 1] ?? "");
  }
  const [host] = hosts;
  if (host === undefined) {
    const http11 =
      req.httpVersionMajor > 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1);
    return http11 ? "an HTTP/1.1 request needs a Host header" : undefined;
  }
  if (hosts.length > 1) return `a request carries one Host header; this one has ${hosts.length}`;
  // An "http" URI has a non-empty host (RFC 9110 §4.2.1); the URL parser is the last word.
  if (!HOST_FIELD.test(host) || URL.parse(`http://${host}/`) === null) {
    return "the Host header is not a valid host[:port]";
  }
  return undefined;
}

function requestErrorDescription(error: RequestError): string {
  switch (error.message) {
    case "Invalid host header":
      return "the Host header is not a valid host[:port]";
    // The Host was checked before: what is left is the target (`*`, a backslash, no leading /).
    case "Invalid URL":
    case "Backslash in request path":
      return "the request target must be a path beginning with / (no *, no backslash)";
    case "Invalid absolute URL":
      return "the request target is not a valid absolute http(s) URL";
    default:
      return `the request could not be read: ${error.message}`;
  }
}

function clientErrorAnswer(
  error: NodeJS.ErrnoException,
  inProgress: Exchange | undefined,
  { limits, unreadableBodyStatus }: ServerOptions,
): [number, ErrorCode, string] {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return [
      431,
      ERROR_CODES.headersTooLarge,
      `the request line and headers exceed ${limits.maxHeaderSizeBytes} bytes`,
    ];
  }
  // The body of a request being answered is malformed (bad chunking, oversized chunk extensions)
  // or late: the operation's pinned status for a body that is not JSON; never 408 or 413.
  if (inProgress !== undefined && !inProgress.req.complete) {
    const status = unreadableBodyStatus(inProgress.req.method ?? "", inProgress.req.url ?? "");
    return [
      status,
      status === 400 ? ERROR_CODES.invalidRequest : ERROR_CODES.parameterError,
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? `the request body did not arrive within ${limits.bodyTimeoutMs / 1000} s`
        : `the request body is not valid HTTP/1.1 framing: ${parserReason(error)}`,
    ];
  }
  // No request on the way: its headers did not arrive in time.
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return [
      408,
      ERROR_CODES.requestTimeout,
      `the request headers did not arrive within ${limits.headersTimeoutMs / 1000} s`,
    ];
  }
  return [
    400,
    ERROR_CODES.invalidRequest,
    `the request is not valid HTTP/1.1: ${parserReason(error)}`,
  ];
}

/** llhttp's reason, e.g. "Invalid method encountered", without its "Parse Error: " prefix. */
const parserReason = (error: NodeJS.ErrnoException): string =>
  ((error as { reason?: unknown }).reason as string | undefined) ??
  error.message.replace(/^Parse Error: /, "");
