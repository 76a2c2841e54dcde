// Answers on the wire (conformance.md §9) and gateway errors (§7), end to end: the conforming
// hand-written provider of @idp/fault-providers behind fronts written byte by byte
// (`startFront`), each misbehaving as deployments do. Each case ends as §9 and §7 say, with the
// check id and its words; the realistic fronts (FIN with the answer, an idle close 40 ms away with
// half-close, a gateway that 502/504s 1 in 200, an echoing gateway behind a proxy) pass; no finding
// ever cites an answer another request got (every answer is tagged with the request it is for).
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FrontOptions,
  type Malformation,
  type RunningFront,
  type RunningProvider,
  startFront,
  startHandProvider,
} from "@idp/fault-providers";
import { startGateway, startProxy } from "@idp/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerifyReport } from "../src/results.ts";
import { CREDENTIALS, failedIds, verifyReport } from "./support/run.ts";

const PACTS = fileURLToPath(new URL("./fixtures/pacts/", import.meta.url));
const LOGIN = { IDP_USERNAME: CREDENTIALS.username, IDP_PASSWORD: CREDENTIALS.password };
let provider: RunningProvider;
let gzipped: RunningProvider;
const closers: (() => Promise<void>)[] = [];
const dir = mkdtempSync(join(tmpdir(), "idp-wire-"));

beforeAll(async () => {
  provider = await startHandProvider({ credentials: CREDENTIALS });
  gzipped = await startHandProvider({ credentials: CREDENTIALS, errorCoding: "gzip" });
});
afterAll(async () => {
  for (const close of closers) await close();
  await provider.close();
  await gzipped.close();
  rmSync(dir, { recursive: true, force: true });
});

async function front(options: Omit<FrontOptions, "upstream">, upstream = provider) {
  const f = await startFront({ upstream: new URL(upstream.baseUrl).origin, ...options });
  closers.push(() => f.close());
  return f;
}

/** idp-verify at a front: small and seeded; states and pacts only where a case needs them. */
function at(f: RunningFront, extra: readonly string[], options: { full?: boolean } = {}) {
  return [
    "--provider-url",
    f.baseUrl,
    ...(options.full ? ["--provider-states-url", f.statesUrl, "--pacts", PACTS] : []),
    "--runs",
    options.full ? "5" : "3",
    "--seed",
    "11",
    "--timeout-ms",
    "10000",
    ...extra,
  ];
}

/** The failures whose answer was tagged for another request (the front tags every answer). */
function foreignAnswers(report: VerifyReport | undefined): string[] {
  return (report?.checks ?? []).flatMap((c) => {
    const ex = c.failure?.exchange;
    const tag = ex?.result.kind === "response" ? ex.result.headers["x-answer-to"] : undefined;
    if (!ex || tag === undefined) return [];
    const u = new URL(ex.request.url);
    const hash = createHash("sha1")
      .update(ex.request.body ?? "")
      .digest("hex")
      .slice(0, 12);
    return tag === `${ex.request.method} ${u.pathname}${u.search} sha1:${hash}` ? [] : [c.id];
  });
}

/** R4 on the two operations that need no provider state, and R6 (observed on every answer). */
const SMALL = [
  "--checks",
  "R4.valid-accepted.createSchema,R4.valid-accepted.updateClusteringRules,R6",
];

const message = (report: VerifyReport | undefined, id: string) =>
  report?.checks.find((c) => c.id === id)?.failure?.message ?? "";

describe("a conforming provider behind realistic fronts passes", () => {
  it.each<[string, Omit<FrontOptions, "upstream">]>([
    ["a FIN with every answer (no Connection: close)", { kind: "fin-with-answer" }],
    [
      "idle connections half-closed after 100 ms, 40 ms away",
      { kind: "idle-close", idleCloseMs: 100, latencyMs: 40 },
    ],
    ["a gateway that answers 502 or 504 to 1 request in 40", { kind: "gateway-errors", every: 40 }],
  ])("%s", async (_, options) => {
    const f = await front(options);
    const run = await verifyReport(at(f, [], { full: true }), LOGIN);
    expect(run.code, run.stdout).toBe(0);
    expect(run.report?.verdict).toBe("passed");
    if (options.kind === "gateway-errors") {
      // Waited out and sent again, counted, never judged.
      expect(f.counts.misbehaved).toBeGreaterThan(0);
      expect(run.report?.requests.resent.gateway).toBe(f.counts.misbehaved);
      expect(run.stdout).toMatch(
        /gateway errors? \(502\/504, not JSON\) waited out and sent again/,
      );
    }
  });

  it("with gzipped error bodies (no Accept-Encoding sent: any coding is the provider's to choose)", async () => {
    const f = await front({ kind: "plain" }, gzipped);
    const run = await verifyReport(at(f, [], { full: true }), LOGIN);
    expect(run.code, run.stdout).toBe(0);
    expect(run.report?.summary.warnings).toBe(0);
  });
});

