import { type Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { type Agent as HttpsAgent, request as httpsRequest } from "node:https";

/** Response bodies are read up to this many bytes, then cut. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface HttpResponse {
  readonly kind: "response";
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
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
  readonly timeoutMs: number;
  readonly maxBodyBytes?: number;
  /** Keep-alive agents to reuse connections; without them, each request has its own connection. */
  readonly agents?: { readonly http: Agent; readonly https: HttpsAgent };
}

/**
 * One HTTP exchange with full control: an overall deadline (connect + answer + body), the body read
 * up to a cap, redirects never followed, and every error returned as a result, never thrown.
 */
export function send(req: HttpRequest, options: SendOptions): Promise<HttpResult> {
  const started = performance.now();
  const cap = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolvePromise) => {
    let settled = false;
    const finish = (result: HttpResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise(result);
    };
    const failure = (code: string, message: string): TransportFailure => ({
      kind: "transport-error",
      code,
      message,
      durationMs: elapsed(),
    });
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      finish(failure("EINVALIDURL", `invalid URL ${req.url}`));
      return;
    }
    const body = req.body === undefined ? undefined : Buffer.from(req.body, "utf8");
    const agent = options.agents?.[url.protocol === "https:" ? "https" : "http"];
    const headers: Record<string, string> = agent
      ? { ...req.headers }
      : { ...req.headers, connection: "close" };
    if (body !== undefined) headers["content-length"] = String(body.length);
    const doRequest = url.protocol === "https:" ? httpsRequest : httpRequest;
    const clientRequest = doRequest(url, { method: req.method, headers, agent: agent ?? false });
    const timer = setTimeout(() => {
      finish(failure("ETIMEDOUT", `no complete answer within ${options.timeoutMs} ms`));
      clientRequest.destroy();
    }, options.timeoutMs);
    clientRequest.on("error", (err: NodeJS.ErrnoException) => {
      finish(failure(err.code ?? "EREQUEST", err.message));
    });
    clientRequest.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = () =>
        finish({
          kind: "response",
          status: res.statusCode ?? 0,
          headers: res.headers,
          contentType: res.headers["content-type"],
          body: Buffer.concat(chunks),
          truncated,
          durationMs: elapsed(),
        });
      res.on("data", (chunk: Buffer) => {
        if (truncated) return;
        const room = cap - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size = cap;
          truncated = true;
          done();
          res.destroy();
          clientRequest.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on("end", done);
      res.on("error", (err: NodeJS.ErrnoException) =>
        finish(failure(err.code ?? "ERESPONSE", `reading the answer: ${err.message}`)),
      );
      res.on("aborted", () => finish(failure("ECONNRESET", "the answer was cut off")));
    });
    clientRequest.end(body);
  });
}
