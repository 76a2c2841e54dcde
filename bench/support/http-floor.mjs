#!/usr/bin/env node
// The floor under `pnpm verify`: the same number of requests exchanged over HTTP/1.1 keep-alive on
// 127.0.0.1 between two threads of one Node process, as the embedded run does, with nothing loaded
// and nothing judged: node:http on both ends, `--concurrency` in flight (the verifier's default,
// 16), a small JSON body each way. What this takes is what no change to the verifier or the
// provider can take away on this machine.
//
//   node bench/support/http-floor.mjs <requests> [concurrency]
//
// Prints one line of JSON: {"requests": N, "startMs": ..., "exchangeMs": ...}.
import http from "node:http";
import { isMainThread, parentPort, Worker } from "node:worker_threads";

if (!isMainThread) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(201, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  server.listen(0, "127.0.0.1", () => parentPort?.postMessage(server.address().port));
} else {
  const requests = Number(process.argv[2]);
  const concurrency = Number(process.argv[3] ?? 16);
  if (!Number.isSafeInteger(requests) || requests < 1 || !Number.isSafeInteger(concurrency)) {
    process.stderr.write("usage: http-floor.mjs <requests> [concurrency]\n");
    process.exit(2);
  }
  const started = performance.now();
  const worker = new Worker(new URL(import.meta.url));
  const port = await new Promise((resolve) => worker.once("message", resolve));
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const body = JSON.stringify({
    schema: { name: "floor", fields: [{ name: "f", type: "string" }] },
  });
  const one = () =>
    new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/v1/schemas",
          agent,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on("end", resolve);
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  const exchangeStarted = performance.now();
  let sent = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < requests) {
        sent++;
        await one();
      }
    }),
  );
  const exchangeMs = performance.now() - exchangeStarted;
  agent.destroy();
  await worker.terminate();
  process.stdout.write(
    `${JSON.stringify({ requests, startMs: Math.round(exchangeStarted - started), exchangeMs: Math.round(exchangeMs) })}\n`,
  );
}