describe("bytes nobody asked for (§9): R6, and no finding cites another request's answer", () => {
  it.each<[string, Omit<FrontOptions, "upstream">]>([
    ["in the same write as the answer", { kind: "stray-early", every: 4 }],
    ["1 ms after the answer", { kind: "stray-late", every: 4, lateMs: 1 }],
  ])("%s", async (_, options) => {
    const f = await front(options);
    const run = await verifyReport(at(f, [], { full: true }), LOGIN);
    expect(run.code, run.stdout).toBe(1);
    expect(f.counts.misbehaved).toBeGreaterThan(0);
    expect(failedIds(run.report)).toEqual(["R6.no-5xx"]);
    expect(message(run.report, "R6.no-5xx")).toMatch(/^R6: an answer nobody asked for \(/);
    expect(foreignAnswers(run.report)).toEqual([]);
  });
});

describe("no answer (§9): R6 fails, nothing sent again", () => {
  it.each<[string, Omit<FrontOptions, "upstream">, RegExp]>([
    [
      "an answer cut short of its Content-Length",
      { kind: "cut-short", every: 3 },
      /^R6: the provider must answer; the answer was cut short \(the connection was closed after \d+ of its \d+ bytes \(Content-Length\)\)$/,
    ],
    [
      "a reset after the provider handled the request",
      { kind: "reset-after", every: 3 },
      /^R6: the provider must answer; it closed the connection without answering \(the connection(, kept alive and busy,)? was reset \(ECONNRESET\)/,
    ],
  ])("%s", async (_, options, words) => {
    const f = await front(options);
    const run = await verifyReport(at(f, SMALL), LOGIN);
    expect(run.code, run.stdout).toBe(1);
    expect(message(run.report, "R6.no-5xx")).toMatch(words);
    // Each misbehaving request was sent once: every request the front got was sent by the run.
    expect(f.counts.requests).toBe(run.report?.requests.sent);
    expect(run.report?.requests.resent.connection).toBe(0);
  });
});

describe("a gateway that drops busy connections as a habit (§9)", () => {
  it("fails R6, however many of those requests a second try would have passed", async () => {
    const g = await startGateway({ upstream: new URL(provider.baseUrl).origin, dropEvery: 5 });
    closers.push(() => g.close());
    const run = await verifyReport(at({ baseUrl: `${g.origin}/v1` } as RunningFront, SMALL), LOGIN);
    expect(run.code, run.stdout).toBe(1);
    expect(g.counts.dropped).toBeGreaterThan(1);
    expect(message(run.report, "R6.no-5xx")).toMatch(
      /^R6: the provider must answer; it closed the connection without answering \(/,
    );
    // At most one drop is taken for the race of an idle close, once.
    expect(run.report?.requests.resent.connection).toBeLessThanOrEqual(1);
  });
});

describe("malformed answers (§9): R6 at once, with llhttp's reason", () => {
  it.each<[Malformation, string]>([
    ["bad-status-line", "HPE_INVALID_STATUS: Invalid status code"],
    ["nul-in-header", "HPE_INVALID_HEADER_TOKEN: Invalid header value char"],
    ["control-in-header", "HPE_INVALID_HEADER_TOKEN: Invalid header value char"],
    [
      "content-length-and-chunked",
      "HPE_INVALID_TRANSFER_ENCODING: Transfer-Encoding can't be present with Content-Length",
    ],
    ["differing-content-lengths", "HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length"],
    ["bad-chunk-size", "HPE_INVALID_CHUNK_SIZE: Invalid character in chunk size"],
    ["bare-lf", "HPE_CR_EXPECTED: Missing expected CR after response line"],
    ["obs-fold", "HPE_INVALID_HEADER_TOKEN: Unexpected whitespace after header value"],
    ["unasked-101", "HPE_UNEXPECTED_UPGRADE: a 101 Switching Protocols nobody asked for"],
  ])("%s", async (malformation, reason) => {
    const f = await front({ kind: "malformed", every: 3, malformation });
    const started = performance.now();
    const run = await verifyReport(at(f, SMALL), LOGIN);
    expect(run.code, run.stdout).toBe(1);
    expect(message(run.report, "R6.no-5xx")).toBe(
      `R6: the provider must answer in HTTP/1.1; a malformed answer (${reason})`,
    );
    // Never waited out (--timeout-ms is 10 s).
    expect(performance.now() - started).toBeLessThan(9_000);
    expect(run.report?.requests.resent.connection).toBe(0);
  });

  it("an error body that is not what its Content-Encoding says: R6, and R2 too", async () => {
    const faulty = await startHandProvider({
      credentials: CREDENTIALS,
      faults: ["wrong-content-coding"],
    });
    closers.push(() => faulty.close());
    const run = await verifyReport(
      at({ baseUrl: faulty.baseUrl } as RunningFront, ["--checks", "R1.auth.no-header,R2,R6"]),
      LOGIN,
    );
    expect(run.code, run.stdout).toBe(1);
    expect(message(run.report, "R6.no-5xx")).toMatch(
      /^R6: the provider must answer in HTTP\/1\.1; a malformed answer \(E_CONTENT_CODING: the body is labelled gzip but is not valid gzip \(/,
    );
    expect(message(run.report, "R2.error-body")).toMatch(
      /^R2: the error body is not valid gzip \(a 4\d\d answer labelled Content-Encoding: gzip\)$/,
    );
  });
});

describe("gateway errors (§7)", () => {
  it("a gateway whose provider never answers one operation: R6 in the gateway's words", async () => {
    const f = await front({
      kind: "gateway-errors",
      every: 1_000_000,
      persistentPath: "/v1/marketing/login/apps/clustering/rules",
      // The preflight and the rules' read before the first update get through.
      persistentAfter: 4,
    });
    const run = await verifyReport(
      at(f, ["--checks", "R4.valid-accepted.updateClusteringRules,R6", "--runs", "1"]),
      LOGIN,
    );
    expect(run.code, run.stdout).toBe(1);
    expect(message(run.report, "R4.valid-accepted.updateClusteringRules")).toMatch(
      /^R6: the gateway answered 502: the provider behind it did not answer \(3 tries, 1 s apart, each on a new connection\)$/,
    );
    expect(run.report?.requests.resent.gateway).toBeGreaterThanOrEqual(2);
  });
});

describe("what the provider writes is shown, never obeyed (§9)", () => {
  it("a body of terminal escapes and CRs is escaped in the console, JUnit and HTML", async () => {
    const f = await front({ kind: "terminal-escapes" });
    const junit = join(dir, "escapes.xml");
    const html = join(dir, "escapes.html");
    const run = await verifyReport(
      at(f, [
        "--checks",
        "R1.auth.no-header,R2",
        "--report",
        `junit=${junit}`,
        "--report",
        `html=${html}`,
      ]),
      LOGIN,
    );
    expect(run.code).toBe(1);
    const texts = [run.stdout, run.stderr, readFileSync(junit, "utf8"), readFileSync(html, "utf8")];
    for (const text of texts) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be printed
      expect(text).not.toMatch(/[\u001b\u0007]/);
      expect(text).not.toContain("\r");
    }
    expect(run.stdout).toContain("\\u001b[2K\\r");
    expect(readFileSync(html, "utf8")).toContain("\\u001b[32mPASSED");
  });
});

describe("proxy credentials are secrets (§7)", () => {
  it("a gateway behind a proxy echoing Proxy-Authorization: the credential is in no output or report", async () => {
    const f = await front({ kind: "echo-headers" });
    const proxy = await startProxy();
    closers.push(() => proxy.close());
    const url = new URL(proxy.url);
    url.username = "proxy-user";
    url.password = "pr0xy-Secret-5f2c";
    const har = join(dir, "proxied.har");
    const junit = join(dir, "proxied.xml");
    const html = join(dir, "proxied.html");
    const run = await verifyReport(
      at(f, ["--har", har, "--report", `junit=${junit}`, "--report", `html=${html}`], {
        full: true,
      }),
      { ...LOGIN, HTTP_PROXY: url.toString(), NO_PROXY: "" },
    );
    expect(run.code, run.stdout).toBe(0);
    expect(proxy.counts.forwarded).toBeGreaterThan(0);
    // The gateway did echo it: the secret was sent, and scrubbed wherever it came back.
    expect(f.counts.misbehaved).toBeGreaterThan(0);
    const all = [
      run.stdout,
      run.stderr,
      run.json,
      ...[har, junit, html].map((p) => readFileSync(p, "utf8")),
    ];
    const b64 = Buffer.from("proxy-user:pr0xy-Secret-5f2c").toString("base64");
    for (const text of all) {
      expect(text).not.toContain("pr0xy-Secret-5f2c");
      expect(text).not.toContain(b64);
    }
  });

  it.each([
    [{ HTTP_PROXY: "http://[bad" }, /^idp-verify: E_CONFIG: HTTP_PROXY is not a proxy URL/],
    [
      { https_proxy: "ftp://p:1" },
      /^idp-verify: E_CONFIG: https_proxy must be an http:\/\/ or https:\/\//,
    ],
    [{ NO_PROXY: "a b/c" }, /^idp-verify: E_CONFIG: NO_PROXY holds "b\/c"/],
  ])("a malformed proxy variable %j is exit 2 naming it", async (env, words) => {
    const run = await verifyReport(["--provider-url", "http://127.0.0.1:9/v1"], {
      ...LOGIN,
      ...env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(words);
  });
});

describe("outgoing headers that frame or route (§7)", () => {
  it.each([
    "Transfer-Encoding: chunked",
    "TE: trailers",
    "Expect: 100-continue",
    "Upgrade: h2c",
    "Keep-Alive: 5",
    "Connection: close",
    "Trailer: x",
    "Proxy-Authorization: Basic x",
  ])("--header %j is exit 2 naming it", async (header) => {
    const run = await verifyReport(
      ["--provider-url", "http://127.0.0.1:9/v1", "--header", header],
      LOGIN,
    );
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toMatch(
      new RegExp(
        `^idp-verify: E_CONFIG: --header ${header.split(":")[0]}: a header that frames or routes`,
      ),
    );
  });
});
