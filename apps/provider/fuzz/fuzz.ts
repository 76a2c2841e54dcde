// A bounded raw-TCP fuzz of the reference provider (issue 11). Each case is one connection:
// malformed HTTP, odd headers and targets, bad escapes, slow clients, deep and wide JSON, valid
// and invalid bodies on the three detailed operations and their neighbours. It counts answers by
// status and flags any 5xx, any answer >= 400 without the error body, any case left without an
// answer by its deadline (a hang), and statuses the case knows must differ.
//
//   pnpm --filter @idp/provider fuzz -- --requests 100000 --seed 7
//   pnpm --filter @idp/provider fuzz -- --seed 7 --only 4242      (replay one case, verbosely)
//
// Exit 0: nothing flagged; 1: something flagged (listed); 2: bad arguments or no server.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DETAILED_OPERATION_IDS, type DetailedOperationId } from "@idp/contracts";
import { invalidBodyArb, requestBodyText, validBodyArb } from "@idp/generators";
import fc from "fast-check";
import { JSON_BOUNDS } from "../src/index.ts";
import { type CaseContext, type CasePools, type FuzzCase, makeCase, readCases } from "./cases.ts";
import { errorBodyProblem, parseAnswers } from "./http-answer.ts";
import { Rng } from "./rng.ts";

interface Options {
  requests: number;
  seed: number;
  concurrency: number;
  deadlineMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  only: number | undefined;
  report: string | undefined;
}

const USAGE = `Usage: fuzz [--requests N] [--seed S] [--concurrency C] [--deadline-ms MS]
            [--headers-timeout-ms MS] [--body-timeout-ms MS] [--only INDEX] [--report FILE.json]`;

