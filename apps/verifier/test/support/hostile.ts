// Providers that misbehave at the transport level: the verifier must end in bounded time.
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";

export type Hostility = "hang" | "reset" | "endless" | "garbage" | "redirect-loop" | "refused";

export interface RunningHostile {
  readonly baseUrl: string;
  close(): Promise<void>;
}

export async function startHostile(kind: Hostility): Promise<RunningHostile> {
  if (kind === "refused") {
    // A port that was free a moment ago: nothing listens there.
    const s = createNetServer();
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const { port } = s.address() as AddressInfo;
    await new Promise<void>((r) => s.close(() => r()));
    return { baseUrl: `http://127.0.0.1:${port}/v1`, close: async () => {} };
  }
  if (kind === "endless" || kind === "redirect-loop") {
    const server: Server = createHttpServer((req, res) => {
      if (kind === "redirect-loop") {
        res.writeHead(302, { location: req.url ?? "/" });
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, "a");
      const pump = () => {
        while (res.write(chunk)) {
          if (res.destroyed) return;
        }
      };
      res.on("drain", pump);
      pump();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      close: () => {
        server.closeAllConnections();
        return new Promise((r) => server.close(() => r()));
      },
    };
  }
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.once("data", () => {
      if (kind === "reset") socket.resetAndDestroy();
      else if (kind === "garbage")
        socket.end("SSH-2.0-OpenSSH_9.6\r\n\x00\x01\x02 garbage\r\n\r\n");
      // hang: read and never answer
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
