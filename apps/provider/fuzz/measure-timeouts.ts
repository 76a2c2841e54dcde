// Measures the provider's real default timeouts over raw sockets (not a test: it takes ~45 s).
//
//   pnpm --filter @idp/provider measure:timeouts
//
// Starts fuzz/serve.ts (its own process) with SERVER_LIMITS, runs the slow clients below side by
// side, and prints when each got its answer and when the connection closed.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SERVER_LIMITS } from "../src/index.ts";

const USER = "measure";
const PASSWORD = "measure-password";
const AUTH = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;

interface Probe {
  readonly name: string;
  /** The documented limit this probe should meet, in ms from its reference point. */
  readonly limitMs: number;
  /** What the limit counts from. */
  readonly from: "connect" | "headers sent";
  readonly first: string;
  readonly drip?: string;
}

interface Measured {
  readonly status: string;
  readonly answerMs: number | undefined;
  readonly closeMs: number;
}

function run(port: number, probe: Probe): Promise<Measured> {
  return new Promise((resolve) => {
    const socket = createConnection(port, "127.0.0.1");
    let t0 = 0;
    let answerMs: number | undefined;
    let data = "";
    let dripper: ReturnType<typeof setInterval> | undefined;
    socket.setEncoding("latin1");
    socket.on("error", () => undefined);
    socket.on("connect", () => {
      t0 = performance.now();
      if (probe.first !== "") socket.write(probe.first);
      if (probe.drip !== undefined) {
        const drip = probe.drip;
        dripper = setInterval(() => socket.writable && socket.write(drip), 1_000);
      }
    });
    socket.on("data", (chunk: string) => {
      answerMs ??= performance.now() - t0;
      data += chunk;
    });
    socket.on("close", () => {
      clearInterval(dripper);
      resolve({ status: data.split("\r\n")[0] ?? "", answerMs, closeMs: performance.now() - t0 });
    });
  });
}

const slowBody = (line: string): string =>
  `${line} HTTP/1.1\r\nHost: a\r\nAuthorization: ${AUTH}\r\nContent-Length: 1000\r\n\r\n{`;

const probes: Probe[] = [
  {
    name: "connect, send nothing",
    limitMs: SERVER_LIMITS.headersTimeoutMs,
    from: "connect",
    first: "",
  },
  {
    name: "headers, one line a second",
    limitMs: SERVER_LIMITS.headersTimeoutMs,
    from: "connect",
    first: "GET /v1/marketing/datastore/schemas HTTP/1.1\r\n",
    drip: "X-Slow: 1\r\n",
  },
  {
    name: "create schema body, 1 byte a second",
    limitMs: SERVER_LIMITS.bodyTimeoutMs,
    from: "headers sent",
    first: slowBody("POST /v1/marketing/datastore/schemas"),
    drip: " ",
  },
  {
    name: "clustering rules body, 1 byte a second",
    limitMs: SERVER_LIMITS.bodyTimeoutMs,
    from: "headers sent",
    first: slowBody("PUT /v1/marketing/login/apps/clustering/rules"),
    drip: " ",
  },
  {
    name: "keep-alive, idle after an answer",
    limitMs: SERVER_LIMITS.keepAliveTimeoutMs,
    from: "connect",
    first: `GET /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a\r\nAuthorization: ${AUTH}\r\n\r\n`,
  },
  {
    name: "GET with a body nobody reads, 1 byte a second",
    limitMs: SERVER_LIMITS.headersTimeoutMs + SERVER_LIMITS.bodyTimeoutMs + 1_000,
    from: "connect",
    first: slowBody("GET /v1/marketing/datastore/schemas"),
    drip: " ",
  },
];

const dir = mkdtempSync(join(tmpdir(), "idp-measure-"));
const child = spawn(
  process.execPath,
  [
    "--conditions=@idp/source",
    fileURLToPath(new URL("./serve.ts", import.meta.url)),
    JSON.stringify({
      db: join(dir, "measure.sqlite"),
      member: "m",
      otherAppUser: "o",
      username: USER,
      password: PASSWORD,
      headersTimeoutMs: SERVER_LIMITS.headersTimeoutMs,
      bodyTimeoutMs: SERVER_LIMITS.bodyTimeoutMs,
    }),
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const port = await new Promise<number>((resolve) => {
  child.stdout?.setEncoding("utf8").once("data", (line: string) => {
    resolve((JSON.parse(line) as { port: number }).port);
  });
});
process.stdout.write(
  `measuring on node ${process.version} against SERVER_LIMITS ${JSON.stringify(SERVER_LIMITS)}\n`,
);
const results = await Promise.all(probes.map((p) => run(port, p)));
child.kill("SIGTERM");
rmSync(dir, { recursive: true, force: true });

const s = (ms: number | undefined) => (ms === undefined ? "-" : `${(ms / 1000).toFixed(2)} s`);
process.stdout.write("| slow client | limit | first answer | connection closed | answer |\n");
process.stdout.write("|---|---|---|---|---|\n");
probes.forEach((p, i) => {
  const r = results[i] as Measured;
  process.stdout.write(
    `| ${p.name} | ${s(p.limitMs)} (from ${p.from}) | ${s(r.answerMs)} | ${s(r.closeMs)} | ${r.status || "(none)"} |\n`,
  );
});
