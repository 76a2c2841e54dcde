// Fronts: what a deployment puts between a client and a provider, written byte by byte here so
// each can misbehave on the wire as real gateways, proxies and servers do (conformance.md §7, §9).
// A front reads requests from its clients (head and Content-Length body), forwards each to the
// upstream provider with node:http, and writes the provider's answer back in bytes of its own:
// every answer is tagged `x-answer-to: METHOD PATH sha1:BODYHASH`, so a test can tell which
// request an answer belonged to; answers nobody asked for are tagged `x-answer-to: nobody`.
import { createHash } from "node:crypto";
import { Agent, request as httpRequest, STATUS_CODES } from "node:http";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { STATES_PATH } from "./hand-provider.ts";

export const FRONT_KINDS = [
  /** Forwards every request and answer unchanged (a realistic, conforming front). */
  "plain",
  /** Every Nth answer is followed, in the same write, by a second answer nobody asked for. */
  "stray-early",
  /** Every Nth answer is followed `lateMs` later by a second answer nobody asked for. */
  "stray-late",
  /** Every Nth answer declares 10 more bytes than it sends, then the connection is closed. */
  "cut-short",
  /** Every Nth request is forwarded and answered by the provider, then the connection is reset. */
  "reset-after",
  /** Every Nth answer is framed as `malformation` says. */
  "malformed",
  /** Every answer comes with a FIN (the connection is closed after it, without Connection: close). */
  "fin-with-answer",
  /** Idle connections are half-closed after `idleCloseMs`; requests arriving after are forwarded, never answered. */
  "idle-close",
  /** Every Nth request gets 502 or 504 (in turn) with an HTML body, not forwarded; requests to `persistentPath` always get 502. */
  "gateway-errors",
  /** Every request header comes back as an `x-echo-<name>` header (Proxy-Authorization included). */
  "echo-headers",
  /** Every answer of 400 or more carries a body of terminal escape sequences and carriage returns. */
  "terminal-escapes",
] as const;

export type FrontKind = (typeof FRONT_KINDS)[number];

/** How a `malformed` front frames its answers: each a way llhttp (Node's parser) refuses. */
export const MALFORMATIONS = [
  "bad-status-line",
  "nul-in-header",
  "control-in-header",
  "content-length-and-chunked",
  "differing-content-lengths",
  "bad-chunk-size",
  "bare-lf",
  "obs-fold",
  "unasked-101",
] as const;

export type Malformation = (typeof MALFORMATIONS)[number];

export interface FrontOptions {
  /** The provider's origin, e.g. http://127.0.0.1:1234. */
  readonly upstream: string;
  readonly kind: FrontKind;
  /** 1 in how many requests or answers misbehave. @defaultValue 5 (200 for gateway-errors) */
  readonly every?: number;
  readonly malformation?: Malformation;
  /** stray-late: how long after the answer the stray one is written. @defaultValue 1 */
  readonly lateMs?: number;
  /** One-way latency added to every byte in both directions (and to the FIN). @defaultValue 0 */
  readonly latencyMs?: number;
  /** idle-close: how long a connection may wait for its next request. @defaultValue 100 */
  readonly idleCloseMs?: number;
  /** gateway-errors: requests to this path (any method) always get 502 ... */
  readonly persistentPath?: string;
  /** ... once this many requests have come (the first are let through). @defaultValue 0 */
  readonly persistentAfter?: number;
}

export interface RunningFront {
  /** http://127.0.0.1:port */
  readonly origin: string;
  /** `${origin}/v1` */
  readonly baseUrl: string;
  readonly statesUrl: string;
  readonly counts: {
    requests: number;
    connections: number;
    /** Answers or requests the kind changed (strays written, answers cut, resets, ...). */
    misbehaved: number;
    /** idle-close: requests that came after the half-close (forwarded, not answered). */
    afterClose: number;
    /** Requests forwarded to the provider. */
    forwarded: number;
  };
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
  "host",
]);

const ESCAPES =
  '\u001b[2K\r\u001b[1A\u001b[2K\r\u001b[32mPASSED: 40 passed, 0 failed (exit 0)\u001b[0m\r\n\u001b]0;owned\u0007{"error":"x"}';

const STRAY = Buffer.from(
  "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-answer-to: nobody\r\ncontent-length: 2\r\n\r\n{}",
  "latin1",
);

interface Upstream {
  readonly status: number;
  readonly headers: [string, string][];
  readonly body: Buffer;
}

interface Incoming {
  readonly method: string;
  readonly target: string;
  readonly headers: [string, string][];
  readonly body: Buffer;
}

const tagOf = (r: Incoming) =>
  `${r.method} ${r.target} sha1:${createHash("sha1").update(r.body).digest("hex").slice(0, 12)}`;

