import { Pool } from "undici";
import type { Secrets } from "../secrets.ts";
import { type Exchange, type OutgoingRequest, recordExchange } from "./exchange.ts";
import { type HttpResult, MAX_BODY_BYTES, send } from "./send.ts";

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
  /** Keep-alive connections per origin. */
  readonly connections: number;
  readonly maxConsecutiveFailures: number;
  readonly secrets: Secrets;
  readonly maxBodyBytes?: number;
}

const NOT_SENT: HttpResult = {
  kind: "transport-error",
  code: "E_PROVIDER_STOPPED",
  message: "not sent: the provider had stopped answering",
  durationMs: 0,
};

/**
 * Sends every request of a run over keep-alive connections (one pool per origin), counts what was
 * sent and answered, tallies statuses per operation, tells observers about every answer, and
 * declares the provider stopped after N transport failures in a row (later calls are not sent).
 */
export class Client {
  readonly options: ClientOptions;
  readonly #pools = new Map<string, Pool>();
  readonly #observers: AnswerObserver[] = [];
  #consecutiveFailures = 0;
  #answered = 0;
  #sent = 0;
  #stoppedReason: string | undefined;
  /** operation -> status -> count */
  readonly tally = new Map<string, Map<number, number>>();

  constructor(options: ClientOptions) {
    this.options = options;
  }

  get answered(): number {
    return this.#answered;
  }
  get sent(): number {
    return this.#sent;
  }
  /** Set once the provider has stopped answering. */
  get stoppedReason(): string | undefined {
    return this.#stoppedReason;
  }

  observe(observer: AnswerObserver): void {
    this.#observers.push(observer);
  }

  #pool(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.options.connections,
        pipelining: 1,
        connectTimeout: this.options.timeoutMs,
        keepAliveTimeout: 4_000,
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  /** Sends one request; `source` names the check it belongs to (for observations). */
  async send(req: OutgoingRequest, source: string): Promise<Answer> {
    let raw: HttpResult;
    if (this.#stoppedReason) raw = NOT_SENT;
    else {
      this.#sent++;
      raw = await send(
        this.#pool(req.origin),
        { method: req.method, path: req.path, headers: req.headers, ...bodyOf(req) },
        {
          timeoutMs: this.options.timeoutMs,
          maxBodyBytes: this.options.maxBodyBytes ?? MAX_BODY_BYTES,
        },
      );
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
    } else if (raw !== NOT_SENT) {
      this.#consecutiveFailures++;
      if (this.#consecutiveFailures >= this.options.maxConsecutiveFailures && !this.#stoppedReason)
        this.#stoppedReason = `${this.#consecutiveFailures} requests in a row got no answer (last: ${raw.code}: ${this.options.secrets.scrub(raw.message)})`;
    }
    let recorded: Exchange | undefined;
    const secrets = this.options.secrets;
    const answer: Answer = {
      request: req,
      raw,
      exchange: () => {
        recorded ??= recordExchange(req, raw, secrets);
        return recorded;
      },
    };
    if (raw !== NOT_SENT) for (const observer of this.#observers) observer(answer, source);
    return answer;
  }

  /** Closes every kept-alive connection. */
  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((p) => p.destroy().catch(() => undefined)));
    this.#pools.clear();
  }
}

const bodyOf = (req: OutgoingRequest): { body?: string } =>
  req.body === undefined ? {} : { body: req.body };
