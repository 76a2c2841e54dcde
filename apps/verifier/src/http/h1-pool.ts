import { Buffer } from "node:buffer";
import { isIP, connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { type Head, type ParseError, ResponseParser } from "./h1-parser.ts";
import {
  type HttpRequest,
  type HttpResult,
  MAX_BODY_BYTES,
  responseOf,
  type SendOptions,
  type Transport,
} from "./send.ts";
import { type TlsContext, type TlsSettings, tlsContextOf } from "./settings.ts";
import { E_CLOSED, E_CUT_SHORT, E_IDLE_CLOSED, E_PROXY, E_STRAY } from "./wire.ts";

// HTTP/1.1 keep-alive connections, direct or through a proxy, written for the verifier's one job:
// send a request, read its whole answer up to a cap, judge nothing but the bytes. undici's
// dispatch cost idp-verify ~60 µs of CPU a request against a provider on the same machine
// (measured: a replay of a verification's 36,583 requests, undici's dispatch 56-63 µs a request,
// this way of sending 27-36 µs), and every microsecond the verifier spends is one the provider
// under test does not get on a CI runner. Answers are parsed as llhttp parses them
// (h1-parser.ts); what a connection does around them follows conformance.md §9:
// - an answer is given after a turn of the event loop has shown no bytes, FIN or reset came
//   with it; its connection is written to again only once quiet for QUIET_MS since (so the pool
//   keeps up to twice the connections of the requests in flight);
// - bytes after a complete answer close the connection and are reported (`onStray`); an answer
//   they followed on a connection kept alive is not given (its request may go again, fresh), one
//   they follow later is `suspect()`; once a provider has sent such bytes, no connection of the
//   pool carries a second request;
// - a connection kept alive that waited idle and closed before one byte of the answer is the race
//   of an idle close (E_IDLE_CLOSED, may go again); any other close or reset after the request
//   was written is the provider not answering (E_CLOSED, E_CUT_SHORT);
// - a connection is not kept past a `Connection: close`, the server's `Keep-Alive` timeout, or
//   (after an idle close was seen) half the idle time the server showed, less a round trip.

/** A kept-alive connection idle this long is closed (a server's own timeout is usually 5 s). */
const KEEP_ALIVE_MS = 4_000;
/** Closed this long before the server says it closes an idle connection (`Keep-Alive: timeout=N`). */
const KEEP_ALIVE_MARGIN_MS = 1_000;
/**
 * A connection kept alive that had waited idle at least this long before the request reached the
 * provider (our idle time and a round trip), closed before one byte of the answer: the race of an
 * idle close, when written before any idle close was seen. Sooner, or after the pool has learned how long
 * the provider keeps idle connections, the connection was busy: a provider that closes busy
 * connections without answering is not answering.
 */
export const IDLE_RACE_MS = 10;
/**
 * How long after an answer bytes nobody asked for still make it suspect: at least this (a small
 * write held back by Nagle's algorithm waits for a delayed ACK, up to 40 ms), and three times the
 * pool's average exchange (a late stray read as an answer comes before the real one, which takes
 * about an exchange to follow).
 */
const SETTLE_MS = 50;
/**
 * A connection is written to again only after it has been quiet this long since its last answer:
 * bytes or a FIN the provider sends a moment after an answer are seen before the next request,
 * never read as its answer. The pool keeps up to twice as many connections as requests in flight,
 * so the wait costs no throughput.
 */
export const QUIET_MS = 2;
const PAYLOAD_METHODS = new Set(["POST", "PUT", "PATCH", "QUERY"]);
/** RFC 9110 field-value (what undici accepts): no control character but tab. */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What undici accepts as a request path: no space, control character or code point above U+00FF. */
const BAD_PATH = /[^\u0021-\u00ff]/;

type Failure = {
  readonly code: string;
  readonly message: string;
  readonly retry?: "idle-close" | "stray";
};

/** Bytes nobody asked for: what they came after, and the first of them. */
export interface StrayBytes {
  /** The request whose answer they followed. */
  readonly after: HttpRequest;
  readonly bytes: Buffer;
}

export interface PoolOptions {
  readonly connections: number;
  readonly tls?: TlsSettings;
  /** `http://[user:password@]host:port` of a proxy (CONNECT for https origins, absolute-form for http). */
  readonly proxy?: string;
  /** Told of every run of bytes nobody asked for (each closes its connection). */
  readonly onStray?: (stray: StrayBytes) => void;
  /** How long a connection stays quiet before it is reused. @defaultValue QUIET_MS */
  readonly quietMs?: number;
  /**
   * Idle time (plus a round trip) from which a close before the answer is an idle close's race.
   * Tests raise it to show a busy connection on a machine too loaded to keep 10 ms. @defaultValue IDLE_RACE_MS
   */
  readonly idleRaceMs?: number;
}

/** One request on its way: settled once, by an answer or a failure. */
class Job {
  readonly req: HttpRequest;
  readonly cap: number;
  readonly fresh: boolean;
  readonly started = performance.now();
  readonly #resolve: (r: HttpResult) => void;
  readonly #timer: NodeJS.Timeout;
  settled = false;
  connection: Connection | undefined;
  status = 0;
  headers: Record<string, string | string[]> = {};
  readonly chunks: Buffer[] = [];
  size = 0;
  /** A byte of the answer has arrived. */
  answered = false;
  reused = false;
  /** How long the connection had waited idle before this request (0 on a new one). */
  idleBefore = 0;
  writtenAt = 0;
  completedAt = 0;

  constructor(req: HttpRequest, options: SendOptions, resolve: (r: HttpResult) => void) {
    this.req = req;
    this.cap = options.maxBodyBytes ?? MAX_BODY_BYTES;
    this.fresh = options.fresh === true;
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

  respond(truncated: boolean, suspect?: () => Promise<boolean>): void {
    const res = responseOf(
      this.status,
      this.headers,
      this.chunks,
      this.size,
      truncated,
      this.started,
    );
    this.#settle(suspect ? { ...res, suspect } : res);
  }

  fail(f: Failure): void {
    this.#settle({
      kind: "transport-error",
      code: f.code,
      message: f.message,
      durationMs: Math.round(performance.now() - this.started),
      ...(f.retry ? { retry: f.retry } : {}),
    });
  }

  #settle(result: HttpResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.#timer);
    this.#resolve(result);
  }
}

