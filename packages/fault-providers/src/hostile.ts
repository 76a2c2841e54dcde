// Providers that misbehave at the transport level. A verifier must end against each in bounded
// time and memory, with exit 1 or 2 and no stack trace (issue 10).
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server,
  type Socket,
} from "node:net";
import { STATES_PATH } from "./hand-provider.ts";
import { HUGE_BODY_BYTES, hugeErrorBodyParts, streamLazily } from "./lazy-body.ts";

export const HOSTILE_KINDS = [
  /** Accepts the connection, reads the request, never answers. */
  "hang",
  /** Resets the connection (TCP RST) when the first request bytes arrive. */
  "reset",
  /** Sends a valid status line and headers (Content-Length 1 GiB), then one body byte per interval, forever. */
  "drip",
  /** Answers every request with 302 to the same URL. */
  "redirect-loop",
  /** Answers with bytes that are not HTTP, then closes. */
  "garbage",
  /** Answers 401 (no Authorization), 400 (a POST body that is not JSON) or 2xx, each with Content-Type application/json and a body that is not JSON. */
  "bad-json",
  /** Answers 401 (no Authorization) or 200 with a JSON-looking body of `bytes` (512 MiB), streamed lazily with backpressure. */
  "huge-body",
  /** Nothing listens at the address. */
  "refused",
] as const;

export type HostileKind = (typeof HOSTILE_KINDS)[number];

export interface HostileOptions {
  /** Body size for `huge-body` (default 512 MiB). */
  readonly bytes?: number;
  /** Milliseconds between bytes for `drip` (default 1000). */
  readonly dripIntervalMs?: number;
  /** Port to listen on (default 0: any free port; ignored by `refused`). */
  readonly port?: number;
}

export interface RunningHostile {
  readonly kind: HostileKind;
  /** `http://127.0.0.1:port/v1` */
  readonly baseUrl: string;
  /** The same misbehaviour at `/_pact/provider-states`. */
  readonly statesUrl: string;
  /** Connections accepted so far (0 for `refused`). */
  readonly connections: number;
  close(): Promise<void>;
}

const GARBAGE = Buffer.from(
  "SSH-2.0-OpenSSH_9.6\r\n\x00\x01\x02\xff\xfe garbage \x1b[0m\r\n\r\n",
  "latin1",
);
const BAD_JSON = '{"error": "bad_request", "errors": [';
const DRIP_HEAD =
  "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n[";

/** The status a plausible provider would give, so the verifier goes on to read the body. */
function plausibleStatus(req: IncomingMessage, bodyIsJson: boolean): number {
  if (req.headers.authorization === undefined) return 401;
  if (req.method === "POST" && !bodyIsJson) return 400;
  return req.method === "POST" && req.url?.endsWith("/schemas") ? 201 : 200;
}

function readAll(req: IncomingMessage, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size <= 1024 * 1024) chunks.push(c);
  });
  req.once("end", () => done(Buffer.concat(chunks).toString("utf8")));
  req.once("error", () => {});
}

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts a hostile provider of `kind` on 127.0.0.1. */
export async function startHostile(
  kind: HostileKind,
  options: HostileOptions = {},
): Promise<RunningHostile> {
  if (!(HOSTILE_KINDS as readonly string[]).includes(kind))
    throw new TypeError(`unknown hostile kind "${kind}"`);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;
  let server: Server;

  if (kind === "redirect-loop" || kind === "bad-json" || kind === "huge-body") {
    const bytes = options.bytes ?? HUGE_BODY_BYTES;
    const { prefix, suffix } = hugeErrorBodyParts(bytes);
    server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
      readAll(req, (text) => {
        if (kind === "redirect-loop") {
          res.writeHead(302, { location: req.url ?? "/", "content-length": 0 });
          res.end();
        } else if (kind === "bad-json") {
          const status = req.url?.startsWith(STATES_PATH)
            ? 200
            : plausibleStatus(req, isJson(text));
          res.writeHead(status, {
            "content-type": "application/json",
            "content-length": BAD_JSON.length,
          });
          res.end(BAD_JSON);
        } else {
          const status = plausibleStatus(req, true) === 401 ? 401 : 200;
          res.writeHead(status, { "content-type": "application/json", "content-length": bytes });
          streamLazily(res, bytes, prefix, suffix);
        }
      });
    });
  } else {
    server = createNetServer((socket) => {
      socket.on("error", () => {});
      socket.once("data", () => {
        if (kind === "reset") socket.resetAndDestroy();
        else if (kind === "garbage") socket.end(GARBAGE);
        else if (kind === "drip") {
          socket.write(DRIP_HEAD);
          const timer = setInterval(() => socket.write(" "), options.dripIntervalMs ?? 1000);
          timers.add(timer);
          socket.once("close", () => {
            clearInterval(timer);
            timers.delete(timer);
          });
        }
        // hang: the request is read (the socket keeps flowing) and never answered
      });
      socket.resume();
    });
  }
  server.on("connection", (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  const port = await listen(server, kind === "refused" ? 0 : (options.port ?? 0));
  const origin = `http://127.0.0.1:${port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  if (kind === "refused") await close(); // a port that was free a moment ago: nothing listens there
  return {
    kind,
    baseUrl: `${origin}/v1`,
    statesUrl: `${origin}${STATES_PATH}`,
    get connections() {
      return connections;
    },
    close: kind === "refused" ? async () => {} : close,
  };
}
