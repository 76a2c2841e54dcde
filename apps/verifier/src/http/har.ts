import { closeSync, openSync, writeSync } from "node:fs";
import type { Exchange } from "./exchange.ts";

/** One exchange as a HAR 1.2 entry (http://www.softwareishard.com/blog/har-12-spec/). */
export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly { readonly name: string; readonly value: string }[];
    readonly queryString: readonly { readonly name: string; readonly value: string }[];
    readonly postData?: { readonly mimeType: string; readonly text: string };
    readonly headersSize: number;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly { readonly name: string; readonly value: string }[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string };
    readonly redirectURL: string;
    readonly headersSize: number;
    readonly bodySize: number;
    readonly _error?: string;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  /** Which part of the run sent it (a check id, `pact`, `provider-state`, `preflight`, ...). */
  readonly _source: string;
  /** A gateway's 429/503 waited out and sent again (conformance.md §7). */
  readonly _throttled?: true;
  /**
   * Sent again: after a gateway's 502/504 (§7), a connection kept alive closed idle before the
   * answer, or an answer followed by bytes nobody asked for (§9). Never judged.
   */
  readonly _resent?: "gateway" | "idle-close" | "stray";
  readonly _truncated?: true;
}

const pairs = (headers: Readonly<Record<string, string>>) =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

/**
 * The HAR entry of a recorded exchange: built from the record, so every secret is already out
 * (Authorization and `--header` values redacted where they were placed, the answer scrubbed).
 */
export function harEntry(
  exchange: Exchange,
  source: string,
  startedAt: number,
  mark?: "throttled" | "gateway" | "idle-close" | "stray",
): HarEntry {
  const { request, result } = exchange;
  const url = new URL(request.url);
  const contentType =
    Object.entries(request.headers).find(([n]) => n.toLowerCase() === "content-type")?.[1] ??
    "application/octet-stream";
  const time = result.durationMs;
  return {
    startedDateTime: new Date(startedAt).toISOString(),
    time,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: pairs(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(request.body !== undefined
        ? { postData: { mimeType: contentType, text: request.body } }
        : {}),
      headersSize: -1,
      bodySize: request.bodyBytes ?? 0,
    },
    response:
      result.kind === "response"
        ? {
            status: result.status,
            statusText: "",
            httpVersion: "HTTP/1.1",
            cookies: [],
            headers: pairs(result.headers),
            content: {
              size: result.bodyBytes,
              mimeType: result.contentType ?? "",
              ...(result.bodyPreview ? { text: result.bodyPreview } : {}),
            },
            redirectURL: "",
            headersSize: -1,
            bodySize: result.bodyBytes,
          }
        : {
            status: 0,
            statusText: "",
            httpVersion: "",
            cookies: [],
            headers: [],
            content: { size: 0, mimeType: "" },
            redirectURL: "",
            headersSize: -1,
            bodySize: -1,
            _error: `${result.code}: ${result.message}`,
          },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    _source: source,
    ...(mark === "throttled" ? { _throttled: true as const } : mark ? { _resent: mark } : {}),
    ...(request.bodyTruncated ||
    (result.kind === "response" && result.bodyPreview.length < result.bodyBytes)
      ? { _truncated: true as const }
      : {}),
  };
}

/**
 * `--har FILE`: every exchange of the run, streamed to the file as it happens (memory stays flat
 * however long the run), closed into one HAR 1.2 document at the end. Request bodies over 64 KiB
 * and answers over 2 KiB are cut as in every record (`_truncated`).
 */
export class HarWriter {
  readonly #fd: number;
  #count = 0;
  #closed = false;

  constructor(path: string, creator: { readonly name: string; readonly version: string }) {
    this.#fd = openSync(path, "w");
    writeSync(
      this.#fd,
      `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"pages":[],"entries":[\n`,
    );
  }

  get count(): number {
    return this.#count;
  }

  /** Appends one entry (as JSON text, so a worker thread's entries need no second encoding). */
  write(entryJson: string): void {
    if (this.#closed) return;
    writeSync(this.#fd, `${this.#count++ === 0 ? "" : ",\n"}${entryJson}`);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    writeSync(this.#fd, "\n]}}\n");
    closeSync(this.#fd);
  }
}
