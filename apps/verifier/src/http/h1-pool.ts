import { Buffer } from "node:buffer";
import { isIP, connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import {
  type HttpRequest,
  type HttpResult,
  MAX_BODY_BYTES,
  responseOf,
  type SendOptions,
} from "./send.ts";
import { type TlsSettings, tlsOptions } from "./settings.ts";
import type { Transport } from "./transport.ts";

// Direct HTTP/1.1 keep-alive connections, written for the verifier's one job: send a request, read
// its whole answer up to a cap, never follow anything. undici's dispatch cost idp-verify ~60 µs of
// CPU a request against a provider on the same machine (measured: a replay of a verification's
// 36,583 requests, undici's dispatch 56-63 µs a request, this way of sending 27-36 µs), and every
// microsecond the verifier spends is one the provider under test does not get on a CI runner.
// Framing follows RFC 9112 §6 (chunked, Content-Length, or the connection's end); a malformed
// answer fails with llhttp's error names (HPE_*), as undici's parser names them.

/** Header section larger than this is not an answer (llhttp's and undici's default). */
const MAX_HEAD_BYTES = 16 * 1024;
/** A kept-alive connection idle this long is closed (a server's own timeout is usually 5 s). */
const KEEP_ALIVE_MS = 4_000;
/** Closed this long before the server says it closes an idle connection (`Keep-Alive: timeout=N`). */
const KEEP_ALIVE_MARGIN_MS = 1_000;
/** A chunk-size line longer than this is not one. */
const MAX_LINE_BYTES = 1024;
const PAYLOAD_METHODS = new Set(["POST", "PUT", "PATCH", "QUERY"]);
/** RFC 9110 field-value (what undici accepts): no control character but tab. */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What undici accepts as a request path: no space, control character or code point above U+00FF. */
const BAD_PATH = /[^\u0021-\u00ff]/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
const HTTP_PREFIX = Buffer.from("HTTP/");
const CRLF = Buffer.from("\r\n");
const HEAD_END = Buffer.from("\r\n\r\n");

type Failure = { readonly code: string; readonly message: string };
const HEADER_OVERFLOW: Failure = { code: "HPE_HEADER_OVERFLOW", message: "Header overflow" };
const BAD_CHUNK_SIZE: Failure = {
  code: "HPE_INVALID_CHUNK_SIZE",
  message: "Invalid character in chunk size",
};

/** One request on its way: settled once, by an answer or a failure. */
class Job {
  readonly req: HttpRequest;
  readonly cap: number;
  readonly started = performance.now();
  readonly #resolve: (r: HttpResult) => void;
  readonly #timer: NodeJS.Timeout;
  settled = false;
  connection: Connection | undefined;
  status = 0;
  headers: Record<string, string | string[]> = {};
  readonly chunks: Buffer[] = [];
  size = 0;

  constructor(req: HttpRequest, options: SendOptions, resolve: (r: HttpResult) => void) {
    this.req = req;
    this.cap = options.maxBodyBytes ?? MAX_BODY_BYTES;
    this.#resolve = resolve;
    this.#timer = setTimeout(() => {
      // The connection may still get the answer later: it cannot carry another request.
      this.connection?.destroy();
      this.fail({
        code: "ETIMEDOUT",
        message: `no complete answer within ${options.timeoutMs} ms`,
      });
    }, options.timeoutMs);
  }

  /** Body bytes; false once the cap is reached (the answer is then complete, cut). */
  data(bytes: Buffer): boolean {
    const room = this.cap - this.size;
    if (bytes.length > room) {
      if (room > 0) this.chunks.push(bytes.subarray(0, room));
      this.size = this.cap;
      this.respond(true);
      return false;
    }
    this.chunks.push(bytes);
    this.size += bytes.length;
    return true;
  }

  respond(truncated: boolean): void {
    this.#settle(
      responseOf(this.status, this.headers, this.chunks, this.size, truncated, this.started),
    );
  }

  fail(f: Failure): void {
    this.#settle({
      kind: "transport-error",
      code: f.code,
      message: f.message,
      durationMs: Math.round(performance.now() - this.started),
    });
  }

  #settle(result: HttpResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.#timer);
    this.#resolve(result);
  }
}

