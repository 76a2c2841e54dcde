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
  /** The status answered (0 while the answer is not written yet). */
  readonly status: number;
}

/** Every request counted, the last few kept: memory stays bounded however long a run is. */
export interface RequestLog {
  readonly count: number;
  /** The most recent requests, oldest first. */
  readonly recent: readonly RecordedRequest[];
  /** Answers per status, over the whole run (counted when each answer is over). */
  readonly byStatus: ReadonlyMap<number, number>;
  clear(): void;
}

interface Entry {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly bodyBytes: number;
  readonly head: Buffer;
}

export function createRequestLog(keep: number) {
  let count = 0;
  let ring: (Entry | undefined)[] = new Array(Math.max(0, keep));
  let byStatus = new Map<number, number>();
  const countStatus = (res: ServerResponse) => {
    if (res.headersSent) byStatus.set(res.statusCode, (byStatus.get(res.statusCode) ?? 0) + 1);
  };

  const view: RequestLog = {
    get count() {
      return count;
    },
    get recent() {
      const out: RecordedRequest[] = [];
      for (let i = Math.max(0, count - ring.length); i < count; i++) {
        const e = ring[i % ring.length];
        if (!e) continue;
        out.push({
          method: e.req.method ?? "",
          url: e.req.url ?? "",
          authorization: e.req.headers.authorization,
          contentType: e.req.headers["content-type"],
          bodyBytes: e.bodyBytes,
          bodyHead: e.head.toString("utf8"),
          status: e.res.headersSent ? e.res.statusCode : 0,
        });
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
    record(
      req: IncomingMessage,
      res: ServerResponse,
      raw: Buffer | "too-large",
      bodyBytes: number,
    ) {
      // Copy the head: a slice would keep the whole received chunk alive.
      const head = raw === "too-large" ? Buffer.alloc(0) : Buffer.from(raw.subarray(0, 256));
      if (ring.length > 0) ring[count % ring.length] = { req, res, bodyBytes, head };
      count++;
      // "close" comes for finished and for aborted answers alike (a huge body cut short).
      res.once("close", () => countStatus(res));
    },
  };
}
