// A local stand-in for the Pact Broker that speaks exactly what `pact-broker` 0.8.x uses
// (toolchain.md §8, and probed for can-i-deploy): the HAL index, POST /contracts/publish, and
// GET /matrix. It records every request for the tests to assert on.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface BrokerStub {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** What GET /matrix answers: deployable or not. */
  deployable: boolean;
  close(): Promise<void>;
}

export async function startBrokerStub(): Promise<BrokerStub> {
  const requests: RecordedRequest[] = [];
  const state = { deployable: true };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/hal+json" });
        res.end(JSON.stringify(json));
      };
      if (req.method === "GET" && req.url === "/") {
        return send(200, {
          _links: {
            self: { href: base },
            "pb:publish-contracts": { href: `${base}/contracts/publish` },
          },
        });
      }
      if (req.method === "POST" && req.url === "/contracts/publish") {
        const payload = JSON.parse(body) as {
          pacticipantName: string;
          pacticipantVersionNumber: string;
        };
        return send(200, {
          notices: [{ type: "success", text: `published ${payload.pacticipantName}` }],
          _embedded: {
            pacticipant: { name: payload.pacticipantName },
            version: { number: payload.pacticipantVersionNumber },
          },
          _links: {},
        });
      }
      if (req.method === "GET" && req.url?.startsWith("/matrix")) {
        const { deployable } = state;
        return send(200, {
          summary: {
            deployable,
            reason: deployable
              ? "All required verification results are published and successful"
              : "The verification failed",
            success: deployable ? 1 : 0,
            failed: deployable ? 0 : 1,
            unknown: 0,
          },
          matrix: [],
          notices: [],
        });
      }
      send(404, { error: `stub: no route for ${req.method} ${req.url}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    get deployable() {
      return state.deployable;
    },
    set deployable(value: boolean) {
      state.deployable = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