/** Where a connection is in reading an answer. */
const State = {
  Idle: 0,
  Head: 1,
  Length: 2,
  ChunkSize: 3,
  ChunkData: 4,
  ChunkEnd: 5,
  Trailers: 6,
  UntilClose: 7,
} as const;
type State = (typeof State)[keyof typeof State];

/** One kept-alive connection: one request at a time (no pipelining). */
class Connection {
  readonly #pool: H1Pool;
  readonly socket: Socket;
  #job: Job | undefined;
  #state: State = State.Idle;
  /** Bytes not yet parsed (a head, a chunk-size line, a chunk's CRLF or trailers). */
  #pending: Buffer | undefined;
  #remaining = 0;
  #keepAlive = true;
  #idleMs = KEEP_ALIVE_MS;
  #idleTimer: NodeJS.Timeout | undefined;
  #dead = false;

  constructor(pool: H1Pool, socket: Socket) {
    this.#pool = pool;
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    socket.on("error", (e: NodeJS.ErrnoException) =>
      this.#lost(
        { code: typeof e.code === "string" ? e.code : "ECONNRESET", message: e.message },
        false,
      ),
    );
    socket.on("end", () => this.#onEnd());
    socket.on("close", (hadError: boolean) =>
      this.#lost(
        {
          code: "UND_ERR_SOCKET",
          message: "the connection was closed before a complete answer (other side closed)",
        },
        !hadError,
      ),
    );
  }

  get dead(): boolean {
    return this.#dead;
  }

  run(job: Job): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    this.#job = job;
    job.connection = this;
    this.#state = State.Head;
    this.#pending = undefined;
    this.#keepAlive = true;
    const req = job.req;
    const body = req.body;
    let head = `${req.method} ${req.path} HTTP/1.1\r\n`;
    const headers = req.headers;
    if (headers.host === undefined) head += `host: ${this.#pool.hostHeader}\r\n`;
    for (const name in headers) {
      const value = headers[name] as string;
      if (name === "content-length") continue;
      head += `${name}: ${value}\r\n`;
    }
    if (body !== undefined)
      head += `content-length: ${typeof body === "string" ? Buffer.byteLength(body) : body.length}\r\n\r\n`;
    else head += PAYLOAD_METHODS.has(req.method) ? "content-length: 0\r\n\r\n" : "\r\n";
    const socket = this.socket;
    if (body === undefined || body.length === 0) socket.write(head, "latin1");
    else {
      // One write of both (writev): the head in latin1 as undici writes it, the body as it is.
      socket.cork();
      socket.write(head, "latin1");
      socket.write(body);
      socket.uncork();
    }
  }

  destroy(): void {
    if (this.#dead) return;
    this.#dead = true;
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.socket.destroy();
    this.#pool.forget(this);
  }

  /** The connection ended; `clean` when it was closed, not broken (a reset, a TLS error). */
  #lost(f: Failure, clean: boolean): void {
    const job = this.#job;
    this.#job = undefined;
    if (job && !job.settled) {
      // An answer that ends with the connection is complete when the connection is closed; a
      // broken one may have lost its tail.
      if (clean && this.#state === State.UntilClose) job.respond(false);
      else job.fail(f);
    }
    this.destroy();
  }

  #onEnd(): void {
    if (this.#job && this.#state === State.UntilClose) {
      const job = this.#job;
      this.#job = undefined;
      job.respond(false);
    }
    this.destroy();
  }

  #onData(chunk: Buffer): void {
    if (!this.#job) {
      // Bytes nobody asked for on an idle connection: never read as the next request's answer.
      this.destroy();
      return;
    }
    const pending = this.#pending;
    this.#pending = undefined;
    const failed = this.#parse(pending ? Buffer.concat([pending, chunk]) : chunk);
    if (failed) {
      const job = this.#job;
      this.#job = undefined;
      job?.fail(failed);
      this.destroy();
    }
  }

  /** Parses `buf` on from the current state; returns a failure, or undefined. */
  #parse(input: Buffer): Failure | undefined {
    let buf = input;
    for (;;) {
      const job = this.#job;
      if (!job) {
        // The answer ended before these bytes: they belong to no request.
        if (buf.length > 0) this.destroy();
        return undefined;
      }
      switch (this.#state) {
        case State.Head: {
          const prefix = Math.min(buf.length, HTTP_PREFIX.length);
          if (buf.compare(HTTP_PREFIX, 0, prefix, 0, prefix) !== 0)
            return { code: "HPE_INVALID_CONSTANT", message: "Expected HTTP/" };
          const end = buf.indexOf(HEAD_END);
          if (end < 0) {
            if (buf.length > MAX_HEAD_BYTES) return HEADER_OVERFLOW;
            if (buf.length > 0) this.#pending = buf;
            return undefined;
          }
          if (end > MAX_HEAD_BYTES) return HEADER_OVERFLOW;
          const failed = this.#head(job, buf.toString("latin1", 0, end));
          if (failed) return failed;
          buf = buf.subarray(end + 4);
          break;
        }
        case State.Length: {
          const rest = this.#body(job, buf);
          if (rest === undefined || this.#remaining > 0) return undefined;
          this.#complete(job, rest);
          return undefined;
        }
        case State.ChunkSize: {
          const end = buf.indexOf(CRLF);
          if (end < 0) {
            if (buf.length > MAX_LINE_BYTES) return BAD_CHUNK_SIZE;
            if (buf.length > 0) this.#pending = buf;
            return undefined;
          }
          const line = buf.toString("latin1", 0, end);
          const semi = line.indexOf(";");
          const hex = (semi < 0 ? line : line.slice(0, semi)).trim();
          if (!/^[0-9a-fA-F]{1,15}$/.test(hex)) return BAD_CHUNK_SIZE;
          this.#remaining = Number.parseInt(hex, 16);
          this.#state = this.#remaining === 0 ? State.Trailers : State.ChunkData;
          buf = buf.subarray(end + 2);
          break;
        }
        case State.ChunkData: {
          const rest = this.#body(job, buf);
          if (rest === undefined || this.#remaining > 0) return undefined;
          buf = rest;
          this.#state = State.ChunkEnd;
          break;
        }
        case State.ChunkEnd: {
          if (buf.length < 2) {
            if (buf.length === 1 && buf[0] !== 13)
              return { code: "HPE_STRICT", message: "Expected LF after chunk data" };
            this.#pending = buf.length > 0 ? buf : undefined;
            return undefined;
          }
          if (buf[0] !== 13 || buf[1] !== 10)
            return { code: "HPE_STRICT", message: "Expected LF after chunk data" };
          buf = buf.subarray(2);
          this.#state = State.ChunkSize;
          break;
        }
        case State.Trailers: {
          // Trailer fields are read past (nothing judges them), up to the empty line.
          const end = buf.indexOf(CRLF);
          if (end < 0) {
            if (buf.length > MAX_HEAD_BYTES) return HEADER_OVERFLOW;
            if (buf.length > 0) this.#pending = buf;
            return undefined;
          }
          buf = buf.subarray(end + 2);
          if (end === 0) {
            this.#complete(job, buf);
            return undefined;
          }
          break;
        }
        case State.UntilClose: {
          if (buf.length > 0 && !job.data(buf)) return this.#cut();
          return undefined;
        }
        default:
          return undefined;
      }
    }
  }

  /**
   * Up to `#remaining` body bytes of `buf` to the answer; the bytes after them, or undefined when
   * the cap was reached (the answer is then complete, cut, and nothing more is read).
   */
  #body(job: Job, buf: Buffer): Buffer | undefined {
    const n = Math.min(this.#remaining, buf.length);
    if (n === 0) return buf;
    this.#remaining -= n;
    if (!job.data(n === buf.length ? buf : buf.subarray(0, n))) {
      this.#cut();
      return undefined;
    }
    return buf.subarray(n);
  }

  /** Reads a head; sets how the body is framed (or completes an answer without one). */
  #head(job: Job, text: string): Failure | undefined {
    const lines = text.split("\r\n");
    const m = STATUS_LINE.exec(lines[0] as string);
    if (!m) return { code: "HPE_INVALID_STATUS", message: "Invalid status line" };
    const minor = m[1];
    const status = Number(m[2]);
    const headers: Record<string, string | string[]> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(":");
      const name = colon > 0 ? line.slice(0, colon) : "";
      if (!TOKEN.test(name))
        return { code: "HPE_INVALID_HEADER_TOKEN", message: "Invalid header token" };
      const key = name.toLowerCase();
      const value = line.slice(colon + 1).trim();
      const had = Object.hasOwn(headers, key) ? headers[key] : undefined;
      const next = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
      // A header named __proto__ is a header, not the object's prototype.
      if (key === "__proto__")
        Object.defineProperty(headers, key, { value: next, enumerable: true, writable: true });
      else headers[key] = next;
    }
    if (status < 200 && status !== 101) {
      // An interim answer (100 Continue, 103 Early Hints): the final one follows.
      this.#state = State.Head;
      return undefined;
    }
    job.status = status;
    job.headers = headers;
    const connection = String(headers.connection ?? "").toLowerCase();
    this.#keepAlive =
      status !== 101 &&
      (minor === "1" ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection));
    // The server's own idle timeout, when it says it: a request sent as it closes would be lost.
    const hint = /\btimeout=(\d+)/i.exec(String(headers["keep-alive"] ?? ""));
    this.#idleMs = hint
      ? Math.min(KEEP_ALIVE_MS, Number(hint[1]) * 1000 - KEEP_ALIVE_MARGIN_MS)
      : KEEP_ALIVE_MS;
    if (this.#idleMs <= 0) this.#keepAlive = false;
    const te = headers["transfer-encoding"];
    const cl = headers["content-length"];
    if (job.req.method === "HEAD" || status === 204 || status === 304 || status === 101) {
      this.#state = State.Length;
      this.#remaining = 0;
    } else if (te !== undefined) {
      if (cl !== undefined)
        return {
          code: "HPE_UNEXPECTED_CONTENT_LENGTH",
          message: "Content-Length can't be present with Transfer-Encoding",
        };
      const codings = String(te).toLowerCase().split(",");
      if (codings[codings.length - 1]?.trim() === "chunked") this.#state = State.ChunkSize;
      else {
        this.#state = State.UntilClose;
        this.#keepAlive = false;
      }
    } else if (cl !== undefined) {
      if (Array.isArray(cl) || !/^\d{1,15}$/.test(cl))
        return {
          code: "HPE_INVALID_CONTENT_LENGTH",
          message: "Invalid character in Content-Length",
        };
      this.#state = State.Length;
      this.#remaining = Number(cl);
    } else {
      this.#state = State.UntilClose;
      this.#keepAlive = false;
    }
    return undefined;
  }

  /** The answer is whole: the connection is kept for the next request unless something is off. */
  #complete(job: Job, rest: Buffer): void {
    this.#job = undefined;
    this.#state = State.Idle;
    this.#pending = undefined;
    job.connection = undefined;
    // An answer that came before the whole request was written (a 413 at the head): the rest of
    // the body would be read by the provider as the next request.
    const reusable =
      this.#keepAlive &&
      rest.length === 0 &&
      !this.socket.readableEnded &&
      this.socket.writableLength === 0;
    if (reusable) this.#pool.release(this);
    else this.destroy();
    job.respond(false);
  }

  /** The body reached the cap: the answer is complete (cut); nothing more is read. */
  #cut(): undefined {
    this.#job = undefined;
    this.destroy();
    return undefined;
  }

  idle(): void {
    this.#idleTimer = setTimeout(() => this.destroy(), this.#idleMs);
    this.#idleTimer.unref();
  }
}

