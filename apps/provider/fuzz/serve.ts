// The provider under fuzz, in its own process (so the fuzzer's own work does not delay its
// answers): a SQLite file, provider states on, short limits so slow clients resolve quickly.
// Prints {"port": N} on stdout once listening; logs only errors, on stderr.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createProvider } from "../src/index.ts";

const options = JSON.parse(process.argv[2] ?? "{}") as {
  db: string;
  member: string;
  otherAppUser: string;
  username: string;
  password: string;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
};
const provider = createProvider({
  db: options.db,
  credentials: { username: options.username, password: options.password },
  providerStates: true,
  seed: { loginUsers: [options.member], otherLoginAppUsers: [options.otherAppUser] },
  limits: { headersTimeoutMs: options.headersTimeoutMs, bodyTimeoutMs: options.bodyTimeoutMs },
  log: (entry) => {
    if (entry.level === "error") process.stderr.write(`${JSON.stringify(entry)}\n`);
  },
});
const { port } = await provider.listen({ port: 0 });
// How long one request can hold the event loop (e.g. checking 500,000 violations): a stall
// delays every other connection's timers, the timeouts included.
const stalls = monitorEventLoopDelay({ resolution: 10 });
stalls.enable();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on("SIGTERM", () => {
  stalls.disable();
  const ms = (ns: number) => Math.round(ns / 1e6);
  process.stdout.write(
    `${JSON.stringify({ eventLoopDelayMs: { max: ms(stalls.max), p99: ms(stalls.percentile(99)) } })}\n`,
  );
  provider.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
