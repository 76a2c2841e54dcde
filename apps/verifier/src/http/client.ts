import type { Secrets } from "../secrets.ts";
import { AdaptiveGate } from "./adaptive-gate.ts";
import { decodeAnswer, E_CONTENT_CODING } from "./decode.ts";
import {
  type Exchange,
  type OutgoingRequest,
  recordExchange,
  type Via,
  viaOf,
} from "./exchange.ts";
import type { StrayBytes } from "./h1-pool.ts";
import { harEntry } from "./har.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { type HttpRequest, type HttpResult, MAX_BODY_BYTES, type Transport } from "./send.ts";
import { DIRECT, type TransportSettings } from "./settings.ts";
import { isThrottled, retryDelayMs } from "./throttle.ts";
import { transportFor } from "./transport.ts";
import { E_GATEWAY, E_STRAY } from "./wire.ts";

/** What came back for one request: the full answer for judging, and its safe record on demand. */
export interface Answer {
  readonly request: OutgoingRequest;
  readonly raw: HttpResult;
  /** Which part of the run sent it (a check id, `pact`, `provider-state`, ...). */
  readonly source: string;
  /** The redacted, scrubbed record (built once, only when asked: passing cases never pay for it). */
  exchange(): Exchange;
}

export type AnswerObserver = (answer: Answer, source: string) => void;

/**
 * Bytes nobody asked for (conformance.md §9): R6 fails with "an answer nobody asked for". `answer`
 * is the request they came after, recorded with the bytes as its result: never as its answer.
 */
export type StrayObserver = (answer: Answer) => void;

export interface ClientOptions {
  readonly timeoutMs: number;
  /** Requests in flight at most (`--concurrency`); lowered while the provider is throttled. */
  readonly connections: number;
  readonly maxConsecutiveFailures: number;
  readonly secrets: Secrets;
  readonly maxBodyBytes?: number;
  /** Gateway settings: extra headers, TLS, proxies (conformance.md §7). @defaultValue DIRECT */
  readonly transport?: TransportSettings;
  /** `--rate-limit`: shared by every client of the run, worker threads included. */
  readonly rateLimiter?: RateLimiter;
  /** Date.now() after which a throttled request is not waited on again (`--max-duration`). */
  readonly deadlineEpochMs?: number;
  /** `--har`: each exchange as one HAR entry's JSON text. */
  readonly har?: (entryJson: string) => void;
  /** `--cleanup`: told of every request before it is sent and of its answer (creates, §8). */
  readonly writes?: {
    before(req: OutgoingRequest): Promise<void> | undefined;
    after(req: OutgoingRequest, raw: HttpResult): void;
  };
}

const NOT_SENT: HttpResult = {
  kind: "transport-error",
  code: "E_PROVIDER_STOPPED",
  message: "not sent: the provider had stopped answering",
  durationMs: 0,
};

/** The code of a request still throttled when the run's time was up: incomplete, never judged. */
export const THROTTLED_OUT = "E_THROTTLED";

/** A gateway's 502/504 whose body is not JSON is waited out this long, and sent again (§7). */
export const GATEWAY_WAIT_MS = 1_000;
const GATEWAY_RETRIES = 2;
/** Kept of bytes nobody asked for, to show. */
const STRAY_SHOWN = 200;

/** Failures that are answers all the same (malformed ones): they never count as "not answering". */
const answeredBadly = (code: string) => code.startsWith("HPE_") || code === E_CONTENT_CODING;

