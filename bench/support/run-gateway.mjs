#!/usr/bin/env node
// Runs the test gateway of @idp/test-utils (a token bucket answering 429 + Retry-After) in its own
// process, in front of an upstream origin. Prints `ORIGIN`, then serves until SIGTERM/SIGINT.
//
//   node bench/support/run-gateway.mjs --upstream http://127.0.0.1:8080 --rate 300 [--burst 30]
import { parseArgs } from "node:util";
import { startGateway } from "../../packages/test-utils/src/deployment/gateway.ts";

const { values } = parseArgs({
  options: {
    upstream: { type: "string" },
    rate: { type: "string" },
    burst: { type: "string" },
  },
});
if (!values.upstream) {
  process.stderr.write("run-gateway: --upstream ORIGIN is required\n");
  process.exit(2);
}
const g = await startGateway({
  upstream: values.upstream,
  ...(values.rate ? { ratePerSecond: Number(values.rate) } : {}),
  ...(values.burst ? { burst: Number(values.burst) } : {}),
});
process.stdout.write(`${g.origin}\n`);
const stop = () =>
  g.close().then(() => {
    process.stderr.write(
      `${JSON.stringify({ forwarded: g.counts.forwarded, throttled: g.counts.throttled })}\n`,
    );
    process.exit(0);
  });
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