type ConnectionState = "connecting" | "busy" | "validating" | "idle" | "dead";

/** One kept-alive connection: one request at a time (no pipelining). */
class Connection {
  readonly #pool: H1Pool;
  readonly #parser: ResponseParser;
  socket: Socket | undefined;
  state: ConnectionState = "connecting";
  #job: Job | undefined;
  /** The last request answered here (what stray bytes followed). */
  #last: Job | undefined;
  /** The answer waiting for its turn of the event loop before it is given. */
  #validating: Job | undefined;
  #uses = 0;
  #idleSince = 0;
  /** performance.now() from which the connection may be written to again. */
  quietAt = 0;
  #keepAlive = true;
  /** The server's own idle timeout, less a margin, when it says it. */
  #hintMs = KEEP_ALIVE_MS;
  #idleTimer: NodeJS.Timeout | undefined;
  /** The connection (and its TLS handshake) is made: a failure now is not a failure to connect. */
  #connected = false;
  /** When bytes nobody asked for last arrived here. */
  strayAt: number | undefined;

  constructor(pool: H1Pool) {
    this.#pool = pool;
    this.#parser = new ResponseParser({
      head: (h) => this.#head(h),
      body: (bytes) => this.#body(bytes),
      complete: (rest) => this.#complete(rest),
    });
  }

  get dead(): boolean {
    return this.state === "dead";
  }

  /** The socket is ready (connected, through the proxy's tunnel if any): the first request goes. */
  attach(socket: Socket): void {
    if (this.state === "dead") {
      socket.destroy();
      return;
    }
    this.socket = socket;
    socket.setNoDelay(true);
    const connected = () => {
      this.#connected = true;
    };
    if ("encrypted" in socket) socket.once("secureConnect", connected);
    else if (socket.connecting) socket.once("connect", connected);
    else connected();
    socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    socket.on("end", () => this.#onEnd());
    socket.on("error", (e: NodeJS.ErrnoException) => this.#onError(e));
    socket.on("close", () => this.#onClose());
    const job = this.#job;
    if (job) this.#write(job);
  }

  /** The connection could not be made (or the proxy refused the tunnel). */
  failConnect(f: Failure): void {
    const job = this.#job;
    this.#job = undefined;
    job?.fail(f);
    this.destroy();
  }

  run(job: Job): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    const now = performance.now();
    job.reused = this.#uses > 0;
    job.idleBefore = job.reused ? now - this.#idleSince : 0;
    this.#uses++;
    this.#job = job;
    job.connection = this;
    this.#keepAlive = true;
    this.#parser.reset();
    if (this.socket) {
      this.state = "busy";
      this.#write(job);
    }
  }

  #write(job: Job): void {
    const socket = this.socket as Socket;
    this.state = "busy";
    job.writtenAt = performance.now();
    const req = job.req;
    const body = req.body;
    let head = `${req.method} ${this.#pool.target(req.path)} HTTP/1.1\r\n`;
    const headers = req.headers;
    if (headers.host === undefined) head += `host: ${this.#pool.hostHeader}\r\n`;
    const proxyAuth = this.#pool.proxyAuthorization;
    if (proxyAuth) head += `proxy-authorization: ${proxyAuth}\r\n`;
    for (const name in headers) {
      const value = headers[name] as string;
      if (name === "content-length") continue;
      head += `${name}: ${value}\r\n`;
    }
    if (body !== undefined)
      head += `content-length: ${typeof body === "string" ? Buffer.byteLength(body) : body.length}\r\n\r\n`;
    else head += PAYLOAD_METHODS.has(req.method) ? "content-length: 0\r\n\r\n" : "\r\n";
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
    if (this.state === "dead") return;
    this.state = "dead";
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#parser.abort();
    this.socket?.destroy();
    this.#pool.forget(this);
  }

  // --- the answer, as the parser reads it ---

  #head(h: Head): boolean | ParseError {
    const job = this.#job as Job;
    if (h.status < 100) return { code: "HPE_INVALID_STATUS", message: "Invalid status code" };
    // undici's reading: no Expect was sent, no upgrade asked for.
    if (h.status === 100)
      return {
        code: "HPE_UNEXPECTED_CONTINUE",
        message: "an interim 100 Continue nobody asked for",
      };
    if (h.status === 101)
      return {
        code: "HPE_UNEXPECTED_UPGRADE",
        message: "a 101 Switching Protocols nobody asked for",
      };
    if (h.status < 200) return true;
    job.status = h.status;
    job.headers = h.headers;
    const head = job.req.method === "HEAD";
    const noBody = head || h.status === 204 || h.status === 304;
    // llhttp's should_keep_alive, with undici's readings: never after HEAD (a server may send a
    // body with it all the same), nor after a 204/304 that frames a body.
    let keep = h.major > 0 && h.minor > 0 ? !h.close : h.keepAliveToken;
    const needsEnd =
      h.status !== 204 &&
      h.status !== 304 &&
      (h.transferEncoding ? !h.chunked : h.contentLength === undefined);
    if (needsEnd || head) keep = false;
    if (noBody && ((h.contentLength ?? 0) > 0 || h.transferEncoding)) keep = false;
    this.#keepAlive = keep;
    const hint = /\btimeout=(\d+)/i.exec(String(h.headers["keep-alive"] ?? ""));
    this.#hintMs = hint
      ? Math.min(KEEP_ALIVE_MS, Number(hint[1]) * 1000 - KEEP_ALIVE_MARGIN_MS)
      : KEEP_ALIVE_MS;
    if (this.#hintMs <= 0) this.#keepAlive = false;
    return noBody;
  }

  #body(bytes: Buffer): boolean {
    const job = this.#job as Job;
    if (job.data(bytes)) return true;
    // The cap: the answer is complete (cut); nothing more is read.
    this.#job = undefined;
    this.destroy();
    return false;
  }

  #complete(rest: Buffer): void {
    const job = this.#job as Job;
    this.#job = undefined;
    this.#last = job;
    job.connection = undefined;
    job.completedAt = performance.now();
    this.#pool.rtt(job.writtenAt, job.completedAt);
    if (rest.length > 0) {
      // Bytes after the answer, in the same read: nobody asked for them.
      this.#stray(rest);
      this.#deliver(job);
      return;
    }
    const socket = this.socket as Socket;
    // An answer that came before the whole request was written (a 413 at the head): the rest of
    // the body would be read by the provider as the next request.
    const reusable =
      this.#keepAlive &&
      !this.#pool.strayed &&
      !socket.readableEnded &&
      socket.writableLength === 0;
    if (!reusable) {
      this.destroy();
      this.#deliver(job);
      return;
    }
    // One turn of the event loop: a FIN, a reset or bytes that came with the answer are seen
    // before the answer is given and the connection written to again.
    this.state = "validating";
    this.#validating = job;
    setImmediate(() => this.#validated());
  }

  #validated(): void {
    const job = this.#validating as Job;
    this.#validating = undefined;
    if (this.state === "validating") {
      this.state = "idle";
      this.#idleSince = performance.now();
      this.quietAt = job.completedAt + this.#pool.quietMs;
      this.#pool.release(this);
    }
    this.#deliver(job);
  }

  /**
   * Gives an answer: unless bytes nobody asked for followed it on a connection kept alive (it may
   * then be the earlier request's: its request goes again, on a new connection).
   */
  #deliver(job: Job): void {
    if (this.strayAt !== undefined && this.strayAt >= job.completedAt && job.reused) {
      job.fail({
        code: E_STRAY,
        message:
          "bytes nobody asked for came right after this answer on a connection kept alive: it may be another request's",
        retry: "stray",
      });
      return;
    }
    const completed = job.completedAt;
    const wait = Math.max(SETTLE_MS, 3 * this.#pool.averageExchange);
    const reused = job.reused;
    job.respond(false, () => this.#suspect(completed, wait, reused));
  }

  /**
   * Whether an answer completed at `at` may be another request's: bytes nobody asked for came
   * after it on its connection within `wait` ms, or it came on a connection kept alive from a
   * provider seen sending bytes nobody asked for (a late one shifts every later answer on a
   * connection by one, until the connection idles).
   */
  #suspect(at: number, wait: number, reused: boolean): Promise<boolean> {
    const left = at + wait - performance.now();
    const judge = () =>
      (this.strayAt !== undefined && this.strayAt >= at) || (reused && this.#pool.strayed);
    if (left <= 0) return Promise.resolve(judge());
    return new Promise((resolve) => setTimeout(() => resolve(judge()), left));
  }

  idle(limitMs: number): void {
    const ms = Math.min(limitMs, this.#hintMs);
    if (ms <= 0) {
      this.destroy();
      return;
    }
    this.#idleTimer = setTimeout(() => this.destroy(), ms);
    this.#idleTimer.unref();
  }

  // --- the socket ---

  #onData(chunk: Buffer): void {
    if (this.state === "busy") {
      const job = this.#job;
      if (!job) return;
      job.answered = true;
      const failed = this.#parser.execute(chunk);
      if (failed) {
        this.#job = undefined;
        this.destroy();
        job.fail(failed);
      }
      return;
    }
    if (this.state === "validating" || this.state === "idle") this.#stray(chunk);
  }

  /** Bytes nobody asked for: the connection is closed at once, and they are reported. */
  #stray(bytes: Buffer): void {
    this.strayAt = performance.now();
    const after = this.#last;
    this.destroy();
    if (after) this.#pool.stray(after.req, bytes);
  }

  #onEnd(): void {
    const job = this.#job;
    if (this.state === "busy" && job) {
      this.#job = undefined;
      const outcome = this.#parser.finish();
      if (outcome === "complete") {
        this.#last = job;
        job.completedAt = performance.now();
        this.destroy();
        this.#deliver(job);
        return;
      }
      this.destroy();
      if (outcome === "cut-short" && job.answered) {
        job.fail(this.#cutShort(job));
        return;
      }
      this.#closedWithoutAnswer(job, "closed");
      return;
    }
    if (this.state === "idle") this.#pool.idleClosed(performance.now() - this.#idleSince);
    this.destroy();
  }

  #onError(e: NodeJS.ErrnoException): void {
    const code = typeof e.code === "string" ? e.code : "ECONNRESET";
    const job = this.#job;
    this.#job = undefined;
    this.destroy();
    if (!job) return;
    if (!this.#connected) {
      job.fail({ code, message: e.message });
      return;
    }
    if (!job.answered && (code === "ECONNRESET" || code === "EPIPE")) {
      this.#closedWithoutAnswer(job, code);
      return;
    }
    // A reset inside an answer, even one read to the connection's end, may have lost its tail.
    job.fail({ code, message: `the connection was reset inside the answer (${e.message})` });
  }

  #onClose(): void {
    const job = this.#job;
    this.#job = undefined;
    this.destroy();
    if (job) this.#closedWithoutAnswer(job, "closed");
  }

  #cutShort(job: Job): Failure {
    const length = job.headers["content-length"];
    const what =
      job.status === 0
        ? "inside its head"
        : this.#parser.inChunked
          ? "before its last chunk"
          : `after ${job.size} of its ${String(length)} bytes (Content-Length)`;
    return { code: E_CUT_SHORT, message: `the connection was closed ${what}` };
  }

  #closedWithoutAnswer(job: Job, how: string): void {
    if (
      job.reused &&
      job.writtenAt < this.#pool.learnedAt &&
      job.idleBefore + this.#pool.roundTrip >= this.#pool.idleRaceMs
    ) {
      this.#pool.idleClosed(job.idleBefore);
      job.fail({
        code: E_IDLE_CLOSED,
        message: `a connection kept alive, idle ${Math.round(job.idleBefore)} ms, was ${how === "closed" ? "closed" : `reset (${how})`} before one byte of the answer`,
        retry: "idle-close",
      });
      return;
    }
    job.fail({
      code: how === "closed" ? E_CLOSED : how,
      message: `the connection${job.reused ? ", kept alive and busy," : ""} was ${how === "closed" ? "closed" : `reset (${how})`} after the request, before one byte of the answer`,
    });
  }
}

