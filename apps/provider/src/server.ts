import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";

/** Socket limits: slow or stuck clients are cut off instead of holding the server. */
export const SERVER_LIMITS = {
  /** Time to receive all request headers. */
  headersTimeoutMs: 10_000,
  /** Time to receive the whole request, body included. */
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderSizeBytes: 16 * 1024,
} as const;

type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface RunningServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startServer(
  fetch: FetchHandler,
  port: number,
  host: string,
  onError: (error: unknown) => void,
): Promise<RunningServer> {
  const server = createAdaptorServer({
    fetch,
    serverOptions: {
      headersTimeout: SERVER_LIMITS.headersTimeoutMs,
      requestTimeout: SERVER_LIMITS.requestTimeoutMs,
      keepAliveTimeout: SERVER_LIMITS.keepAliveTimeoutMs,
      maxHeaderSize: SERVER_LIMITS.maxHeaderSizeBytes,
    },
  }) as Server;
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    // Malformed or too slow HTTP never reaches the app: answer like Node would, with the error body.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    onError(error);
    const [status, reason, code] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "headers_too_large"]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout", "request_timeout"]
          : [400, "Bad Request", "invalid_request"];
    const body = JSON.stringify({ error: code, error_description: reason, errors: [reason] });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address !== null ? address.port : port;
  return {
    port: actualPort,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
