// The verifier's own HTTP/1.1 connections (src/http/h1-pool.ts) against servers written byte by
// byte here: what each framing of an answer reads as, what a malformed one fails with, when a
// connection is kept and when it is not, and what goes on the wire.
import { Buffer } from "node:buffer";
import { createServer as createTcpServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { createTestPki, type TestPki } from "@idp/test-utils";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { H1Pool } from "../src/http/h1-pool.ts";
import type { HttpRequest, HttpResult } from "../src/http/send.ts";
import { tlsContextOf } from "../src/http/settings.ts";
import { E_CLOSED, E_CUT_SHORT, E_IDLE_CLOSED, E_STRAY } from "../src/http/wire.ts";

interface Received {
  readonly head: string;
  readonly body: Buffer;
  readonly socket: Socket;
  readonly connection: number;
}

/** A server that reads requests (head and Content-Length body) and lets the test answer each. */
async function rawServer(
  answer: (r: Received) => unknown,
  listen: (handler: (s: Socket) => void) => Server = (h) => createTcpServer(h),
) {
  const received: Received[] = [];
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = listen((socket) => {
    const connection = ++connections;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buf = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buf.toString("latin1", 0, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const body = buf.subarray(end + 4, end + 4 + length);
        buf = buf.subarray(end + 4 + length);
        const r = { head, body, socket, connection };
        received.push(r);
        void answer(r);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    received,
    port,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

type RawServer = Awaited<ReturnType<typeof rawServer>>;
let server: RawServer | undefined;
let pool: H1Pool | undefined;
afterEach(async () => {
  await pool?.destroy();
  await server?.close();
  pool = undefined;
  server = undefined;
});

const GET: HttpRequest = { method: "GET", path: "/v1/x", headers: {} };
const send = (req: HttpRequest = GET, timeoutMs = 5_000, maxBodyBytes?: number) =>
  (pool as H1Pool).send(req, { timeoutMs, ...(maxBodyBytes ? { maxBodyBytes } : {}) });
/** A pool that reuses a connection as soon as it is validated (quietMs 0): reuse is what is tested. */
const poolFor = (s: RawServer, connections = 4, scheme = "http", quietMs = 0) => {
  pool = new H1Pool(`${scheme}://127.0.0.1:${s.port}`, { connections, quietMs });
  return pool;
};
const response = (r: HttpResult) => {
  if (r.kind !== "response") throw new Error(`expected an answer, got ${r.code}: ${r.message}`);
  return r;
};
const failure = (r: HttpResult) => {
  if (r.kind !== "transport-error") throw new Error(`expected a failure, got ${r.status}`);
  return r;
};
const tick = () => new Promise((r) => setImmediate(r));

describe("H1Pool: framing", () => {
  it("reads a Content-Length answer and keeps the connection for the next request", async () => {
    server = await rawServer(({ socket }) => {
      socket.write(
        'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 7\r\nX-A: 1\r\nX-A: 2\r\n\r\n{"a":1}',
      );
    });
    poolFor(server);
    const first = response(await send());
    const second = response(await send());
    expect(first.status).toBe(201);
    expect(first.body.toString()).toBe('{"a":1}');
    expect(first.contentType).toBe("application/json");
    expect(first.headers["x-a"]).toEqual(["1", "2"]);
    expect(second.body.toString()).toBe('{"a":1}');
    expect(server.connections).toBe(1);
  });

  it("reads a chunked answer the same whichever bytes arrive together", async () => {
    // Property: the body read is the body sent, however it is cut into chunks (with extensions
    // and trailers) and however the bytes of the answer are split across writes.
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (bodyBytes, chunkSizes, splits, trailers) => {
          const body = Buffer.from(bodyBytes);
          const parts: Buffer[] = [
            Buffer.from("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
          ];
          for (let at = 0, i = 0; at < body.length; i++) {
            const n = Math.min(chunkSizes[i % chunkSizes.length] as number, body.length - at);
            parts.push(Buffer.from(`${n.toString(16)}${i % 2 ? ";ext=1" : ""}\r\n`));
            parts.push(body.subarray(at, at + n), Buffer.from("\r\n"));
            at += n;
          }
          parts.push(Buffer.from(trailers ? "0\r\nX-Trailer: t\r\n\r\n" : "0\r\n\r\n"));
          const wire = Buffer.concat(parts);
          server = await rawServer(async ({ socket }) => {
            let at = 0;
            for (let i = 0; at < wire.length; i++) {
              const n = splits[i % splits.length] as number;
              socket.write(wire.subarray(at, at + n));
              at += n;
              await tick();
            }
          });
          poolFor(server);
          try {
            const r = response(await send());
            expect(r.body.equals(body)).toBe(true);
            // The connection is reused: the whole answer, trailers included, was read.
            expect(response(await send()).body.equals(body)).toBe(true);
            expect(server.connections).toBe(1);
          } finally {
            await pool?.destroy();
            await server.close();
          }
        },
      ),
      { numRuns: 40, seed: 1 },
    );
  });

  it("reads an answer without a length up to the connection's end, and does not reuse it", async () => {
    server = await rawServer(({ socket }) => {
      socket.end("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it");
    });
    poolFor(server);
    expect(response(await send()).body.toString()).toBe("all of it");
    expect(response(await send()).body.toString()).toBe("all of it");
    expect(server.connections).toBe(2);
  });

  it.each([
    ["timeout=1", 2],
    ["timeout=5, max=100", 1],
  ])(
    "keeps a connection by the server's Keep-Alive: %s (%i connections for two requests)",
    async (hint, expected) => {
      server = await rawServer(({ socket }) => {
        socket.write(`HTTP/1.1 200 OK\r\nKeep-Alive: ${hint}\r\nContent-Length: 2\r\n\r\nok`);
      });
      poolFor(server);
      expect(response(await send()).body.toString()).toBe("ok");
      expect(response(await send()).body.toString()).toBe("ok");
      expect(server.connections).toBe(expected);
    },
  );

  it("fails an answer without a length when the connection is reset instead of closed", async () => {
    server = await rawServer(({ socket }) => {
      socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\npart of it");
      setTimeout(() => socket.resetAndDestroy(), 20);
    });
    poolFor(server);
    expect(failure(await send()).code).toBe("ECONNRESET");
  });

  it("skips an interim 103 answer and reads the final one", async () => {
    server = await rawServer(({ socket }) => {
      socket.write(
        "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
      );
    });
    poolFor(server);
    const r = response(await send());
    expect([r.status, r.body.toString()]).toEqual([200, "ok"]);
  });

  it("refuses a 100 Continue nobody asked for (no Expect is sent), as undici does", async () => {
    server = await rawServer(({ socket }) => {
      socket.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    });
    poolFor(server);
    expect(failure(await send()).message).toMatch(/100 Continue nobody asked for/);
  });

  it("reads no body for HEAD, 204 and 304, whatever Content-Length says; never reuses after HEAD", async () => {
    const statuses = [200, 204, 304];
    server = await rawServer(({ socket, head }) => {
      const status = head.startsWith("HEAD") ? 200 : statuses[Number(/x(\d)/.exec(head)?.[1])];
      socket.write(`HTTP/1.1 ${status} X\r\nContent-Length: ${status === 200 ? 50 : 0}\r\n\r\n`);
    });
    poolFor(server, 1);
    expect(response(await send({ ...GET, method: "HEAD" })).body.length).toBe(0);
    for (const i of [1, 2]) {
      const r = response(await send({ ...GET, path: `/x${i}` }));
      expect([r.status, r.body.length]).toEqual([statuses[i], 0]);
    }
    // A server may send a body with a HEAD answer all the same: the connection is not reused.
    expect(server.connections).toBe(2);
  });

  it("cuts a body at the cap, stops reading and closes the connection", async () => {
    const size = 8 * 1024 * 1024;
    let closed = false;
    server = await rawServer(({ socket }) => {
      socket.on("close", () => {
        closed = true;
      });
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${size}\r\n\r\n`);
      socket.write(Buffer.alloc(size, 0x61));
    });
    poolFor(server);
    const r = response(await send(GET, 5_000, 1024 * 1024));
    expect([r.truncated, r.body.length]).toEqual([true, 1024 * 1024]);
    // Closed by the pool, not by the server (which never ends it): within 5 s however loaded the
    // machine (a fixed 50 ms was missed once under CI's load).
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 5_000 });
  });
});

describe("H1Pool: what is not an answer", () => {
  it.each([
    ["bytes that are not HTTP", "SSH-2.0-OpenSSH_9.6\r\n", "HPE_INVALID_CONSTANT"],
    ["a status line without a status", "HTTP/1.1 OK\r\n\r\n", "HPE_INVALID_STATUS"],
    ["a header without a name", "HTTP/1.1 200 OK\r\n: x\r\n\r\n", "HPE_INVALID_HEADER_TOKEN"],
    [
      "both Transfer-Encoding and Content-Length",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
      "HPE_INVALID_CONTENT_LENGTH",
    ],
    [
      "a Content-Length that is not a number",
      "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n",
      "HPE_INVALID_CONTENT_LENGTH",
    ],
    [
      "a chunk size that is not hexadecimal",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "HPE_INVALID_CHUNK_SIZE",
    ],
    ["a head of 20 KiB", `HTTP/1.1 200 OK\r\nX: ${"a".repeat(20_000)}`, "HPE_HEADER_OVERFLOW"],
  ])("fails on %s with %s, at once", async (_what, wire, code) => {
    server = await rawServer(({ socket }) => {
      // The connection stays open: the failure comes from the bytes, not from a close.
      socket.write(wire);
    });
    poolFor(server);
    const started = performance.now();
    expect(failure(await send(GET, 3_000)).code).toBe(code);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("fails as cut short when the connection ends inside a body", async () => {
    server = await rawServer(({ socket }) => {
      socket.end("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
    });
    poolFor(server);
    const r = failure(await send());
    expect([r.code, r.message]).toEqual([
      E_CUT_SHORT,
      "the connection was closed after 3 of its 10 bytes (Content-Length)",
    ]);
  });

  it("fails with ETIMEDOUT at the deadline, and the next request gets a new connection", async () => {
    let n = 0;
    server = await rawServer(({ socket }) => {
      // The first request is never answered; the second is.
      if (n++ > 0) socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    });
    poolFor(server, 1);
    expect(failure(await send(GET, 200)).code).toBe("ETIMEDOUT");
    expect(response(await send()).body.toString()).toBe("ok");
    expect(server.connections).toBe(2);
  });

  it("fails with ECONNREFUSED when nothing listens", async () => {
    server = await rawServer(() => undefined);
    const { port } = server;
    await server.close();
    server = undefined;
    pool = new H1Pool(`http://127.0.0.1:${port}`, { connections: 1 });
    expect(failure(await send()).code).toBe("ECONNREFUSED");
  });

  it("never reads bytes after an answer as the next request's answer", async () => {
    server = await rawServer(({ socket, connection }) => {
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n${connection}HTTP/1.1 418 Smuggled\r\nContent-Length: 0\r\n\r\n`,
      );
    });
    poolFor(server, 1);
    const first = response(await send());
    const second = response(await send());
    expect([first.status, first.body.toString()]).toEqual([200, "1"]);
    expect([second.status, second.body.toString()]).toEqual([200, "2"]);
  });

  it("does not reuse a connection whose answer came before the request's body was written", async () => {
    // The first connection answers 413 at the first bytes and reads on without answering again:
    // had the rest of the body gone out before the next request, the provider would read it as
    // that request.
    let connections = 0;
    const tcp = createTcpServer((socket) => {
      const n = ++connections;
      socket.on("error", () => undefined);
      let answered = false;
      let seen = Buffer.alloc(0);
      socket.on("data", (chunk: Buffer) => {
        if (n === 1) {
          if (!answered) socket.write("HTTP/1.1 413 Too Large\r\nContent-Length: 0\r\n\r\n");
          answered = true;
          return;
        }
        seen = Buffer.concat([seen, chunk]);
        if (seen.includes("\r\n\r\n") && !answered) {
          answered = true;
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        }
      });
    });
    await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
    try {
      const { port } = tcp.address() as { port: number };
      pool = new H1Pool(`http://127.0.0.1:${port}`, { connections: 1 });
      const big = Buffer.alloc(32 * 1024 * 1024, 0x20);
      const first = response(await send({ method: "POST", path: "/big", headers: {}, body: big }));
      expect(first.status).toBe(413);
      const second = response(await send(GET, 3_000));
      expect([second.status, second.body.toString()]).toEqual([200, "ok"]);
      expect(connections).toBe(2);
    } finally {
      await pool?.destroy();
      await new Promise((r) => tcp.close(r));
    }
  });

  it.each([
    ["a space in the path", { ...GET, path: "/a b" }],
    ["a code point above U+00FF in the path", { ...GET, path: "/caf\u00e9\u2615" }],
    ["a method that is not a token", { ...GET, method: "GET /x HTTP/1.1\r\n" }],
  ])("refuses %s, sending nothing", async (_what, req) => {
    server = await rawServer(({ socket }) => {
      socket.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    });
    poolFor(server);
    expect(failure(await send(req)).code).toBe("UND_ERR_INVALID_ARG");
    expect(server.received).toHaveLength(0);
  });

  it("refuses a header value that would split the request, sending nothing", async () => {
    server = await rawServer(({ socket }) => {
      socket.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    });
    poolFor(server);
    const r = failure(await send({ ...GET, headers: { "x-a": "1\r\nx-injected: 2" } }));
    expect(r.code).toBe("UND_ERR_INVALID_ARG");
    expect(server.received).toHaveLength(0);
  });
});

describe("H1Pool: the wire and the connections", () => {
  it("writes the method, path, Host, the headers and the body's byte length", async () => {
    server = await rawServer(({ socket }) => {
      socket.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    });
    poolFor(server);
    const body = '{"name":"café ☕"}';
    await send({ method: "POST", path: "/v1/a?b=c", headers: { "x-k": "v" }, body });
    await send({ method: "PUT", path: "/v1/empty", headers: {} });
    await send(GET);
    const [post, put, get] = server.received as [Received, Received, Received];
    expect(post.head.split("\r\n")).toEqual([
      "POST /v1/a?b=c HTTP/1.1",
      `host: 127.0.0.1:${server.port}`,
      "x-k: v",
      `content-length: ${Buffer.byteLength(body)}`,
    ]);
    expect(post.body.toString()).toBe(body);
    expect(put.head).toMatch(/\r\ncontent-length: 0$/);
    expect(get.head).not.toMatch(/content-length/);
  });

  it("sends more requests than connections in turn, on at most that many", async () => {
    server = await rawServer(({ socket, head }) => {
      setTimeout(() => {
        const path = head.split(" ")[1] as string;
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${path.length}\r\n\r\n${path}`);
      }, 5);
    });
    poolFor(server, 3);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send({ ...GET, path: `/r${i}` })),
    );
    expect(answers.map((a) => response(a).body.toString())).toEqual(
      Array.from({ length: 20 }, (_, i) => `/r${i}`),
    );
    expect(server.connections).toBeLessThanOrEqual(3);
  });
});

describe("H1Pool: TLS", () => {
  let pki: TestPki;
  beforeAll(() => {
    pki = createTestPki();
  });
  afterAll(() => pki.remove());

  const tlsServer = () =>
    rawServer(
      ({ socket }) => {
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecure");
      },
      (h) => createTlsServer({ cert: pki.server.cert, key: pki.server.key }, h),
    );

  it("talks HTTPS to a server whose certificate the given CA signed", async () => {
    server = await tlsServer();
    pool = new H1Pool(`https://localhost:${server.port}`, {
      connections: 2,
      tls: { ca: pki.ca.cert, insecure: false },
    });
    expect(response(await send()).body.toString()).toBe("secure");
  });

  it("builds one secure context for the run's settings and resumes TLS sessions on new connections", async () => {
    const reused: boolean[] = [];
    server = await rawServer(
      ({ socket }) => {
        // Connection: close, so each request needs a connection (and a handshake) of its own.
        socket.write("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 6\r\n\r\nsecure");
      },
      (h) => {
        const s = createTlsServer({ cert: pki.server.cert, key: pki.server.key }, h);
        s.on("secureConnection", (socket) => reused.push(socket.isSessionReused()));
        return s;
      },
    );
    const tls = { ca: pki.ca.cert, insecure: false };
    expect(tlsContextOf(tls)).toBe(tlsContextOf(tls));
    pool = new H1Pool(`https://localhost:${server.port}`, { connections: 1, tls });
    for (let i = 0; i < 3; i++) expect(response(await send()).body.toString()).toBe("secure");
    expect(reused).toEqual([false, true, true]);
  });

  it("refuses the same server without that CA, naming the certificate problem", async () => {
    server = await tlsServer();
    pool = new H1Pool(`https://localhost:${server.port}`, {
      connections: 2,
      tls: { insecure: false },
    });
    const r = failure(await send());
    expect(r.code).toMatch(/CERT|SIGNATURE|SELF_SIGNED|ISSUER/);
  });
});

describe("H1Pool: answers on the wire (conformance.md §9)", () => {
  const OK = (body: string) => `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const STRAY = "HTTP/1.1 200 OK\r\nx-answer-to: nobody\r\nContent-Length: 2\r\n\r\n{}";

  it("fails a bare-LF answer at once, with llhttp's reason, never waiting for the timeout", async () => {
    server = await rawServer(({ socket }) => {
      socket.write("HTTP/1.1 200 OK\nContent-Length: 2\n\nok");
    });
    poolFor(server);
    const started = performance.now();
    const r = failure(await send(GET, 5_000));
    expect([r.code, r.message]).toEqual([
      "HPE_CR_EXPECTED",
      "Missing expected CR after response line",
    ]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("refuses a 101 nobody asked for", async () => {
    server = await rawServer(({ socket }) => {
      socket.write(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
      );
    });
    poolFor(server);
    expect(failure(await send()).message).toBe("a 101 Switching Protocols nobody asked for");
  });

  it("gives the first answer on a new connection, reports the bytes after it and closes it", async () => {
    const strays: string[] = [];
    server = await rawServer(({ socket, connection }) =>
      socket.write(`${OK(String(connection))}${STRAY}`),
    );
    pool = new H1Pool(`http://127.0.0.1:${server.port}`, {
      connections: 1,
      quietMs: 0,
      onStray: (s) => strays.push(`${s.after.path} ${s.bytes.toString("latin1")}`),
    });
    expect(response(await send()).body.toString()).toBe("1");
    expect(strays).toEqual([`/v1/x ${STRAY}`]);
    // The provider has shown it writes bytes nobody asked for: no connection carries two requests.
    expect(response(await send()).body.toString()).toBe("2");
    expect(server.connections).toBe(2);
  });

  it("does not give an answer that bytes nobody asked for followed on a connection kept alive", async () => {
    let n = 0;
    server = await rawServer(({ socket }) =>
      socket.write(++n === 2 ? `${OK("2")}${STRAY}` : OK(String(n))),
    );
    poolFor(server, 1);
    expect(response(await send()).body.toString()).toBe("1");
    const r = failure(await send());
    expect([r.code, r.retry]).toEqual([E_STRAY, "stray"]);
  });

  it("sees bytes written a moment after an answer before writing the next request (quiet reuse)", async () => {
    const strays: number[] = [];
    server = await rawServer(({ socket, connection }) => {
      socket.write(OK(String(connection)));
      if (connection === 1) setTimeout(() => socket.write(STRAY), 5);
    });
    pool = new H1Pool(`http://127.0.0.1:${server.port}`, {
      connections: 1,
      // Longer than the stray's delay, whatever the machine's load.
      quietMs: 200,
      onStray: () => strays.push(1),
    });
    expect(response(await send()).body.toString()).toBe("1");
    // Sent at once: the first connection is not yet quiet, so a second one carries it.
    expect(response(await send()).body.toString()).toBe("2");
    // Until the stray was read (a fixed wait once expired in the same turn as the server's write,
    // before the read), then a quiet time for a second one that must not come.
    await vi.waitFor(() => expect(strays).toEqual([1]), { timeout: 10_000 });
    await new Promise((r) => setTimeout(r, 250));
    expect(strays).toEqual([1]);
    expect(server.received.map((r) => r.connection)).toEqual([1, 2]);
  });

  it("calls an answer suspect when the real one comes after it (a late stray read as the next answer)", async () => {
    let n = 0;
    let real: (() => void) | undefined;
    server = await rawServer(({ socket }) => {
      n++;
      // The first request's stray arrives before the second request's answer, which follows.
      if (n === 1) socket.write(OK("a"));
      else {
        socket.write(STRAY);
        real = () => socket.write(OK("b"));
      }
    });
    poolFor(server, 1);
    const first = response(await send());
    expect(await first.suspect?.()).toBe(false);
    const second = response(await send());
    expect(second.headers["x-answer-to"]).toBe("nobody");
    const suspect = second.suspect?.();
    real?.();
    // The bytes after it are the real answer: the one read may be another request's.
    expect(await suspect).toBe(true);
  });

  it("fails an answer cut short on a new connection, never as one to send again", async () => {
    server = await rawServer(({ socket }) =>
      socket.end("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc"),
    );
    poolFor(server);
    const r = failure(await send());
    expect([r.code, r.retry]).toEqual([E_CUT_SHORT, undefined]);
  });

  it("fails a reset after the request on a new connection, never as one to send again", async () => {
    server = await rawServer(({ socket }) => socket.resetAndDestroy());
    poolFor(server);
    const r = failure(await send());
    expect([r.code, r.retry]).toEqual(["ECONNRESET", undefined]);
  });

  /** A server whose second request meets a close; every other one is answered with its number. */
  const closingSecond = async (idleRaceMs?: number) => {
    let n = 0;
    server = await rawServer(({ socket }) => {
      if (++n === 2) socket.destroy();
      else socket.write(OK(String(n)));
    });
    pool = new H1Pool(`http://127.0.0.1:${server.port}`, {
      connections: 1,
      quietMs: 0,
      ...(idleRaceMs === undefined ? {} : { idleRaceMs }),
    });
  };

  it("sends again once a connection kept alive that waited idle is closed before the answer, then keeps idle ones for less", async () => {
    // The second request meets the close of the idle close's race.
    await closingSecond();
    expect(response(await send()).body.toString()).toBe("1");
    await new Promise((r) => setTimeout(r, 30));
    const raced = failure(await send());
    expect([raced.code, raced.retry]).toEqual([E_IDLE_CLOSED, "idle-close"]);
    // The pool has learned: a connection is not kept idle as long as that again.
    expect(response(await send()).body.toString()).toBe("3");
    await new Promise((r) => setTimeout(r, 60));
    expect(response(await send()).body.toString()).toBe("4");
    // The third connection, not the second: kept idle 60 ms, it would have met the same close.
    expect((server as RawServer).received.map((r) => r.connection)).toEqual([1, 1, 2, 3]);
  });

  it("keeps connections idle for at most half of an idle close it saw (a close read late runs long)", async () => {
    // After 300 ms idle this server stops answering on a connection; its FIN reaches the pool
    // 120 ms later (as on a loaded machine, where the pool's loop reads a close late).
    server = await rawServer(({ socket, connection }) => {
      const s = socket as Socket & { idleTimer?: NodeJS.Timeout; closing?: boolean };
      if (s.closing) return;
      socket.write(OK(String(connection)));
      clearTimeout(s.idleTimer);
      s.idleTimer = setTimeout(() => {
        s.closing = true;
        setTimeout(() => socket.end(), 120);
      }, 300);
    });
    const p = poolFor(server, 1);
    expect(response(await send()).body.toString()).toBe("1");
    // The close is seen (about 420 ms idle): the pool learns from it.
    await vi.waitFor(() => expect(Number.isFinite(p.learnedAt)).toBe(true), { timeout: 10_000 });
    expect(response(await send()).body.toString()).toBe("2");
    // 345 ms idle: past the server's 300, short of the 420 the pool saw. Kept that long, the
    // connection would carry the request into a close (E_CLOSED, never sent again).
    await new Promise((r) => setTimeout(r, 345));
    expect(response(await send()).body.toString()).toBe("3");
    expect((server as RawServer).received.map((r) => r.connection)).toEqual([1, 2, 3]);
  });

  it("fails a busy connection closed before the answer (a provider that drops connections), never sending it again", async () => {
    // Busy by any clock: on a loaded machine the second request can wait past the 10 ms default.
    await closingSecond(5_000);
    expect(response(await send()).body.toString()).toBe("1");
    const dropped = failure(await send());
    expect([dropped.code, dropped.retry]).toEqual([E_CLOSED, undefined]);
    expect(dropped.message).toMatch(/kept alive and busy/);
  });

  it("never writes to a connection whose FIN came with the answer", async () => {
    server = await rawServer(({ socket, connection }) => socket.end(OK(String(connection))));
    pool = new H1Pool(`http://127.0.0.1:${server.port}`, { connections: 1 });
    for (const expected of ["1", "2", "3"])
      expect(response(await send()).body.toString()).toBe(expected);
    expect(server.received.map((r) => r.connection)).toEqual([1, 2, 3]);
  });

  it("does not reuse a connection the answer said it closes (Connection: close)", async () => {
    server = await rawServer(({ socket, connection }) =>
      socket.write(
        `HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\n${connection}`,
      ),
    );
    poolFor(server, 1);
    expect(response(await send()).body.toString()).toBe("1");
    expect(response(await send()).body.toString()).toBe("2");
  });
});