/**
 * Up to `connections` kept-alive HTTP/1.1 (or HTTPS) connections to one origin, direct or through
 * a proxy; requests beyond them wait their turn in order. Each request has an overall deadline
 * (connect, head and body): a provider that drips a byte at a time cannot hold it.
 */
export class H1Pool implements Transport {
  readonly hostHeader: string;
  /** `Basic ...` for the proxy, when its URL carries credentials. */
  readonly proxyAuthorization: string | undefined;
  readonly #origin: string;
  readonly #absolute: boolean;
  readonly #open: (c: Connection) => void;
  /** Connections at most: twice the requests in flight (each waits quiet before its reuse). */
  readonly #max: number;
  readonly quietMs: number;
  readonly idleRaceMs: number;
  #wake: NodeJS.Timeout | undefined;
  /** When the last turn that has read the sockets was asked for (see #quiet). */
  #turnAt = Number.NEGATIVE_INFINITY;
  #turnPending = false;
  readonly #onStray: ((s: StrayBytes) => void) | undefined;
  /** Idle connections, the longest idle first (each gets the most time to show stray bytes). */
  #idle: Connection[] = [];
  readonly #all = new Set<Connection>();
  #queue: Job[] = [];
  #destroyed = false;
  #pumping = false;
  /** How long a connection may wait idle: lowered when the server is seen closing idle ones. */
  #idleLimit = KEEP_ALIVE_MS;
  /** The shortest time from a request written to its answer read (a round trip, and then some). */
  #rtt = Number.POSITIVE_INFINITY;
  /**
   * The provider was seen sending bytes nobody asked for: from then on no connection carries a
   * second request (an answer on one kept alive may be an earlier request's).
   */
  strayed = false;
  #average = 0;
  #learnedAt = Number.POSITIVE_INFINITY;

