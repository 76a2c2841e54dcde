// Each front misbehaves as named, observed in raw bytes with a node:net client (no HTTP parser
// between the front and the assertion).
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FRONT_KINDS,
  type FrontOptions,
  type RunningProvider,
  startFront,
  startHandProvider,
} from "../src/index.ts";
import { CREDENTIALS } from "./support.ts";

let provider: RunningProvider;
beforeAll(async () => {
  provider = await startHandProvider({ credentials: CREDENTIALS });
});
afterAll(() => provider.close());

const REQUEST =
  "POST /v1/marketing/datastore/schemas HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nproxy-authorization: Basic cDpx\r\ncontent-length: 2\r\n\r\n{}";

/** Writes `count` requests, one after each answer's first bytes, and returns every byte read until `waitMs` of quiet or the close. */
async function exchange(options: Omit<FrontOptions, "upstream">, count = 1, waitMs = 150) {
  const f = await startFront({ upstream: new URL(provider.baseUrl).origin, ...options });
  try {
    return await new Promise<{ text: string; closed: boolean }>((resolve) => {
      const socket = connect(Number(new URL(f.origin).port), "127.0.0.1");
      let text = "";
      let sent = 0;
      let quiet: NodeJS.Timeout | undefined;
      const done = (closed: boolean) => {
        clearTimeout(quiet);
        socket.destroy();
        resolve({ text, closed });
      };
      const send = () => {
        sent++;
        socket.write(REQUEST);
      };
      socket.on("connect", send);
      socket.on("data", (d: Buffer) => {
        text += d.toString("latin1");
        clearTimeout(quiet);
        quiet = setTimeout(() => (sent < count ? send() : done(false)), waitMs);
      });
      socket.on("end", () => done(true));
      socket.on("error", () => done(true));
    });
  } finally {
    await f.close();
  }
}

const answers = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

describe("fronts", () => {
  it("every kind starts and closes; an unknown one is refused", async () => {
    for (const kind of FRONT_KINDS) {
      const f = await startFront({ upstream: new URL(provider.baseUrl).origin, kind });
      expect(f.baseUrl).toBe(`${f.origin}/v1`);
      await f.close();
    }
    await expect(startFront({ upstream: provider.baseUrl, kind: "nope" as never })).rejects.toThrow(
      /unknown front kind/,
    );
  });

  it("plain: the provider's answer, tagged with the request it is for", async () => {
    const { text } = await exchange({ kind: "plain" });
    expect(answers(text)).toEqual(["HTTP/1.1 401"]);
    expect(text).toMatch(
      /\r\nx-answer-to: POST \/v1\/marketing\/datastore\/schemas sha1:[0-9a-f]{12}\r\n/,
    );
  });

  it("stray-early: a second answer, tagged nobody, in the same write", async () => {
    const { text } = await exchange({ kind: "stray-early", every: 1 });
    expect(answers(text)).toEqual(["HTTP/1.1 401", "HTTP/1.1 200"]);
    expect(text).toContain("x-answer-to: nobody");
  });

  it("cut-short: 10 bytes fewer than its Content-Length, then the close", async () => {
    const { text, closed } = await exchange({ kind: "cut-short", every: 1 });
    const [head = "", body = ""] = text.split("\r\n\r\n");
    expect(Number(/content-length: (\d+)/.exec(head)?.[1])).toBe(Buffer.byteLength(body) + 10);
    expect(closed).toBe(true);
  });

  it("malformed bare-lf: every line ends in LF alone", async () => {
    const { text } = await exchange({ kind: "malformed", every: 1, malformation: "bare-lf" });
    expect(text).toMatch(/^HTTP\/1\.1 401 Unauthorized\n/);
    expect(text).not.toContain("\r");
  });

  it("gateway-errors: 502 with an HTML body, the request not forwarded", async () => {
    const before = provider.requests.count;
    const { text } = await exchange({ kind: "gateway-errors", every: 1 });
    expect(answers(text)).toEqual(["HTTP/1.1 502"]);
    expect(text).toContain("text/html");
    expect(provider.requests.count).toBe(before);
  });

  it("echo-headers: Proxy-Authorization comes back", async () => {
    const { text } = await exchange({ kind: "echo-headers" });
    expect(text).toContain("x-echo-proxy-authorization: Basic cDpx");
  });

  it("idle-close: half-closes an idle connection, and still forwards what comes after", async () => {
    const before = provider.requests.count;
    const { text, closed } = await exchange({ kind: "idle-close", idleCloseMs: 50 }, 2, 120);
    expect(answers(text)).toEqual(["HTTP/1.1 401"]);
    expect(closed).toBe(true);
    expect(provider.requests.count - before).toBeGreaterThanOrEqual(1);
  });

  it("terminal-escapes: an error body of escape sequences", async () => {
    const { text } = await exchange({ kind: "terminal-escapes" });
    expect(text).toContain("\u001b[2K\r");
  });
});
