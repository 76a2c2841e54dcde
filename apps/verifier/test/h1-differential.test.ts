// The verifier's own HTTP/1.1 client (src/http/h1-parser.ts, h1-pool.ts) against the library it
// replaces, on generated answer byte streams (test/support/answer-streams.ts): well formed, and
// malformed in each way conformance.md §9 lists; split anywhere across writes; cut short; in
// keep-alive sequences; for HEAD; with 1xx, 204 and 304. Seeds are fast-check's global one (pinned
// in CI, printed by vitest.setup.ts).
//
// 1. The parser refuses exactly what llhttp refuses, with llhttp's reason, and reads the same
//    status, fields and body from what it accepts: llhttp itself (the WebAssembly build undici
//    ships) is the oracle.
// 2. Over real sockets, each request's result (status, headers, body; or a refusal of the same
//    class: malformed, closed, header overflow) and the connection each request went on equal
//    undici's `Client` (pipelining 1) for the same bytes.
import { createRequire } from "node:module";
import { createServer, type Server, type Socket } from "node:net";
import fc from "fast-check";
import { Client as UndiciClient } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Head, ResponseParser } from "../src/http/h1-parser.ts";
import { H1Pool } from "../src/http/h1-pool.ts";
import type { HttpResult } from "../src/http/send.ts";
import { E_STRAY } from "../src/http/wire.ts";
import {
  type AnswerCase,
  answerCase,
  answerCaseOf,
  splits,
  splitWire,
} from "./support/answer-streams.ts";

// --- 1. the parser against llhttp ---

const require = createRequire(import.meta.url);
const undiciDir = require.resolve("undici").replace(/index\.js$/, "");
const wasm: Uint8Array<ArrayBuffer> = new Uint8Array(
  require(`${undiciDir}lib/llhttp/llhttp-wasm.js`),
);
const llhttpTypes: { TYPE: { RESPONSE: number } } = require(`${undiciDir}lib/llhttp/constants.js`);

type Event = readonly [string, ...(string | number)[]];
let sink: {
  span(kind: string, at: number, len: number): number;
  headers(status: number): number;
  event(kind: string): number;
};
const instance = new WebAssembly.Instance(new WebAssembly.Module(wasm), {
  env: {
    wasm_on_url: () => 0,
    wasm_on_status: () => 0,
    wasm_on_message_begin: () => sink.event("begin"),
    wasm_on_header_field: (_p: number, at: number, len: number) => sink.span("field", at, len),
    wasm_on_header_value: (_p: number, at: number, len: number) => sink.span("value", at, len),
    wasm_on_headers_complete: (_p: number, status: number) => sink.headers(status),
    wasm_on_body: (_p: number, at: number, len: number) => sink.span("body", at, len),
    wasm_on_message_complete: () => sink.event("complete"),
  },
});
const ll = instance.exports as unknown as {
  memory: WebAssembly.Memory;
  malloc(n: number): number;
  free(p: number): void;
  llhttp_alloc(type: number): number;
  llhttp_free(p: number): void;
  llhttp_execute(p: number, data: number, len: number): number;
  llhttp_finish(p: number): number;
  llhttp_get_error_reason(p: number): number;
};

interface Read {
  readonly kind: "answer" | "refused" | "cut";
  readonly reason?: string;
  readonly status?: number;
  /** name=value, in order. */
  readonly fields?: readonly string[];
  readonly body?: string;
}

/** What llhttp reads of `wire` (the first final answer), skipping the body of HEAD, 1xx, 204, 304. */
function llhttpRead(wire: Buffer, head: boolean): Read {
  const p = ll.llhttp_alloc(llhttpTypes.TYPE.RESPONSE);
  const ptr = ll.malloc(Math.max(1, wire.length));
  new Uint8Array(ll.memory.buffer).set(wire, ptr);
  const events: Event[] = [];
  sink = {
    span: (kind, at, len) => {
      events.push([kind, Buffer.from(ll.memory.buffer, at, len).toString("latin1")]);
      return 0;
    },
    headers: (status) => {
      events.push(["headers", status]);
      return head || status < 200 || status === 204 || status === 304 ? 1 : 0;
    },
    event: (kind) => {
      events.push([kind]);
      return 0;
    },
  };
  const ret = ll.llhttp_execute(p, ptr, wire.length);
  let reason = "";
  if (ret !== 0) {
    const r = ll.llhttp_get_error_reason(p);
    const bytes = new Uint8Array(ll.memory.buffer, r);
    reason = Buffer.from(ll.memory.buffer, r, bytes.indexOf(0)).toString();
  }
  const finished = ret === 0 ? ll.llhttp_finish(p) : -1;
  ll.free(ptr);
  ll.llhttp_free(p);
  // The first final answer: its fields, its body, whether it completed before any refusal.
  let final = false;
  let status = 0;
  let complete = false;
  let body = "";
  let fields: [string, string | undefined][] = [];
  let current: [string, string | undefined][] = [];
  for (const e of events) {
    if (final && complete) break;
    if (e[0] === "begin") current = [];
    else if (e[0] === "field") {
      const last = current[current.length - 1];
      if (last && last[1] === undefined) last[0] += e[1];
      else current.push([e[1] as string, undefined]);
    } else if (e[0] === "value") {
      if (final) continue;
      const last = current[current.length - 1] as [string, string | undefined];
      last[1] = (last[1] ?? "") + e[1];
    } else if (e[0] === "headers" && !final && (e[1] as number) >= 200) {
      final = true;
      status = e[1] as number;
      fields = [...current];
    } else if (e[0] === "body" && final) body += e[1];
    else if (e[0] === "complete" && final) complete = true;
  }
  const read = (): Read => ({
    kind: "answer",
    status,
    fields: fields.map(([n, v]) => `${n.toLowerCase()}=${v ?? ""}`),
    body,
  });
  if (complete) return read();
  if (ret !== 0) return { kind: "refused", reason };
  return final && finished === 0 ? read() : { kind: "cut" };
}

