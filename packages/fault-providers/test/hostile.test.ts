// Each hostile transport behaves as named, observed with node:http and node:net clients.
import { request } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HOSTILE_KINDS, type RunningHostile, startHostile } from "../src/index.ts";
import { AUTH, call } from "./support.ts";

let running: RunningHostile | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

type Outcome =
  | { kind: "response"; status: number; headers: Record<string, unknown>; body: string }
  | { kind: "error"; code: string }
  | { kind: "timeout" };

/** One POST with node:http, no redirects followed, a time limit. */
function send(url: string, timeoutMs: number, auth?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ kind: "timeout" });
    }, timeoutMs);
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ kind: "response", status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ kind: "error", code: e.code ?? e.message });
    });
    req.end('{"schema":{}}');
  });
}

/** A limit that only keeps a broken kind from hanging the test: a loaded CI must never reach it. */
const CAP_MS = 20_000;

const schemas = (r: RunningHostile) => `${r.baseUrl}/marketing/datastore/schemas`;

it("every kind starts and closes", async () => {
  for (const kind of HOSTILE_KINDS) {
    const r = await startHostile(kind);
    expect(r.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(r.statesUrl).toBe(r.baseUrl.replace(/\/v1$/, "/_pact/provider-states"));
    await r.close();
  }
  await expect(startHostile("nope" as never)).rejects.toThrow(/unknown hostile kind/);
});

describe("kinds", () => {
  it("hang: accepts and reads, never answers", async () => {
    running = await startHostile("hang");
    expect(await send(schemas(running), 300)).toEqual({ kind: "timeout" });
    // Under load the time limit can fire before the server's accept is handled in the same turn.
    await vi.waitFor(() => expect(running?.connections).toBe(1), { timeout: 10_000 });
  });

  it("reset: the connection is reset", async () => {
    running = await startHostile("reset");
    expect(await send(schemas(running), CAP_MS)).toEqual({ kind: "error", code: "ECONNRESET" });
  });

  it("drip: a status line and headers, then one byte per interval", async () => {
    running = await startHostile("drip", { dripIntervalMs: 50 });
    const { port } = new URL(running.baseUrl);
    // Read until four bytes of the body came (or 10 s): a fixed window of wall time counted the
    // intervals, which a loaded machine stretches (3 in 600 ms once, in CI).
    const { received, headAt, fourthAt } = await new Promise<{
      received: string;
      headAt: number;
      fourthAt: number;
    }>((resolve) => {
      let text = "";
      let headAt = Number.NaN;
      const done = (fourthAt: number) => {
        socket.destroy();
        resolve({ received: text, headAt, fourthAt });
      };
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          "POST /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
        );
      });
      socket.setEncoding("latin1");
      socket.on("data", (c: string) => {
        text += c;
        const at = text.indexOf("\r\n\r\n");
        if (at === -1) return;
        if (Number.isNaN(headAt)) headAt = performance.now();
        if (text.length - (at + 4) >= 4) done(performance.now());
      });
      setTimeout(() => done(Number.NaN), 10_000);
    });
    const [head, body = ""] = received.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/Content-Length: 1073741824/);
    // A trickle, never the whole body: four bytes came, a few at most, and no sooner than about
    // three intervals after the head (load only makes the gaps longer).
    expect(body.length).toBeGreaterThanOrEqual(4);
    expect(body.length).toBeLessThanOrEqual(20);
    expect(fourthAt - headAt).toBeGreaterThanOrEqual(3 * 50 * 0.8);
  });

  it("redirect-loop: 302 to the same URL, forever", async () => {
    running = await startHostile("redirect-loop");
    const first = await send(`${schemas(running)}?x=1`, CAP_MS);
    expect(first).toMatchObject({
      kind: "response",
      status: 302,
      headers: { location: "/v1/marketing/datastore/schemas?x=1" },
    });
    await expect(fetch(schemas(running), { method: "POST", body: "{}" })).rejects.toThrow(
      /fetch failed/,
    );
  });

  it("garbage: bytes that are not HTTP", async () => {
    running = await startHostile("garbage");
    const r = await send(schemas(running), CAP_MS);
    expect(r.kind).toBe("error");
    expect((r as { code: string }).code).toMatch(/^HPE_/);
  });

  it("bad-json: 401, 400 and 2xx, each application/json and not JSON", async () => {
    running = await startHostile("bad-json");
    const denied = await call(running.baseUrl, "createSchema", { auth: null });
    const malformed = await call(running.baseUrl, "createSchema", { body: "{" });
    const created = await call(running.baseUrl, "createSchema");
    const pushed = await call(running.baseUrl, "pushToUserDevices");
    const rules = await call(running.baseUrl, "updateClusteringRules");
    expect([denied, malformed, created, pushed, rules].map((a) => a.status)).toEqual([
      401, 400, 201, 200, 200,
    ]);
    for (const a of [denied, malformed, created]) {
      expect(a.headers.get("content-type")).toBe("application/json");
      expect(() => JSON.parse(a.text)).toThrow(SyntaxError);
    }
  });

  it("huge-body: the declared number of bytes, a JSON error body", async () => {
    running = await startHostile("huge-body", { bytes: 8 * 1024 * 1024 });
    const r = await send(schemas(running), CAP_MS, AUTH);
    expect(r).toMatchObject({
      kind: "response",
      status: 200,
      headers: { "content-length": String(8 * 1024 * 1024) },
    });
    const body = (r as { body: string }).body;
    expect(body.length).toBe(8 * 1024 * 1024);
    expect(JSON.parse(body)).toMatchObject({ error: "huge", errors: [expect.any(String)] });
    expect(await send(schemas(running), CAP_MS)).toMatchObject({ status: 401 });
  });

  it("refused: nothing listens", async () => {
    running = await startHostile("refused");
    expect(await send(schemas(running), CAP_MS)).toEqual({ kind: "error", code: "ECONNREFUSED" });
    expect(running.connections).toBe(0);
  });
});