  constructor(origin: string, options: PoolOptions) {
    const u = new URL(origin);
    this.#origin = u.origin;
    const secure = u.protocol === "https:";
    const port = Number(u.port || (secure ? 443 : 80));
    const host = u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
    this.hostHeader = u.host;
    this.quietMs = options.quietMs ?? QUIET_MS;
    this.idleRaceMs = options.idleRaceMs ?? IDLE_RACE_MS;
    this.#max = Math.max(1, options.connections) * (this.quietMs > 0 ? 2 : 1);
    this.#onStray = options.onStray;
    // Built at the first TLS connection, not here: with NODE_EXTRA_CA_CERTS set (common in CI), a
    // context of every root costs a plain-HTTP run 60 ms of its start for nothing.
    const tls = () => tlsContextOf(options.tls);
    const proxy = options.proxy ? new URL(options.proxy) : undefined;
    this.proxyAuthorization =
      proxy && !secure && (proxy.username || proxy.password) ? proxyCredentials(proxy) : undefined;
    this.#absolute = proxy !== undefined && !secure;
    if (!proxy)
      this.#open = (c) => c.attach(secure ? secureTo(host, port, tls()) : netTo(host, port));
    else if (!secure) this.#open = (c) => c.attach(proxySocket(proxy, tls()));
    else this.#open = (c) => tunnel(c, proxy, host, port, tls());
  }

