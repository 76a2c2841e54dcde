import type { IncomingMessage, ServerResponse } from "node:http";

/** One request as the provider received it (for debugging a test; bodies cut to 256 bytes). */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  /** Bytes received (the whole body, also when it was over the cap). */
  readonly bodyBytes: number;
  /** The first 256 bytes of the body as UTF-8 (`""` when over the cap). */
  readonly bodyHead: string;
  /** The status answered (0 if no answer was started). */
  readonly status: number;
}

/** Every request counted, the last few kept: memory stays bounded however long a run is. */
export interface RequestLog {
  readonly count: number;
  /** The most recent requests, oldest first. */
  readonly recent: readonly RecordedRequest[];
  /** Answers per status, over the whole run. */
  readonly byStatus: ReadonlyMap<number, number>;
  clear(): void;
}

export function createRequestLog(keep: number) {
  let count = 0;
  let ring: (RecordedRequest | undefined)[] = new Array(Math.max(0, keep));
  let byStatus = new Map<number, number>();

  const view: RequestLog = {
    get count() {
      return count;
    },
    get recent() {
      const out: RecordedRequest[] = [];
      for (let i = Math.max(0, count - ring.length); i < count; i++) {
        const e = ring[i % ring.length];
        if (e) out.push(e);
      }
      return out;
    },
    get byStatus() {
      return byStatus;
    },
    clear() {
      count = 0;
      ring = new Array(ring.length);
      byStatus = new Map();
    },
  };

  return {
    view,
    /** Called once the answer's head is written (every answer here is started synchronously). */
    record(
      req: IncomingMessage,
      res: ServerResponse,
      raw: Buffer | "too-large",
      bodyBytes: number,
    ) {
      const status = res.headersSent ? res.statusCode : 0;
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      if (ring.length > 0)
        ring[count % ring.length] = {
          method: req.method ?? "",
          url: req.url ?? "",
          authorization: req.headers.authorization,
          contentType: req.headers["content-type"],
          bodyBytes,
          bodyHead: raw === "too-large" ? "" : raw.subarray(0, 256).toString("utf8"),
          status,
        };
      count++;
    },
  };
}