function options(): Options {
  const args = process.argv.slice(2);
  const { values } = parseArgs({
    args: args[0] === "--" ? args.slice(1) : args,
    options: {
      requests: { type: "string", default: "100000" },
      seed: { type: "string" },
      concurrency: { type: "string", default: "24" },
      "deadline-ms": { type: "string", default: "20000" },
      // Above the longest event-loop stall seen (~2 s on 2 busy cores, a 1 MiB body of 500,000
      // violations): a shorter limit times out connections whose bytes wait behind a stall.
      "headers-timeout-ms": { type: "string", default: "4000" },
      "body-timeout-ms": { type: "string", default: "4000" },
      only: { type: "string" },
      report: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const int = (name: string, text: string | undefined): number => {
    const n = Number(text);
    if (text === undefined || !/^\d+$/.test(text) || !Number.isSafeInteger(n)) {
      process.stderr.write(`fuzz: --${name} must be a non-negative integer, got "${text}"\n`);
      process.exit(2);
    }
    return n;
  };
  return {
    requests: int("requests", values.requests),
    seed:
      values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : int("seed", values.seed),
    concurrency: Math.max(1, int("concurrency", values.concurrency)),
    deadlineMs: int("deadline-ms", values["deadline-ms"]),
    headersTimeoutMs: int("headers-timeout-ms", values["headers-timeout-ms"]),
    bodyTimeoutMs: int("body-timeout-ms", values["body-timeout-ms"]),
    only: values.only === undefined ? undefined : int("only", values.only),
    report: values.report,
  };
}

const USERNAME = "fuzz-user";
const PASSWORD = "fuzz-pässword:with colon";
const MEMBER = "fuzz-member";
const OTHER = "fuzz-other-app-user";

function pools(seed: number): CasePools {
  const valid = {} as Record<DetailedOperationId, unknown[]>;
  const invalid = {} as Record<DetailedOperationId, { text: string; expectedStatus: number }[]>;
  for (const id of DETAILED_OPERATION_IDS) {
    valid[id] = fc.sample(validBodyArb(id), { numRuns: 300, seed });
    invalid[id] = fc.sample(invalidBodyArb(id), { numRuns: 300, seed }).map((c) => ({
      text: requestBodyText(c),
      expectedStatus: c.expectedStatus,
    }));
  }
  return { valid, invalid };
}

interface Server {
  readonly port: number;
  readonly child: ChildProcess;
  exited: { code: number | null; signal: string | null } | undefined;
  stderr: string;
  stdout: string;
}

async function startServer(o: Options, db: string): Promise<Server> {
  const script = fileURLToPath(new URL("./serve.ts", import.meta.url));
  const config = {
    db,
    member: MEMBER,
    otherAppUser: OTHER,
    username: USERNAME,
    password: PASSWORD,
    headersTimeoutMs: o.headersTimeoutMs,
    bodyTimeoutMs: o.bodyTimeoutMs,
  };
  const child = spawn(
    process.execPath,
    ["--conditions=@idp/source", script, JSON.stringify(config)],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const server: Server = { port: 0, child, exited: undefined, stderr: "", stdout: "" };
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    server.stderr = (server.stderr + chunk).slice(-20_000);
  });
  child.on("exit", (code, signal) => {
    server.exited = { code, signal };
  });
  // Never leave the provider running behind a fuzzer that failed.
  process.on("exit", () => {
    if (server.exited === undefined) child.kill("SIGKILL");
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      server.stdout = out;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on("exit", () =>
      reject(new Error(`the provider exited before listening: ${server.stderr}`)),
    );
  });
  return Object.assign(server, { port });
}

/** What one case produced. */
interface Outcome {
  readonly statuses: readonly number[];
  readonly flags: readonly string[];
  readonly firstAnswerMs: number | undefined;
  readonly requests: number;
}

function runCase(port: number, c: FuzzCase, deadlineMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = createConnection(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let firstAnswerMs: number | undefined;
    let closed = false;
    let finished = false;
    let dripper: ReturnType<typeof setInterval> | undefined;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const requests = c.abort ? 1 : c.heads.length;

    const finish = (reason: "closed" | "deadline" | "answered" | "aborted") => {
      if (finished) return;
      finished = true;
      clearInterval(dripper);
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      if (c.abort) {
        resolve({ statuses: [], flags: [], firstAnswerMs: undefined, requests });
        return;
      }
      const data = Buffer.concat(chunks);
      const parsed = parseAnswers(data, (i) => c.heads[i] ?? false, closed);
      const flags: string[] = [];
      if (parsed.garbled !== undefined) flags.push(`garbled answer: ${parsed.garbled}`);
      if (parsed.answers.length < c.minAnswers) {
        flags.push(
          reason === "deadline"
            ? `hang: no answer within ${deadlineMs} ms`
            : `closed without an answer (${data.length} bytes received)`,
        );
      }
      parsed.answers.forEach((answer, i) => {
        if (answer.status >= 500)
          flags.push(`5xx: ${answer.status} ${answer.body.toString("utf8").slice(0, 120)}`);
        const problem = errorBodyProblem(answer, c.heads[i] ?? false);
        if (problem !== undefined)
          flags.push(`${answer.status} without the error body: ${problem}`);
      });
      const first = parsed.answers[0];
      if (first !== undefined) {
        if (c.allowed !== undefined && !c.allowed.includes(first.status)) {
          flags.push(`status ${first.status} is not one of ${c.allowed.join(",")}`);
        }
        if (c.expected !== undefined && first.status !== c.expected) {
          flags.push(
            `status ${first.status}, expected ${c.expected}: ${first.body.toString("utf8").slice(0, 160)}`,
          );
        }
        if (c.readsState && first.status === 200 && !(c.heads[0] ?? false)) {
          try {
            JSON.parse(first.body.toString("utf8"));
          } catch (error) {
            flags.push(`a read answered 200 with unparseable JSON: ${(error as Error).message}`);
          }
        }
      }
      resolve({ statuses: parsed.answers.map((a) => a.status), flags, firstAnswerMs, requests });
    };

    timers.push(setTimeout(() => finish("deadline"), deadlineMs));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      closed = true;
      finish("closed");
    });
    socket.on("data", (chunk: Buffer) => {
      firstAnswerMs ??= performance.now() - started;
      chunks.push(chunk);
      // Done once every request has its answer (a keep-alive server would wait for more).
      const parsed = parseAnswers(Buffer.concat(chunks), (i) => c.heads[i] ?? false, false);
      if (parsed.answers.length >= c.heads.length && parsed.rest === 0) finish("answered");
    });
    socket.on("connect", () => {
      let at = 0;
      for (const step of c.steps) {
        at += step.afterMs ?? 0;
        timers.push(
          setTimeout(() => {
            if (socket.writable) socket.write(step.bytes);
          }, at),
        );
      }
      timers.push(
        setTimeout(() => {
          if (c.abort) finish("aborted");
          else if (c.drip !== undefined) {
            const { bytes, everyMs } = c.drip;
            dripper = setInterval(() => {
              if (socket.writable) socket.write(bytes);
            }, everyMs);
          }
        }, at + 1),
      );
    });
  });
}

function describeCase(c: FuzzCase): string {
  const head = Buffer.concat(c.steps.map((s) => s.bytes))
    .subarray(0, 400)
    .toString("latin1");
  return `${c.kind}: ${JSON.stringify(head)}`;
}