/** The answer in bytes: status line, headers, Content-Length, body (as a gateway would write it). */
function answerBytes(up: Upstream, extra: [string, string][], body = up.body): Buffer {
  let head = `HTTP/1.1 ${up.status} ${STATUS_CODES[up.status] ?? "Unknown"}\r\n`;
  for (const [n, v] of [...up.headers, ...extra]) head += `${n}: ${v}\r\n`;
  head += `content-length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

function malformed(kind: Malformation, up: Upstream, tag: [string, string]): Buffer {
  const ok = answerBytes(up, [tag]);
  const text = ok.toString("latin1");
  const headEnd = text.indexOf("\r\n\r\n");
  const head = text.slice(0, headEnd);
  const body = ok.subarray(headEnd + 4);
  const withHeader = (line: string) =>
    Buffer.concat([Buffer.from(`${head}\r\n${line}\r\n\r\n`, "latin1"), body]);
  switch (kind) {
    case "bad-status-line":
      return Buffer.from(text.replace(/^HTTP\/1\.1 (\d)\d\d/, "HTTP/1.1 $1x0"), "latin1");
    case "nul-in-header":
      return withHeader("x-trace: a\u0000b");
    case "control-in-header":
      return withHeader("x-trace: a\u001bb");
    case "content-length-and-chunked":
      return withHeader("transfer-encoding: chunked");
    case "differing-content-lengths":
      return withHeader(`content-length: ${body.length + 1}`);
    case "bad-chunk-size": {
      const chunked = head.replace(/\r\ncontent-length: \d+/, "\r\ntransfer-encoding: chunked");
      const chunk = body.length > 0 ? `${body.length.toString(16)} \r\n` : "";
      return Buffer.concat([
        Buffer.from(`${chunked}\r\n\r\n${chunk}`, "latin1"),
        body,
        Buffer.from(body.length > 0 ? "\r\n0\r\n\r\n" : "0 \r\n\r\n", "latin1"),
      ]);
    }
    case "bare-lf":
      return Buffer.concat([Buffer.from(`${head.replaceAll("\r\n", "\n")}\n\n`, "latin1"), body]);
    case "obs-fold":
      return withHeader("x-trace: a\r\n  folded");
    case "unasked-101":
      return Buffer.from(
        `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n${tag[0]}: ${tag[1]}\r\n\r\n`,
        "latin1",
      );
  }
}

/** Starts a front of `kind` on 127.0.0.1 in front of `upstream`. */
export async function startFront(options: FrontOptions): Promise<RunningFront> {
  if (!(FRONT_KINDS as readonly string[]).includes(options.kind))
    throw new TypeError(`unknown front kind "${options.kind}"`);
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const every = options.every ?? (options.kind === "gateway-errors" ? 200 : 5);
  const latency = options.latencyMs ?? 0;
  const counts = { requests: 0, connections: 0, misbehaved: 0, afterClose: 0, forwarded: 0 };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let gatewayTurn = 0;
  let answers = 0;

  const later = (ms: number, f: () => void) => {
    if (ms <= 0) return f();
    const t = setTimeout(() => {
      timers.delete(t);
      f();
    }, ms);
    timers.add(t);
  };

  const forward = (r: Incoming): Promise<Upstream> =>
    new Promise((resolve) => {
      counts.forwarded++;
      const headers: Record<string, string> = {};
      for (const [n, v] of r.headers)
        if (!HOP_BY_HOP.has(n.toLowerCase())) headers[n.toLowerCase()] = v;
      headers.host = upstream.host;
      headers["content-length"] = String(r.body.length);
      const out = httpRequest(
        {
          agent,
          hostname: upstream.hostname,
          port: upstream.port,
          method: r.method,
          path: r.target,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const h: [string, string][] = [];
            for (let i = 0; i < res.rawHeaders.length; i += 2) {
              const name = res.rawHeaders[i] as string;
              if (!HOP_BY_HOP.has(name.toLowerCase()))
                h.push([name, res.rawHeaders[i + 1] as string]);
            }
            resolve({ status: res.statusCode ?? 502, headers: h, body: Buffer.concat(chunks) });
          });
        },
      );
      out.on("error", () =>
        resolve({
          status: 502,
          headers: [["content-type", "text/html"]],
          body: Buffer.from("<html><body><h1>502 Bad Gateway</h1></body></html>"),
        }),
      );
      out.end(r.body);
    });

  const server: Server = createServer((socket) => {
    counts.connections++;
    sockets.add(socket);
    // As node:http servers do: each write goes out at once (no Nagle delay).
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buf = Buffer.alloc(0);
    let busy = false;
    let halfClosed = false;
    let idleTimer: NodeJS.Timeout | undefined;
    const queue: Incoming[] = [];

    const write = (bytes: Buffer) =>
      later(latency, () => {
        if (!socket.destroyed && socket.writable) socket.write(bytes);
        // Idle from the moment the answer leaves (as a gateway measures it).
        if (!busy && queue.length === 0) idle();
      });
    const end = (bytes?: Buffer) =>
      later(latency, () => {
        if (socket.destroyed) return;
        if (bytes) socket.end(bytes);
        else socket.end();
      });
    const reset = () => later(latency, () => socket.resetAndDestroy());

    const idle = () => {
      if (options.kind !== "idle-close") return;
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        halfClosed = true;
        counts.misbehaved++;
        end();
      }, options.idleCloseMs ?? 100);
    };

    const next = async () => {
      if (busy) return;
      const r = queue.shift();
      if (!r) return;
      busy = true;
      if (idleTimer) clearTimeout(idleTimer);
      counts.requests++;
      const n = counts.requests;
      const tag: [string, string] = ["x-answer-to", tagOf(r)];
      const path = r.target.split("?")[0] ?? "";
      if (halfClosed) {
        // The write side is closed: the provider handles the request, nobody gets its answer.
        counts.afterClose++;
        await forward(r);
        busy = false;
        return next();
      }
      if (options.kind === "gateway-errors") {
        const persistent =
          options.persistentPath !== undefined &&
          path === options.persistentPath &&
          n > (options.persistentAfter ?? 0);
        if (persistent || n % every === 0) {
          counts.misbehaved++;
          const status = persistent || gatewayTurn++ % 2 === 0 ? 502 : 504;
          const body = Buffer.from(
            `<html><body><h1>${status} ${STATUS_CODES[status]}</h1></body></html>`,
          );
          write(
            answerBytes({ status, headers: [["content-type", "text/html"]], body }, [
              ["x-answer-to", "gateway"],
            ]),
          );
          busy = false;
          return next();
        }
      }
      const up = await forward(r);
      answers++;
      const misbehave = answers % every === 0;
      switch (options.kind) {
        case "stray-early":
          if (misbehave) {
            counts.misbehaved++;
            write(Buffer.concat([answerBytes(up, [tag]), STRAY]));
          } else write(answerBytes(up, [tag]));
          break;
        case "stray-late":
          write(answerBytes(up, [tag]));
          if (misbehave) {
            counts.misbehaved++;
            later(options.lateMs ?? 1, () => write(STRAY));
          }
          break;
        case "cut-short":
          if (misbehave) {
            counts.misbehaved++;
            const whole = answerBytes(up, [tag]);
            const text = whole.toString("latin1");
            const cl = /content-length: (\d+)\r\n\r\n/.exec(text);
            const declared = Number(cl?.[1] ?? 0) + 10;
            end(
              Buffer.from(
                text.replace(/content-length: \d+\r\n\r\n/, `content-length: ${declared}\r\n\r\n`),
                "latin1",
              ),
            );
            return;
          }
          write(answerBytes(up, [tag]));
          break;
        case "reset-after":
          if (n % every === 0) {
            counts.misbehaved++;
            reset();
            return;
          }
          write(answerBytes(up, [tag]));
          break;
        case "malformed":
          if (misbehave) {
            counts.misbehaved++;
            write(malformed(options.malformation ?? "bare-lf", up, tag));
          } else write(answerBytes(up, [tag]));
          break;
        case "fin-with-answer":
          counts.misbehaved++;
          end(answerBytes(up, [tag]));
          return;
        case "echo-headers": {
          const echoed: [string, string][] = r.headers
            .filter(([name]) => !/^(content-length|host)$/i.test(name))
            .map(([name, value]) => [`x-echo-${name.toLowerCase()}`, value]);
          if (echoed.some(([name]) => name === "x-echo-proxy-authorization")) counts.misbehaved++;
          write(answerBytes(up, [tag, ...echoed]));
          break;
        }
        case "terminal-escapes":
          if (up.status >= 400) {
            counts.misbehaved++;
            write(answerBytes(up, [tag], Buffer.from(ESCAPES, "utf8")));
          } else write(answerBytes(up, [tag]));
          break;
        default:
          write(answerBytes(up, [tag]));
      }
      busy = false;
      // Without latency the answer has left already: the connection is idle from now.
      if (latency === 0 && queue.length === 0) idle();
      void next();
    };

    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const lines = buf.toString("latin1", 0, end).split("\r\n");
        const [method = "GET", target = "/"] = (lines[0] ?? "").split(" ");
        const headers = lines.slice(1).map((l): [string, string] => {
          const colon = l.indexOf(":");
          return [l.slice(0, colon).trim(), l.slice(colon + 1).trim()];
        });
        const length = Number(
          headers.find(([n]) => n.toLowerCase() === "content-length")?.[1] ?? 0,
        );
        if (buf.length < end + 4 + length) return;
        const body = buf.subarray(end + 4, end + 4 + length);
        buf = buf.subarray(end + 4 + length);
        queue.push({ method, target, headers, body });
        void next();
      }
    };
    socket.on("data", (chunk: Buffer) => later(latency, () => onData(chunk)));
    socket.on("end", () => later(latency, () => socket.end()));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    statesUrl: `${origin}${STATES_PATH}`,
    counts,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
