import type { Secrets } from "../secrets.ts";
import { AdaptiveGate } from "./adaptive-gate.ts";
import { type Exchange, type OutgoingRequest, recordExchange } from "./exchange.ts";
import { harEntry } from "./har.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { type HttpResult, MAX_BODY_BYTES } from "./send.ts";
import { DIRECT, type TransportSettings } from "./settings.ts";
import { isThrottled, retryDelayMs } from "./throttle.ts";
import { type Transport, transportFor } from "./transport.ts";

/** What came back for one request: the full answer for judging, and its safe record on demand. */
export interface Answer {
  readonly request: OutgoingRequest;
  readonly raw: HttpResult;
  /** The redacted, scrubbed record (built once, only when asked: passing cases never pay for it). */
  exchange(): Exchange;
}

export type AnswerObserver = (answer: Answer, source: string) => void;

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

/** A connection closed before any answer: a gateway dropping it; sent again, twice at most. */
const DROPPED = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "UND_ERR_CLOSED"]);
const DROP_RETRIES = 2;

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
  readonly #gate: AdaptiveGate;
  readonly #transport: TransportSettings;
  /** `--header` values as recorded: the names, never the values. */
  readonly #recordedExtra: Readonly<Record<string, string>>;
  readonly #extra: Readonly<Record<string, string>>;
  /** Whether there are `--header` values to add (asked per request). */
  readonly #hasExtra: boolean;
  #consecutiveFailures = 0;
  #answered = 0;
  #sent = 0;
  #throttled = 0;
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
  /** Set once the provider has stopped answering. */
  get stoppedReason(): string | undefined {
    return this.#stoppedReason;
  }

  observe(observer: AnswerObserver): void {
    this.#observers.push(observer);
  }

  #transportTo(origin: string): Transport {
    let d = this.#transports.get(origin);
    if (!d) {
      d = transportFor(origin, {
        connections: this.options.connections,
        timeoutMs: this.options.timeoutMs,
        tls: this.#transport.tls,
        proxy: this.#transport.proxy,
      });
      this.#transports.set(origin, d);
    }
    return d;
  }

  /** Sends one request; `source` names the check it belongs to (for observations). */
  async send(req: OutgoingRequest, source: string): Promise<Answer> {
    let raw: HttpResult;
    if (this.#stoppedReason) raw = NOT_SENT;
    else {
      const asked = this.options.writes?.before(req);
      if (asked) await asked;
      raw = await this.#sendThrough(req, source);
      this.options.writes?.after(req, raw);
    }
    if (raw.kind === "response") {
      this.#answered++;
      this.#consecutiveFailures = 0;
      if (req.operation) {
        let row = this.tally.get(req.operation);
        if (!row) {
          row = new Map();
          this.tally.set(req.operation, row);
        }
        row.set(raw.status, (row.get(raw.status) ?? 0) + 1);
      }
    } else if (raw !== NOT_SENT && raw.code !== THROTTLED_OUT) {
      this.#consecutiveFailures++;
      if (this.#consecutiveFailures >= this.options.maxConsecutiveFailures && !this.#stoppedReason)
        this.#stoppedReason = `${this.#consecutiveFailures} requests in a row got no answer (last: ${raw.code}: ${this.options.secrets.scrub(raw.message)})`;
    }
    const answer = this.#answer(req, raw);
    if (raw.kind === "response" || (raw !== NOT_SENT && raw.code !== THROTTLED_OUT))
      for (const observer of this.#observers) observer(answer, source);
    return answer;
  }

  #answer(req: OutgoingRequest, raw: HttpResult): Answer {
    let recorded: Exchange | undefined;
    const secrets = this.options.secrets;
    const extra = this.#recordedExtra;
    return {
      request: req,
      raw,
      exchange: () => {
        recorded ??= recordExchange(
          this.#hasExtra ? { ...req, headers: { ...req.headers, ...extra } } : req,
          raw,
          secrets,
        );
        return recorded;
      },
    };
  }

  /** Sends until the answer is not a gateway's "not now" (or the run's time is up). */
  async #sendThrough(req: OutgoingRequest, source: string): Promise<HttpResult> {
    const headers = this.#hasExtra ? { ...req.headers, ...this.#extra } : req.headers;
    const deadline = this.options.deadlineEpochMs ?? Number.POSITIVE_INFINITY;
    let waits = 0;
    let drops = 0;
    for (;;) {
      const slot = this.#gate.acquire();
      if (slot) await slot;
      if (this.options.rateLimiter) await this.options.rateLimiter.take();
      this.#sent++;
      const startedAt = Date.now();
      let raw: HttpResult;
      try {
        raw = await this.#transportTo(req.origin).send(
          {
            origin: req.origin,
            method: req.method,
            path: req.path,
            headers,
            ...(req.encoded !== undefined
              ? { body: req.encoded }
              : req.body === undefined
                ? {}
                : { body: req.body }),
          },
          {
            timeoutMs: this.options.timeoutMs,
            maxBodyBytes: this.options.maxBodyBytes ?? MAX_BODY_BYTES,
          },
        );
      } finally {
        this.#gate.release();
      }
      const throttled = raw.kind === "response" && isThrottled(raw.status, raw.headers);
      if (this.options.har)
        this.options.har(
          JSON.stringify(harEntry(this.#answer(req, raw).exchange(), source, startedAt, throttled)),
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
      if (raw.kind === "transport-error" && DROPPED.has(raw.code) && drops < DROP_RETRIES) {
        drops++;
        await sleep(50 * drops);
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