const isJson = (body: Buffer): boolean => {
  try {
    JSON.parse(body.toString("utf8"));
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The one transport to the provider: every request of a run (checks, Pact's requests through the
 * guard, provider-state calls, neighbours) goes through `send`. It owns keep-alive connections (one
 * pool per origin, or the proxy), TLS, the extra headers, `--rate-limit`, the throttling rule (a
 * 429, or a 503 with Retry-After, is waited out and the same request sent again, never judged),
 * connections dropped by a gateway, the HAR record, the status tally and the circuit breaker (the
 * provider counts as stopped after N transport failures in a row; later calls are not sent).
 */
export class Client {
  readonly options: ClientOptions;
  readonly #transports = new Map<string, Transport>();
  readonly #observers: AnswerObserver[] = [];
  readonly #strayObservers: StrayObserver[] = [];
  /** What each request on the wire was sent for (to name the request stray bytes followed). */
  readonly #sentFor = new WeakMap<HttpRequest, { req: OutgoingRequest; source: string }>();
  readonly #gate: AdaptiveGate;
  readonly #transport: TransportSettings;
  /** `--header` values as recorded: the names, never the values. */
  readonly #recordedExtra: Readonly<Record<string, string>>;
  readonly #extra: Readonly<Record<string, string>>;
  /** Whether there are `--header` values to add (asked per request). */
  readonly #hasExtra: boolean;
  /** What a replay of any request needs besides the request (its headers' variables, TLS files). */
  readonly #via: Via | undefined;
  #consecutiveFailures = 0;
  #answered = 0;
  #sent = 0;
  #throttled = 0;
  #resent = 0;
  #gateway = 0;
  #stray = 0;
  #stoppedReason: string | undefined;
  /** operation -> status -> count */
  readonly tally = new Map<string, Map<number, number>>();

  constructor(options: ClientOptions) {
    this.options = options;
    this.#transport = options.transport ?? DIRECT;
    this.#gate = new AdaptiveGate(options.connections);
    this.#extra = Object.fromEntries(this.#transport.headers.map(([n, v]) => [n.toLowerCase(), v]));
    this.#hasExtra = this.#transport.headers.length > 0;
    this.#recordedExtra = Object.fromEntries(
      this.#transport.headers.map(([n]) => [n.toLowerCase(), "<redacted>"]),
    );
    for (const [name, value] of this.#transport.headers)
      options.secrets.add(value, `value of --header ${name}`);
    this.#via = viaOf(this.#transport);
  }

  get answered(): number {
    return this.#answered;
  }
  get sent(): number {
    return this.#sent;
  }
  /** Answers that were a gateway's "not now" (429, 503 with Retry-After), waited out. */
  get throttled(): number {
    return this.#throttled;
  }
  /**
   * Requests sent again on a new connection: a connection kept alive closed idle before the
   * answer, or bytes nobody asked for followed an answer that may not be the request's (§9).
   */
  get resent(): number {
    return this.#resent;
  }
  /** A gateway's 502/504 (not JSON) waited out and sent again (§7). */
  get gateway(): number {
    return this.#gateway;
  }
  /** Runs of bytes nobody asked for (each closed its connection). */
  get stray(): number {
    return this.#stray;
  }
  /** Set once the provider has stopped answering. */
  get stoppedReason(): string | undefined {
    return this.#stoppedReason;
  }

  /** What a replay of any request needs besides the request: `--header` variables, TLS files. */
  get via(): Via | undefined {
    return this.#via;
  }

  observe(observer: AnswerObserver): void {
    this.#observers.push(observer);
  }

  /** Told of every run of bytes nobody asked for. */
  observeStray(observer: StrayObserver): void {
    this.#strayObservers.push(observer);
  }

  #transportTo(origin: string): Transport {
    let d = this.#transports.get(origin);
    if (!d) {
      d = transportFor(origin, {
        connections: this.options.connections,
        tls: this.#transport.tls,
        proxy: this.#transport.proxy,
        onStray: (s) => this.#onStray(s),
      });
      this.#transports.set(origin, d);
    }
    return d;
  }

  #onStray(s: StrayBytes): void {
    this.#stray++;
    const sent = this.#sentFor.get(s.after);
    if (!sent) return;
    const shown = s.bytes.subarray(0, STRAY_SHOWN).toString("latin1");
    const raw: HttpResult = {
      kind: "transport-error",
      code: E_STRAY,
      message: `${s.bytes.length}${s.bytes.length >= STRAY_SHOWN ? " or more" : ""} bytes came after the answer to this request: ${JSON.stringify(shown)}`,
      durationMs: 0,
    };
    const answer = this.#answer(sent.req, raw, sent.source);
    for (const observer of this.#strayObservers) observer(answer);
  }

  /**
   * An answer about to be reported as a failure: if bytes nobody asked for came soon after it on
   * its connection, it may be another request's (§9): its request is sent again, on a new
   * connection, and that answer stands instead. Otherwise the answer itself.
   */
  async confirm(answer: Answer): Promise<Answer> {
    const raw = answer.raw;
    if (raw.kind !== "response" || !raw.suspect || !(await raw.suspect())) return answer;
    this.#resent++;
    return this.send(answer.request, answer.source, true);
  }

  /** Sends one request; `source` names the check it belongs to (for observations). */
  async send(req: OutgoingRequest, source: string, fresh = false): Promise<Answer> {
    let raw: HttpResult;
    if (this.#stoppedReason) raw = NOT_SENT;
    else {
      const asked = this.options.writes?.before(req);
      if (asked) await asked;
      raw = await this.#sendThrough(req, source, fresh);
      this.options.writes?.after(req, raw);
    }
    const status =
      raw.kind === "response" ? raw.status : raw.answered ? raw.answered.status : undefined;
    if (status !== undefined && req.operation) {
      let row = this.tally.get(req.operation);
      if (!row) {
        row = new Map();
        this.tally.set(req.operation, row);
      }
      row.set(status, (row.get(status) ?? 0) + 1);
    }
    if (raw.kind === "response" || answeredBadly(raw.code)) {
      this.#answered++;
      this.#consecutiveFailures = 0;
    } else if (raw !== NOT_SENT && raw.code !== THROTTLED_OUT) {
      this.#consecutiveFailures++;
      if (this.#consecutiveFailures >= this.options.maxConsecutiveFailures && !this.#stoppedReason)
        this.#stoppedReason = `${this.#consecutiveFailures} requests in a row got no answer (last: ${raw.code}: ${this.options.secrets.scrub(raw.message)})`;
    }
    const answer = this.#answer(req, raw, source);
    if (raw.kind === "response" || (raw !== NOT_SENT && raw.code !== THROTTLED_OUT))
      for (const observer of this.#observers) observer(answer, source);
    return answer;
  }

  #answer(req: OutgoingRequest, raw: HttpResult, source: string): Answer {
    let recorded: Exchange | undefined;
    const secrets = this.options.secrets;
    const extra = this.#recordedExtra;
    return {
      request: req,
      raw,
      source,
      exchange: () => {
        recorded ??= recordExchange(
          this.#hasExtra ? { ...req, headers: { ...req.headers, ...extra } } : req,
          raw,
          secrets,
          this.#via,
        );
        return recorded;
      },
    };
  }

  /**
   * Sends until the answer is not a gateway's "not now" (or the run's time is up), and sends again
   * what conformance.md §7 and §9 say to: a gateway's 502/504 whose body is not JSON (after 1 s,
   * twice at most), a request whose connection kept alive closed idle before one byte of the
   * answer, or whose answer bytes nobody asked for followed (once each), always on a new connection.
   */
  async #sendThrough(req: OutgoingRequest, source: string, fresh: boolean): Promise<HttpResult> {
    const headers = this.#hasExtra ? { ...req.headers, ...this.#extra } : req.headers;
    const deadline = this.options.deadlineEpochMs ?? Number.POSITIVE_INFINITY;
    const cap = this.options.maxBodyBytes ?? MAX_BODY_BYTES;
    let waits = 0;
    let gateway = 0;
    let resent = false;
    let onNew = fresh;
    for (;;) {
      const slot = this.#gate.acquire();
      if (slot) await slot;
      if (this.options.rateLimiter) await this.options.rateLimiter.take();
      this.#sent++;
      const startedAt = Date.now();
      const wire: HttpRequest = {
        method: req.method,
        path: req.path,
        headers,
        ...(req.encoded !== undefined
          ? { body: req.encoded }
          : req.body === undefined
            ? {}
            : { body: req.body }),
      };
      this.#sentFor.set(wire, { req, source });
      let raw: HttpResult;
      try {
        raw = await this.#transportTo(req.origin).send(wire, {
          timeoutMs: this.options.timeoutMs,
          maxBodyBytes: cap,
          ...(onNew ? { fresh: true } : {}),
        });
      } finally {
        this.#gate.release();
      }
      if (raw.kind === "response" && raw.headers["content-encoding"] !== undefined)
        raw = await decodeAnswer(raw, cap);
      const throttled = raw.kind === "response" && isThrottled(raw.status, raw.headers);
      const gatewayError =
        !throttled &&
        raw.kind === "response" &&
        (raw.status === 502 || raw.status === 504) &&
        !isJson(raw.body);
      const again =
        raw.kind === "transport-error" && raw.retry !== undefined && !resent
          ? raw.retry
          : undefined;
      if (this.options.har)
        this.options.har(
          JSON.stringify(
            harEntry(
              this.#answer(req, raw, source).exchange(),
              source,
              startedAt,
              throttled
                ? "throttled"
                : gatewayError && gateway < GATEWAY_RETRIES
                  ? "gateway"
                  : again,
            ),
          ),
        );
      if (raw.kind === "response" && throttled) {
        this.#throttled++;
        this.#gate.throttled();
        const delay = retryDelayMs(raw.headers["retry-after"], waits++);
        if (Date.now() + delay >= deadline)
          return {
            kind: "transport-error",
            code: THROTTLED_OUT,
            message: `throttled: the provider's gateway still answered ${raw.status} when the time limit came (${waits} waits)`,
            durationMs: raw.durationMs,
          };
        await sleep(delay);
        continue;
      }
      if (raw.kind === "response" && gatewayError) {
        if (gateway < GATEWAY_RETRIES) {
          gateway++;
          this.#gateway++;
          onNew = true;
          await sleep(GATEWAY_WAIT_MS);
          continue;
        }
        return {
          kind: "transport-error",
          code: E_GATEWAY,
          message: `the gateway answered ${raw.status}: the provider behind it did not answer (${gateway + 1} tries, ${GATEWAY_WAIT_MS / 1000} s apart, each on a new connection)`,
          durationMs: raw.durationMs,
        };
      }
      if (again) {
        resent = true;
        this.#resent++;
        onNew = true;
        continue;
      }
      if (raw.kind === "response") this.#gate.answered();
      return raw;
    }
  }

  /** Closes every kept-alive connection. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.#transports.values()].map((p) => p.destroy().catch(() => undefined)),
    );
    this.#transports.clear();
  }
}