async function main(): Promise<void> {
  const o = options();
  const dir = mkdtempSync(join(tmpdir(), "idp-fuzz-"));
  const started = performance.now();
  const ctx: CaseContext = {
    authorization: `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`,
    member: MEMBER,
    otherAppUser: OTHER,
    pools: pools(o.seed),
    maxDepth: JSON_BOUNDS.maxDepth,
  };
  let server: Server;
  try {
    server = await startServer(o, join(dir, "fuzz.sqlite"));
  } catch (error) {
    process.stderr.write(`fuzz: ${(error as Error).message}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `fuzz: seed ${o.seed}, ${o.only === undefined ? `${o.requests} requests` : `case ${o.only}`}, ` +
      `concurrency ${o.concurrency}, provider pid ${server.child.pid} on 127.0.0.1:${server.port} ` +
      `(SQLite file, headers ${o.headersTimeoutMs} ms, body ${o.bodyTimeoutMs} ms)\n`,
  );

  const byStatus = new Map<string, number>();
  const byKind = new Map<string, number>();
  const flags = new Map<string, { count: number; examples: string[] }>();
  const overshoot = new Map<string, number>();
  let requests = 0;
  let connections = 0;
  const count = <K>(map: Map<K, number>, key: K, n = 1) => map.set(key, (map.get(key) ?? 0) + n);
  const record = (index: number | string, c: FuzzCase, outcome: Outcome) => {
    connections++;
    requests += outcome.requests;
    count(byKind, c.kind.split(":")[0] ?? c.kind);
    if (outcome.statuses.length === 0) count(byStatus, c.abort ? "none (client aborted)" : "none");
    for (const s of outcome.statuses) count(byStatus, String(s));
    for (const flag of outcome.flags) {
      const category = flag.split(":")[0] ?? flag;
      const entry = flags.get(category) ?? { count: 0, examples: [] };
      entry.count++;
      if (entry.examples.length < 5)
        entry.examples.push(`case ${index}: ${flag} | ${describeCase(c).slice(0, 300)}`);
      flags.set(category, entry);
    }
    if (c.kind.startsWith("slow:") && outcome.firstAnswerMs !== undefined) {
      const limit = c.kind === "slow:body" ? o.bodyTimeoutMs : o.headersTimeoutMs;
      if (c.kind === "slow:body" || c.kind === "slow:headers" || c.kind === "slow:silent") {
        overshoot.set(c.kind, Math.max(overshoot.get(c.kind) ?? 0, outcome.firstAnswerMs - limit));
      }
    }
  };

  if (o.only !== undefined) {
    const c = makeCase(Rng.forCase(o.seed, o.only), ctx);
    const outcome = await runCase(server.port, c, o.deadlineMs);
    process.stdout.write(`${describeCase(c)}\n${JSON.stringify(outcome, null, 2)}\n`);
    record(o.only, c, outcome);
  } else {
    let next = 0;
    let lastProgress = performance.now();
    const worker = async () => {
      for (;;) {
        const index = next++;
        if (requests >= o.requests || server.exited !== undefined) return;
        if (index % 250 === 0) {
          for (const read of readCases(ctx))
            record(`read@${index}`, read, await runCase(server.port, read, o.deadlineMs));
        }
        const c = makeCase(Rng.forCase(o.seed, index), ctx);
        record(index, c, await runCase(server.port, c, o.deadlineMs));
        if (performance.now() - lastProgress > 10_000) {
          lastProgress = performance.now();
          const flagged = [...flags.values()].reduce((n, f) => n + f.count, 0);
          process.stderr.write(
            `fuzz: ${requests} requests, ${flagged} flagged, ${Math.round((performance.now() - started) / 1000)} s\n`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    for (const read of readCases(ctx))
      record("read@end", read, await runCase(server.port, read, o.deadlineMs));
  }

  const crashed = server.exited;
  if (crashed !== undefined) {
    flags.set("provider exited", {
      count: 1,
      examples: [`code ${crashed.code}, signal ${crashed.signal}: ${server.stderr.slice(-2_000)}`],
    });
  } else {
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
  }
  const stallLine = server.stdout.split("\n").find((l) => l.includes("eventLoopDelayMs"));
  const eventLoopDelayMs =
    stallLine === undefined
      ? undefined
      : (JSON.parse(stallLine) as { eventLoopDelayMs: unknown }).eventLoopDelayMs;
  rmSync(dir, { recursive: true, force: true });
  if (server.stderr.includes('"level":"error"')) {
    flags.set("provider logged an error", { count: 1, examples: [server.stderr.slice(-2_000)] });
  }

  const seconds = (performance.now() - started) / 1000;
  const sorted = (m: Map<string, number>) =>
    Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));
  const summary = {
    seed: o.seed,
    requests,
    connections,
    seconds: Math.round(seconds),
    byStatus: sorted(byStatus),
    byKind: sorted(byKind),
    slowClientOvershootMs: Object.fromEntries([...overshoot].map(([k, v]) => [k, Math.round(v)])),
    providerEventLoopDelayMs: eventLoopDelayMs,
    flagged: Object.fromEntries([...flags].map(([k, v]) => [k, v])),
  };
  if (o.report !== undefined) writeFileSync(o.report, `${JSON.stringify(summary, null, 2)}\n`);
  const line = (label: string, m: Map<string, number>) =>
    `${label}: ${[...m]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`;
  process.stdout.write(
    [
      `fuzz: ${requests} requests on ${connections} connections in ${Math.round(seconds)} s (seed ${o.seed})`,
      line("answers by status", byStatus),
      line("cases by kind", byKind),
      `slow clients answered this long after the limit (max): ${JSON.stringify(summary.slowClientOvershootMs)}`,
      `provider event-loop delay: ${JSON.stringify(eventLoopDelayMs)}`,
      flags.size === 0
        ? "flagged: none (no 5xx, no hang, no answer >= 400 without the error body)"
        : `flagged:\n${[...flags].map(([k, v]) => `  ${k}: ${v.count}\n${v.examples.map((e) => `    ${e}`).join("\n")}`).join("\n")}`,
      "",
    ].join("\n"),
  );
  process.exitCode = flags.size === 0 ? 0 : 1;
}

await main();