  /** The request-target: origin-form, or absolute-form through a proxy. */
  target(path: string): string {
    return this.#absolute ? `${this.#origin}${path}` : path;
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

  /** A connection whose answer is complete and quiet: the next waiting request takes it, or it idles. */
  release(c: Connection): void {
    if (this.#destroyed || c.dead) return;
    this.#idle.push(c);
    this.#pump();
    if (this.#idle.includes(c)) c.idle(this.#idleLimit);
  }

  /** A connection that ended: a waiting request may open a new one. */
  forget(c: Connection): void {
    this.#all.delete(c);
    const i = this.#idle.indexOf(c);
    if (i >= 0) this.#idle.splice(i, 1);
    if (!this.#destroyed) this.#pump();
  }

  /**
   * The idle connection quiet the longest, if it has been quiet long enough (closed if it is not
   * usable). Long enough on the clock is not enough: a loop busy past `quietAt` runs its timers
   * before it reads the sockets, so a FIN sent a moment after the answer may be waiting unread. A
   * connection is taken only once a turn that began after its `quietAt` has read the sockets.
   */
  #quiet(): Connection | undefined {
    const now = performance.now();
    for (;;) {
      const c = this.#idle[0];
      if (!c || c.quietAt > now) return undefined;
      if (c.quietAt > this.#turnAt) {
        this.#nextTurn();
        return undefined;
      }
      this.#idle.shift();
      if (!c.dead && usable(c)) return c;
      c.destroy();
    }
  }

  /** A turn of the event loop: its poll phase reads what came before it, then the queue goes on. */
  #nextTurn(): void {
    if (this.#turnPending) return;
    this.#turnPending = true;
    const at = performance.now();
    setImmediate(() => {
      this.#turnPending = false;
      this.#turnAt = at;
      if (!this.#destroyed) this.#pump();
    });
  }

  /**
   * When an idle close was first seen: connections written to since are kept idle for less than
   * the provider keeps them (Infinity before).
   */
  get learnedAt(): number {
    return this.#learnedAt;
  }

  /** The shortest exchange seen (0 before any). */
  get roundTrip(): number {
    return Number.isFinite(this.#rtt) ? this.#rtt : 0;
  }

  /** The exchanges' average time, recent ones weighing most (0 before any). */
  get averageExchange(): number {
    return this.#average;
  }

  rtt(writtenAt: number, completedAt: number): void {
    if (writtenAt <= 0) return;
    const ms = completedAt - writtenAt;
    this.#rtt = Math.min(this.#rtt, ms);
    this.#average = this.#average === 0 ? ms : 0.9 * this.#average + 0.1 * ms;
  }

  /**
   * The server closed a connection that had waited idle `ms`: connections are kept idle for less,
   * by more than a round trip (a request written just before would meet the close on its way),
   * and for at most half of `ms`. A close is read when the loop gets to it, and on a loaded
   * machine that is late: `ms` runs long. With the limit at `ms` less a round trip, a run in CI
   * against a front that closes idle connections after 100 ms wrote five requests in a row to
   * connections it had already closed. Against a server keeping connections 5 s, half is 2.5 s:
   * a new connection now and then.
   */
  idleClosed(ms: number): void {
    if (!Number.isFinite(this.#learnedAt)) this.#learnedAt = performance.now();
    const limit = Math.max(0, ms / 2 - 1.5 * this.roundTrip - 1);
    if (limit >= this.#idleLimit) return;
    this.#idleLimit = limit;
    // Connections idle since before: kept by the old limit, they are not written to again.
    for (const c of this.#idle.splice(0)) c.destroy();
  }

  stray(after: HttpRequest, bytes: Buffer): void {
    this.strayed = true;
    for (const c of this.#idle.splice(0)) c.destroy();
    this.#onStray?.({ after, bytes });
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    if (this.#wake) clearTimeout(this.#wake);
    const waiting = this.#queue;
    this.#queue = [];
    for (const job of waiting)
      job.fail({ code: "UND_ERR_DESTROYED", message: "the connections were closed" });
    for (const c of [...this.#all]) c.destroy();
  }

  #pump(): void {
    // Closing a connection below calls back here: one loop at a time.
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      this.#fill();
    } finally {
      this.#pumping = false;
    }
  }

  #fill(): void {
    while (this.#queue.length > 0) {
      const job = this.#queue[0] as Job;
      if (job.settled) {
        this.#queue.shift();
        continue;
      }
      let c: Connection | undefined;
      if (job.fresh) {
        // A request sent again goes on a new connection: an idle one makes room if need be.
        if (this.#all.size >= this.#max) {
          const oldest = this.#idle.shift();
          if (!oldest) return;
          oldest.destroy();
        }
      } else {
        c = this.#quiet();
        // A connection quiet by the clock waits for its turn: a turn costs less than a new one.
        if (!c && this.#turnPending) return;
      }
      if (!c) {
        if (this.#all.size >= this.#max) {
          // Every connection is busy or not yet quiet: the first to be quiet takes the request.
          const first = this.#idle[0];
          if (first && !this.#wake)
            this.#wake = setTimeout(
              () => {
                this.#wake = undefined;
                this.#pump();
              },
              Math.max(0, first.quietAt - performance.now()),
            );
          return;
        }
        c = new Connection(this);
        this.#all.add(c);
        this.#queue.shift();
        c.run(job);
        this.#open(c);
        continue;
      }
      this.#queue.shift();
      c.run(job);
    }
  }
}

/** Written to only when nothing came in since it was last seen quiet. */
const usable = (c: Connection): boolean => {
  const s = c.socket;
  return s !== undefined && !s.destroyed && !s.readableEnded && s.readableLength === 0;
};

const netTo = (host: string, port: number): Socket => netConnect({ host, port });

function secureTo(host: string, port: number, tls: TlsContext, socket?: Socket): Socket {
  const key = `${host}:${port}`;
  const session = tls.sessions.get(key);
  const s = tlsConnect({
    ...(socket ? { socket } : { host, port }),
    // SNI names a host, never an address (RFC 6066 §3).
    ...(isIP(host) === 0 ? { servername: host } : {}),
    ALPNProtocols: ["http/1.1"],
    ...(tls.secureContext ? { secureContext: tls.secureContext } : {}),
    ...(tls.insecure ? { rejectUnauthorized: false } : {}),
    ...(session ? { session } : {}),
  });
  s.on("session", (next: Buffer) => tls.sessions.set(key, next));
  return s;
}

/** A connection to the proxy itself (TLS when its URL is https). */
function proxySocket(proxy: URL, tls: TlsContext): Socket {
  const secure = proxy.protocol === "https:";
  const port = Number(proxy.port || (secure ? 443 : 80));
  const host = proxy.hostname.startsWith("[") ? proxy.hostname.slice(1, -1) : proxy.hostname;
  return secure ? secureTo(host, port, tls) : netTo(host, port);
}

const proxyCredentials = (proxy: URL): string =>
  `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString("base64")}`;

/** A CONNECT tunnel through the proxy, then TLS to the origin inside it. */
function tunnel(c: Connection, proxy: URL, host: string, port: number, tls: TlsContext): void {
  const socket = proxySocket(proxy, tls);
  const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
  let settled = false;
  const fail = (message: string) => {
    if (settled) return;
    settled = true;
    socket.destroy();
    c.failConnect({ code: E_PROXY, message });
  };
  const parser = new ResponseParser({
    head: (h) => {
      if (h.status < 200) return true;
      if (h.status > 299) {
        fail(`the proxy ${proxy.host} answered ${h.status} to CONNECT ${authority}`);
        return true;
      }
      return true;
    },
    body: () => true,
    complete: (rest) => {
      if (settled) return;
      settled = true;
      socket.removeAllListeners("data");
      socket.removeAllListeners("error");
      socket.removeAllListeners("end");
      if (rest.length > 0) socket.unshift(rest);
      c.attach(secureTo(host, port, tls, socket));
    },
  });
  parser.reset();
  socket.on("data", (chunk: Buffer) => {
    const failed = parser.execute(chunk);
    if (failed) fail(`the proxy ${proxy.host} answered CONNECT with no HTTP (${failed.message})`);
  });
  socket.on("error", (e: Error) =>
    fail(`cannot reach the proxy ${proxy.host}: ${(e as NodeJS.ErrnoException).code ?? e.message}`),
  );
  socket.on("end", () => fail(`the proxy ${proxy.host} closed the connection during CONNECT`));
  const auth =
    proxy.username || proxy.password ? `proxy-authorization: ${proxyCredentials(proxy)}\r\n` : "";
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${auth}\r\n`, "latin1");
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
