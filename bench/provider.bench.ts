// Load test of the reference provider: autocannon against create schema and push, on loopback.
// Run from the repo root: node bench/provider.bench.ts [--duration 10] [--connections 10] [--db file|memory]
// Needs packages/contracts built (`cd packages/contracts && pnpm exec tsdown`).
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createProvider } from "../apps/provider/src/index.ts";

// autocannon is a devDependency of @idp/provider, so resolve it from there.
const require = createRequire(new URL("../apps/provider/package.json", import.meta.url));
const autocannon = require("autocannon") as (options: Record<string, unknown>) => Promise<{
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}>;

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    db: { type: "string", default: "file" },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

const credentials = { username: "bench", password: "bench-password" };
const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
const dir = mkdtempSync(join(tmpdir(), "idp-bench-"));
// A file database, as the CLI runs by default: every acknowledged write is fsynced (WAL, synchronous=FULL).
const provider = createProvider({
  db: values.db === "memory" ? ":memory:" : join(dir, "bench.sqlite"),
  credentials,
  log: () => {},
  seed: { loginUsers: ["bench-user"] },
});
const { baseUrl } = await provider.listen({ port: 0 });

const cases = [
  {
    name: "POST /marketing/datastore/schemas (201)",
    path: "/marketing/datastore/schemas",
    body: {
      schema: {
        name: "bench",
        fields: [{ name: "email", type: "string", unique: true }],
        permissions: { write_protected: false, read_protected: false },
      },
    },
    status: 201,
  },
  {
    name: "POST /marketing/push_notifications/login/users/{id}/publish (200, 2 devices)",
    path: "/marketing/push_notifications/login/users/bench-user/publish",
    body: {
      data: {
        message: "m",
        title: "t",
        small_icon: "i",
        vibrate: true,
        vibrate_duration: 100,
        auto_cancel: true,
        big_style: false,
        activity_class: "a",
        badge: 1,
        sound: "s",
      },
    },
    status: 200,
  },
];

process.stdout.write(
  `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), ${connections} connections, ${duration}s each, db ${values.db}\n`,
);
try {
  for (const c of cases) {
    const result = await autocannon({
      url: `${baseUrl}${c.path}`,
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify(c.body),
      connections,
      duration,
    });
    process.stdout.write(
      `${c.name}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}\n`,
    );
  }
} finally {
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
}
