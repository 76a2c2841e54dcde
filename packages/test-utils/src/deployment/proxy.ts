import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";

// A real forward proxy, as corporate networks have one: CONNECT tunnels (https targets) and
// absolute-form requests (http targets), with counts of what went through it.

export interface RunningProxy {
  /** http://127.0.0.1:port */
  readonly url: string;
  readonly counts: { tunnels: number; forwarded: number; readonly targets: Set<string> };
  close(): Promise<void>;
}

export async function startProxy(): Promise<RunningProxy> {
  const counts = { tunnels: 0, forwarded: 0, targets: new Set<string>() };
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // Absolute-form: GET http://host:port/path HTTP/1.1
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("absolute-form requests only");
      return;
    }
    counts.forwarded++;
    counts.targets.add(target.host);
    const out = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? "").split(":");
    counts.tunnels++;
    counts.targets.add(req.url ?? "");
    const upstream = connect(Number(port), host ?? "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
