// 512 MiB bodies are streamed, never built: reading 64 MiB of one keeps this process's memory flat,
// and the writer waits for a slow reader (backpressure).
import { request } from "node:http";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { HUGE_BODY_BYTES, startHandProvider, startHostile, streamLazily } from "../src/index.ts";
import { CREDENTIALS } from "./support.ts";

const MiB = 1024 * 1024;
// Reading 64 MiB leaves up to ~60 MiB of received chunks for the GC (measured); a body built in
// memory would add its 512 MiB. Half of that separates the two with a wide margin either side.
const ALLOWED_GROWTH = 256 * MiB;

/** Reads `limit` bytes of the answer to a POST, then aborts; returns bytes read and peak RSS growth. */
function readSome(
  url: string,
  limit: number,
  auth?: string,
): Promise<{ declared: number; read: number; rssGrowth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: auth ? { authorization: auth } : {} });
    req.on("response", (res) => {
      let read = 0;
      res.on("data", (c: Buffer) => {
        read += c.length;
        if (read % (4 * MiB) < c.length) peak = Math.max(peak, process.memoryUsage().rss);
        if (read >= limit) {
          req.destroy();
          resolve({
            declared: Number(res.headers["content-length"]),
            read,
            rssGrowth: peak - before,
          });
        }
      });
    });
    req.on("error", (e) => {
      if (!req.destroyed) reject(e);
    });
    req.end("{}");
  });
}

describe("huge bodies", () => {
  it("hostile huge-body: 64 MiB of a 512 MiB answer read with flat memory", async () => {
    const h = await startHostile("huge-body");
    try {
      const r = await readSome(`${h.baseUrl}/marketing/datastore/schemas`, 64 * MiB, "Basic eDp5");
      expect(r.declared).toBe(HUGE_BODY_BYTES);
      expect(r.read).toBeGreaterThanOrEqual(64 * MiB);
      expect(r.rssGrowth).toBeLessThan(ALLOWED_GROWTH);
    } finally {
      await h.close();
    }
  });

  it("fault big-body: the same for a 401 of the hand provider", async () => {
    const p = await startHandProvider({ credentials: CREDENTIALS, faults: ["big-body"] });
    try {
      const r = await readSome(`${p.baseUrl}/marketing/datastore/schemas`, 64 * MiB);
      expect(r.declared).toBe(HUGE_BODY_BYTES);
      expect(r.rssGrowth).toBeLessThan(ALLOWED_GROWTH);
      // the provider still answers after the reader went away
      const state = await fetch(p.statesUrl, {
        method: "POST",
        body: JSON.stringify({
          state: "a login user exists",
          params: { id: "u" },
          action: "setup",
        }),
      });
      expect(state.status).toBe(200);
    } finally {
      await p.close();
    }
  });

  it("streamLazily writes no further while the reader's buffer is full", async () => {
    let maxBuffered = 0;
    let received = 0;
    const slow = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _enc, done) {
        received += chunk.length;
        maxBuffered = Math.max(maxBuffered, slow.writableLength);
        setTimeout(done, 0);
      },
    });
    const finished = new Promise((resolve) => slow.on("finish", resolve));
    streamLazily(slow, 4 * MiB + 5, "[", "]");
    await finished;
    expect(received).toBe(4 * MiB + 5);
    expect(maxBuffered).toBeLessThanOrEqual(3 * 64 * 1024);
  });
});
