import {
  Agent,
  createServer as createHttpServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";

// A real HTTP(S) gateway in front of a provider, as staging deployments have one: a token bucket
// that answers 429 (or 503) with or without Retry-After, an API-key header it requires, connections
// it drops now and then, TLS with a certificate of its own (and client certificates, if asked).
// Everything else is forwarded to the upstream as it came.

export interface GatewayOptions {
  /** The provider's origin, e.g. http://127.0.0.1:1234. */
  readonly upstream: string;
  /** Token bucket: requests per second let through; absent: no throttling. */
  readonly ratePerSecond?: number;
  /** Token bucket size (the burst let through at once). @defaultValue max(1, rate / 10) */
  readonly burst?: number;
  /** How a throttled request is answered. @defaultValue 429 */
  readonly throttleStatus?: 429 | 503;
  /** Retry-After of a throttled answer: seconds, an HTTP date, or none. @defaultValue "seconds" */
  readonly retryAfter?: "seconds" | "date" | "none";
  /** Throttle every request, whatever the bucket holds. */
  readonly throttleAll?: boolean;
  /** Throttle only the first N requests (then the bucket, if any). */
  readonly throttleFirst?: number;
  /** A header every request must carry, else 403 with a JSON body. */
  readonly requireHeader?: readonly [name: string, value: string];
  /** Drop the connection (no answer) of every Nth request, before forwarding it. */
  readonly dropEvery?: number;
  /** Serve HTTPS with this certificate; `ca` + `requestCert` ask clients for one of theirs. */
  readonly tls?: {
    readonly key: string;
    readonly cert: string;
    readonly ca?: string;
    readonly requestCert?: boolean;
  };
}

export interface RunningGateway {
  /** scheme://127.0.0.1:port */
  readonly origin: string;
  readonly counts: {
    forwarded: number;
    throttled: number;
    dropped: number;
    refused: number;
    /** The values of the required header the gateway saw (tests assert the key arrived). */
    readonly headerValues: Set<string>;
  };
  close(): Promise<void>;
}

const httpDate = (ms: number) => new Date(ms).toUTCString();

/** How long a refused connection is still read from after its answer (a lingering close). */
const LINGER_MS = 2_000;

/**
 * A request the gateway cannot read (a head over Node's 16 KiB, a malformed line): answered as a
 * real gateway answers it (nginx: 414/431/400 and lingering_close), not as Node does by default.
 * Node writes the answer and destroys the socket at once; a client still sending (a 245 KB request
 * line) then gets a TCP reset that can reach it before the answer, and sees no answer at all.
 * Here the answer goes out with a FIN, and what the client still sends is read and dropped for a
 * while, so the answer is read before the connection closes.
 */
function refuseUnreadable(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const status =
    error.code === "HPE_HEADER_OVERFLOW"
      ? 431
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? 408
        : 400;
  const body = JSON.stringify({ message: STATUS_CODES[status] });
  // The HTTP parser stops at its error: from here on the bytes are only drained.
  socket.removeAllListeners("data");
  socket.on("data", () => undefined);
  socket.on("error", () => undefined);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const upstream = new URL(options.upstream);
  // An idle upstream connection is dropped after 1 s. Without a timeout Node's agent kept it until
  // the upstream closed it (the reference provider: after 5 s idle), and a request handed to it as
  // that close came was reset: a 502 from here that no provider sent (seen once in CI, under
  // load, on a 741 KB POST). With one, the agent also honours the upstream's Keep-Alive hint.
  const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 1_000 });
  const counts = {
    forwarded: 0,
    throttled: 0,
    dropped: 0,
    refused: 0,
    headerValues: new Set<string>(),
  };
  const rate = options.ratePerSecond;
  const capacity = options.burst ?? Math.max(1, Math.floor((rate ?? 10) / 10));
  let tokens = capacity;
  let last = performance.now();
  let seen = 0;

  const takeToken = (): boolean => {
    if (rate === undefined) return true;
    const now = performance.now();
    tokens = Math.min(capacity, tokens + ((now - last) / 1000) * rate);
    last = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };

  const throttle = (res: ServerResponse) => {
    counts.throttled++;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if ((options.retryAfter ?? "seconds") === "seconds") headers["retry-after"] = "1";
    else if (options.retryAfter === "date") headers["retry-after"] = httpDate(Date.now() + 1000);
    res
      .writeHead(options.throttleStatus ?? 429, headers)
      .end(JSON.stringify({ message: "API rate limit exceeded" }));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const n = ++seen;
    if (options.dropEvery && n % options.dropEvery === 0) {
      counts.dropped++;
      req.socket.destroy();
      return;
    }
    const required = options.requireHeader;
    if (required) {
      const got = req.headers[required[0].toLowerCase()];
      if (typeof got === "string") counts.headerValues.add(got);
      if (got !== required[1]) {
        counts.refused++;
        res
          .writeHead(403, { "content-type": "application/json" })
          .end(JSON.stringify({ message: `missing or wrong ${required[0]}` }));
        req.resume();
        return;
      }
    }
    if (
      options.throttleAll ||
      (options.throttleFirst !== undefined && n <= options.throttleFirst) ||
      !takeToken()
    ) {
      req.resume();
      throttle(res);
      return;
    }
    counts.forwarded++;
    const headers = { ...req.headers, host: upstream.host };
    const out = request(
      {
        agent,
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        // An answer before the whole body (a 401 to a large POST): the upstream may stop reading
        // and close. What is left of the body is read and dropped here, as Node's server and nginx
        // do, and that upstream connection is not reused; left to pipe(), the client's request
        // would stay paused once the upstream closed, and its send would never finish.
        up.on("end", () => {
          if (req.readableEnded) return;
          req.unpipe(out);
          out.destroy();
          req.resume();
        });
      },
    );
    out.on("error", (error: NodeJS.ErrnoException) => {
      // The upstream is gone: the rest of the client's body is read and dropped (pipe() stops at
      // its destination's error and would leave the request paused).
      req.unpipe(out);
      req.resume();
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      // Why, in the body a failing run cites: a 502 of this gateway is never the provider's.
      res.end(JSON.stringify({ message: "bad gateway", cause: error.code ?? error.message }));
    });
    req.pipe(out);
  };

  const server: Server = options.tls
    ? createHttpsServer(
        {
          key: options.tls.key,
          cert: options.tls.cert,
          ...(options.tls.ca ? { ca: options.tls.ca } : {}),
          ...(options.tls.requestCert ? { requestCert: true, rejectUnauthorized: true } : {}),
        },
        handle,
      )
    : createHttpServer(handle);
  server.keepAliveTimeout = 10_000;
  server.on("clientError", refuseUnreadable);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    counts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