/** What the verifier's parser reads of `parts` (the bytes as they arrive), then the connection's end. */
function parserRead(parts: readonly Buffer[], headRequest: boolean): Read {
  let head: Head | undefined;
  let body = "";
  let complete = false;
  const parser = new ResponseParser({
    head: (h) => {
      if (h.status >= 200) head = h;
      return headRequest || h.status < 200 || h.status === 204 || h.status === 304;
    },
    body: (b) => {
      body += b.toString("latin1");
      return true;
    },
    complete: () => {
      complete = true;
    },
  });
  parser.reset();
  for (const part of parts) {
    const failed = parser.execute(part);
    if (failed) return { kind: "refused", reason: failed.message };
    if (complete) break;
  }
  if (!complete && parser.finish() !== "complete") return { kind: "cut" };
  const h = head as Head;
  return {
    kind: "answer",
    status: h.status,
    fields: Object.entries(h.headers).flatMap(([n, v]) =>
      (Array.isArray(v) ? v : [v]).map((x) => `${n}=${x}`),
    ),
    body,
  };
}

/** Fields compared as a set of name=value lines (the parser groups repeated names). */
const comparable = (r: Read) => (r.fields ? { ...r, fields: [...r.fields].sort() } : r);

describe("the parser refuses what llhttp refuses, with its reason, and reads what it reads", () => {
  it("on generated answers, split anywhere", () => {
    fc.assert(
      fc.property(answerCase, splits, (c, at) => {
        fc.pre(!/ 101 /.test(c.wire)); // llhttp stops at an upgrade; the pool refuses it (below)
        const wire = Buffer.from(c.wire, "latin1");
        const head = c.method === "HEAD";
        expect(comparable(parserRead(splitWire(wire, at), head))).toEqual(
          comparable(llhttpRead(wire, head)),
        );
      }),
      { numRuns: 4000 },
    );
  });
});

// --- 2. the pool against undici, over sockets ---

interface Outcome {
  /** `length`: undici's Content-Length mismatch, which it reports for a refusal and for a close alike. */
  readonly kind: "answer" | "malformed" | "closed" | "overflow" | "stray" | "length" | "timeout";
  readonly status?: number;
  readonly headers?: Record<string, unknown>;
  readonly body?: string;
}

