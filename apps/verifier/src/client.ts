import { Agent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { DetailedOperationId } from "@idp/contracts";
import { type HttpResult, send } from "./http.ts";
import { Limiter } from "./limiter.ts";
import { type Redactor, redactHeaders } from "./redact.ts";

/** How many bytes of an answer's body a report shows. */
export const BODY_PREVIEW_BYTES = 512;
/** How much of a sent body a report shows. */
const REQUEST_BODY_PREVIEW_CHARS = 8192;

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  /** Redacted: Authorization is always `<scheme> <redacted>`. */
  readonly headers: Readonly<Record<string, string>>;
  /** What the Authorization header was, in words (the header itself is redacted). */
  readonly credentials: string;
  /** curl arguments that rebuild the Authorization header from $IDP_USERNAME / $IDP_PASSWORD. */
  readonly curlAuth: readonly string[];
  readonly body?: string;
  readonly bodyTruncated?: boolean;
}

export type RecordedResult =
  | {
      readonly kind: "response";
      readonly status: number;
      readonly contentType?: string;
      readonly bodyBytes: number;
      readonly bodyPreview: string;
      readonly truncated: boolean;
      readonly durationMs: number;
    }
  | {
      readonly kind: "transport-error";
      readonly code: string;
      readonly message: string;
      readonly durationMs: number;
    };

/** One request and what came back, safe to print. */
export interface Exchange {
  readonly operation?: DetailedOperationId;
  readonly request: RecordedRequest;
  readonly result: RecordedResult;
}

/** What a check asks the client to send: a recorded request before redaction and truncation. */
export interface CallRequest extends Omit<RecordedRequest, "bodyTruncated"> {
  readonly operation?: DetailedOperationId;
}

export interface CallResult {
  readonly exchange: Exchange;
  /** The full response (body up to 1 MiB) for judging; absent on a transport failure. */
  readonly raw: HttpResult;
}

export type ExchangeObserver = (exchange: Exchange, raw: HttpResult, source: string) => void;

export interface ClientOptions {
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly maxConsecutiveFailures: number;
  readonly redactor: Redactor;
}

/**
 * Sends every request of a run: bounded concurrency, a circuit breaker that declares the provider
 * stopped after N consecutive transport failures, redacted records, and a tally of statuses.
 */
export class Client {
  readonly #limiter: Limiter;
  readonly #agents: { readonly http: Agent; readonly https: HttpsAgent };
  readonly #observers: ExchangeObserver[] = [];
  #consecutiveFailures = 0;
  #answered = 0;
  #sent = 0;
  #stoppedReason: string | undefined;
  /** operation -> status (or transport error code) -> count */
  readonly tally = new Map<string, Map<string, number>>();

  readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
    this.#limiter = new Limiter(options.concurrency);
    const keepAlive = { keepAlive: true, maxSockets: options.concurrency };
    this.#agents = { http: new Agent(keepAlive), https: new HttpsAgent(keepAlive) };
  }

  get answered(): number {
    return this.#answered;
  }
  get sent(): number {
    return this.#sent;
  }
  /** Set once the provider has stopped answering; later calls are not sent. */
  get stoppedReason(): string | undefined {
    return this.#stoppedReason;
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }

  observe(observer: ExchangeObserver): void {
    this.#observers.push(observer);
  }

  async call(req: CallRequest, source: string): Promise<CallResult> {
    const raw: HttpResult = this.#stoppedReason
      ? {
          kind: "transport-error",
          code: "E_PROVIDER_STOPPED",
          message: "not sent: the provider had stopped answering",
          durationMs: 0,
        }
      : await this.#limiter.run(() => {
          this.#sent++;
          return send(
            { method: req.method, url: req.url, headers: req.headers, ...bodyOf(req) },
            { timeoutMs: this.options.timeoutMs, agents: this.#agents },
          );
        });
    if (raw.kind === "response") {
      this.#answered++;
      this.#consecutiveFailures = 0;
    } else if (raw.code !== "E_PROVIDER_STOPPED") {
      this.#consecutiveFailures++;
      if (this.#consecutiveFailures >= this.options.maxConsecutiveFailures && !this.#stoppedReason)
        this.#stoppedReason = `${this.#consecutiveFailures} requests in a row got no answer (last: ${raw.code}: ${raw.message})`;
    }
    const exchange = this.#record(req, raw);
    if (req.operation && raw.kind === "response") {
      const row = this.tally.get(req.operation) ?? new Map<string, number>();
      const key = String(raw.status);
      row.set(key, (row.get(key) ?? 0) + 1);
      this.tally.set(req.operation, row);
    }
    if (raw.kind === "response" || raw.code !== "E_PROVIDER_STOPPED")
      for (const observer of this.#observers) observer(exchange, raw, source);
    return { exchange, raw };
  }

  #record(req: CallRequest, raw: HttpResult): Exchange {
    const scrub = (s: string) => this.options.redactor.scrub(s);
    const body = req.body;
    const request: RecordedRequest = {
      method: req.method,
      url: scrub(req.url),
      headers: Object.fromEntries(
        Object.entries(redactHeaders(req.headers)).map(([k, v]) => [k, scrub(v)]),
      ),
      credentials: req.credentials,
      curlAuth: req.curlAuth.map(scrub),
      ...(body === undefined
        ? {}
        : body.length > REQUEST_BODY_PREVIEW_CHARS
          ? { body: scrub(body.slice(0, REQUEST_BODY_PREVIEW_CHARS)), bodyTruncated: true }
          : { body: scrub(body) }),
    };
    const result: RecordedResult =
      raw.kind === "response"
        ? {
            kind: "response",
            status: raw.status,
            ...(raw.contentType !== undefined ? { contentType: scrub(raw.contentType) } : {}),
            bodyBytes: raw.body.length,
            bodyPreview: scrub(raw.body.subarray(0, BODY_PREVIEW_BYTES).toString("utf8")),
            truncated: raw.truncated,
            durationMs: raw.durationMs,
          }
        : {
            kind: "transport-error",
            code: raw.code,
            message: scrub(raw.message),
            durationMs: raw.durationMs,
          };
    return { ...(req.operation ? { operation: req.operation } : {}), request, result };
  }
}

const bodyOf = (req: CallRequest): { body?: string } =>
  req.body === undefined ? {} : { body: req.body };

/** A curl command that replays the request, with the credentials taken from the environment. */
export function curlCommand(exchange: Exchange): string {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const parts = ["curl", "-sS", "-i", "-X", exchange.request.method, q(exchange.request.url)];
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    if (name.toLowerCase() === "authorization") parts.push(...exchange.request.curlAuth);
    else if (name.toLowerCase() !== "content-length") parts.push("-H", q(`${name}: ${value}`));
  }
  if (exchange.request.body !== undefined) parts.push("--data-binary", q(exchange.request.body));
  return parts.join(" ");
}