/**
 * Up to `connections` kept-alive HTTP/1.1 (or HTTPS) connections to one origin; requests beyond
 * them wait their turn in order. Each request has an overall deadline (connect, head and body):
 * a provider that drips a byte at a time cannot hold it.
 */
export class H1Pool implements Transport {
  readonly hostHeader: string;
  readonly #connect: () => Socket;
  readonly #max: number;
  readonly #idle: Connection[] = [];
  readonly #all = new Set<Connection>();
  #queue: Job[] = [];
  #destroyed = false;

  constructor(
    origin: string,
    options: { readonly connections: number; readonly tls?: TlsSettings },
  ) {
    const u = new URL(origin);
    const secure = u.protocol === "https:";
    const port = Number(u.port || (secure ? 443 : 80));
    const host = u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
    this.hostHeader = u.host;
    this.#max = Math.max(1, options.connections);
    const tls = options.tls;
    this.#connect = secure
      ? () =>
          tlsConnect({
            host,
            port,
            // SNI names a host, never an address (RFC 6066 §3).
            ...(isIP(host) === 0 ? { servername: host } : {}),
            ALPNProtocols: ["http/1.1"],
            ...tlsOptions(tls),
          })
      : () => netConnect({ host, port });
  }

  send(req: HttpRequest, options: SendOptions): Promise<HttpResult> {
    return new Promise((resolve) => {
      const job = new Job(req, options, resolve);
      if (this.#destroyed)
        return job.fail({ code: "UND_ERR_DESTROYED", message: "the connections were closed" });
      const bad = !TOKEN.test(req.method)
        ? `invalid request method ${JSON.stringify(req.method)}`
        : BAD_PATH.test(req.path)
          ? "invalid request path"
          : badHeader(req.headers);
      if (bad) return job.fail({ code: "UND_ERR_INVALID_ARG", message: bad });
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** A connection whose answer is complete: the next waiting request takes it, or it idles. */
  release(c: Connection): void {
    if (this.#destroyed || c.dead) return;
    this.#idle.push(c);
    this.#pump();
    if (this.#idle.includes(c)) c.idle();
  }

  /** A connection that ended: a waiting request may open a new one. */
  forget(c: Connection): void {
    this.#all.delete(c);
    const i = this.#idle.indexOf(c);
    if (i >= 0) this.#idle.splice(i, 1);
    if (!this.#destroyed) this.#pump();
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    const waiting = this.#queue;
    this.#queue = [];
    for (const job of waiting)
      job.fail({ code: "UND_ERR_DESTROYED", message: "the connections were closed" });
    for (const c of [...this.#all]) c.destroy();
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      const job = this.#queue[0] as Job;
      if (job.settled) {
        this.#queue.shift();
        continue;
      }
      let c = this.#idle.pop();
      while (c?.dead) c = this.#idle.pop();
      if (!c) {
        if (this.#all.size >= this.#max) return;
        c = new Connection(this, this.#connect());
        this.#all.add(c);
      }
      this.#queue.shift();
      c.run(job);
    }
  }
}

/** Why a header cannot be sent (undici refuses the same), or undefined. */
function badHeader(headers: Readonly<Record<string, string>>): string | undefined {
  for (const name in headers) {
    if (!TOKEN.test(name)) return `invalid header name ${JSON.stringify(name)}`;
    const value = headers[name] as string;
    if (BAD_VALUE.test(value)) return `invalid ${name} header`;
  }
  return undefined;
}