/** undici's errors, by class. */
function undiciClass(e: unknown): Outcome["kind"] {
  const err = e as { code?: string; name?: string; message?: string };
  if (err.name === "HTTPParserError" || err.code?.startsWith("HPE_")) return "malformed";
  if (err.code === "UND_ERR_HEADERS_OVERFLOW") return "overflow";
  if (err.code === "UND_ERR_HEADERS_TIMEOUT" || err.code === "UND_ERR_BODY_TIMEOUT")
    return "timeout";
  if (err.code === "UND_ERR_SOCKET" && /bad (upgrade|response)/.test(err.message ?? ""))
    return "malformed";
  if (err.code === "UND_ERR_SOCKET") return "closed";
  if (err.code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH") return "length";
  return "malformed";
}

function poolClass(r: HttpResult): Outcome {
  if (r.kind === "response")
    return {
      kind: "answer",
      status: r.status,
      headers: { ...r.headers },
      body: r.body.toString("latin1"),
    };
  if (r.code === "HPE_HEADER_OVERFLOW") return { kind: "overflow" };
  if (r.code.startsWith("HPE_")) return { kind: "malformed" };
  if (r.code === E_STRAY) return { kind: "stray" };
  if (r.code === "ETIMEDOUT") return { kind: "timeout" };
  return { kind: "closed" };
}

/** A server that answers the k-th request it reads (any connection) with `script[k]`. */
let server: Server;
let port = 0;
let script: { wire: Buffer; writes: Buffer[]; close: boolean }[] = [];
let served: number[] = [];
let next = 0;
let connections = 0;
const sockets = new Set<Socket>();
const tick = () => new Promise((r) => setImmediate(r));

beforeAll(async () => {
  server = createServer((socket) => {
    const connection = ++connections;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buf = "";
    socket.on("data", async (chunk: Buffer) => {
      buf += chunk.toString("latin1");
      for (let end = buf.indexOf("\r\n\r\n"); end >= 0; end = buf.indexOf("\r\n\r\n")) {
        buf = buf.slice(end + 4);
        const answer = script[next++];
        served.push(connection);
        if (!answer) return socket.destroy();
        for (const part of answer.writes) {
          if (socket.destroyed) return;
          socket.write(part);
          await tick();
        }
        if (answer.close) socket.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function reset(cases: readonly AnswerCase[], at: readonly number[]): void {
  for (const s of sockets) s.destroy();
  next = 0;
  served = [];
  connections = 0;
  script = cases.map((c, k) => {
    const wire = Buffer.from(c.wire, "latin1");
    const last = k === cases.length - 1;
    // Only the last answer is split (earlier ones arrive whole: a split between an answer and the
    // next request's would race the next write), and only the last is followed by a close.
    return { wire, writes: last ? splitWire(wire, at) : [wire], close: last };
  });
}

async function withUndici(cases: readonly AnswerCase[]): Promise<Outcome[]> {
  const client = new UndiciClient(`http://127.0.0.1:${port}`, { pipelining: 1 });
  const out: Outcome[] = [];
  try {
    for (const c of cases) {
      try {
        const res = await client.request({
          path: "/",
          method: c.method,
          headersTimeout: 1_500,
          bodyTimeout: 1_500,
        });
        const body = Buffer.from(await res.body.arrayBuffer()).toString("latin1");
        out.push({ kind: "answer", status: res.statusCode, headers: { ...res.headers }, body });
      } catch (e) {
        out.push({ kind: undiciClass(e) });
      }
    }
  } finally {
    await client.destroy().catch(() => undefined);
  }
  return out;
}

/** The request after which the pool saw bytes nobody asked for (from then on it reuses no connection). */
let strayAfter: number | undefined;

async function withPool(cases: readonly AnswerCase[]): Promise<Outcome[]> {
  // Reused as soon as validated, as undici reuses: the reuse rules are what is compared.
  let k = 0;
  strayAfter = undefined;
  const pool = new H1Pool(`http://127.0.0.1:${port}`, {
    connections: 1,
    quietMs: 0,
    onStray: () => {
      strayAfter ??= k;
    },
  });
  const out: Outcome[] = [];
  try {
    for (const c of cases) {
      out.push(
        poolClass(
          await pool.send({ method: c.method, path: "/", headers: {} }, { timeoutMs: 1_500 }),
        ),
      );
      k++;
    }
  } finally {
    await pool.destroy();
  }
  return out;
}

/** Ours as theirs: undici's `length` stands for a refusal or a close (it says the same of both). */
function expectSame(ours: readonly Outcome[], theirs: readonly Outcome[]): void {
  expect(ours.length).toBe(theirs.length);
  const seen = ours.map((o, k) =>
    theirs[k]?.kind === "length" && (o.kind === "malformed" || o.kind === "closed")
      ? { kind: "length" }
      : o,
  );
  expect(seen).toEqual(theirs);
}

/** undici cannot read these, or reads them by its own bug: not a reference for them. */
const undiciAnswers = (c: AnswerCase) =>
  // A 101 without an upgrade header, a status below 100: undici fails an assertion.
  !/HTTP\/1\.[01] 101 Switching Protocols\r\n\r\n/.test(c.wire) &&
  // undici adds up a Content-Length's trailing spaces as digits (llhttp accepts them).
  !/content-length:[^\r\n]* \r?\n/i.test(c.wire);

describe("the pool gives undici's answers, or refuses with the same class", () => {
  it("for single answers, split anywhere, whole or cut short", async () => {
    await fc.assert(
      fc.asyncProperty(answerCase.filter(undiciAnswers), splits, async (c, at) => {
        reset([c], at);
        const theirs = await withUndici([c]);
        const theirConnections = served;
        reset([c], at);
        const ours = await withPool([c]);
        expectSame(ours, theirs);
        expect(served).toEqual(theirConnections);
      }),
      { numRuns: 150 },
    );
  });

  it("for keep-alive sequences (HEAD, 1xx, 204/304 among them): the same answers on the same connections", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(answerCaseOf(true).filter(undiciAnswers), { minLength: 1, maxLength: 3 }),
        answerCase.filter(undiciAnswers),
        splits,
        async (first, last, at) => {
          const cases = [...first, last];
          reset(cases, at);
          const theirs = await withUndici(cases);
          const theirConnections = served;
          reset(cases, at);
          const ours = await withPool(cases);
          // An answer followed by bytes nobody asked for on a connection kept alive is not given
          // (it may be another request's: conformance.md §9); undici gives it.
          const stray = ours.map((o, k) => (o.kind === "stray" ? k : -1)).filter((k) => k >= 0);
          for (const k of stray) expect(theirs[k]?.kind).toBe("answer");
          expectSame(
            ours.filter((_, k) => !stray.includes(k)),
            theirs.filter((_, k) => !stray.includes(k)),
          );
          // Both close a connection on bytes nobody asked for; from then on the pool keeps none.
          const upTo = strayAfter === undefined ? served.length : strayAfter + 2;
          expect(served.slice(0, upTo)).toEqual(theirConnections.slice(0, upTo));
        },
      ),
      { numRuns: 100 },
    );
  });
});
