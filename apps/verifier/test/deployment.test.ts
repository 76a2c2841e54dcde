// A provider as provider teams deploy it (conformance.md §7): behind a real gateway that throttles,
// requires an API key and drops connections; behind TLS with a private CA and client certificates;
// behind a corporate CONNECT proxy. Every part is real and started here on 127.0.0.1.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { createProvider, type IdpProvider } from "@idp/provider";
import {
  createTestPki,
  type RunningGateway,
  type RunningProxy,
  startGateway,
  startProxy,
  type TestPki,
} from "@idp/test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HarSchema } from "./support/har.ts";
import { CREDENTIALS, failedIds, verifyReport } from "./support/run.ts";

const PACTS = fileURLToPath(new URL("./fixtures/pacts/", import.meta.url));
const API_KEY = "gw-key-5c1e7d9a-never-printed";

let reference: IdpProvider;
let referenceOrigin: string;
let pki: TestPki;
const closers: (() => Promise<void>)[] = [];
const dir = mkdtempSync(join(tmpdir(), "idp-deployment-"));

beforeAll(async () => {
  // Its warnings and errors only: a line per request was most of CI's log (7,000 of 8,600 lines).
  reference = createProvider({
    db: ":memory:",
    credentials: CREDENTIALS,
    providerStates: true,
    log: (entry) => {
      if (entry.level !== "info") process.stderr.write(`${JSON.stringify(entry)}\n`);
    },
  });
  const { baseUrl } = await reference.listen({ port: 0, host: "127.0.0.1" });
  referenceOrigin = new URL(baseUrl).origin;
  pki = createTestPki();
});
afterAll(async () => {
  await reference.close();
  pki.remove();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function gateway(
  options: Omit<Parameters<typeof startGateway>[0], "upstream"> & { upstream?: string },
) {
  const g = await startGateway({ upstream: referenceOrigin, ...options });
  closers.push(() => g.close());
  return g;
}
async function proxy(): Promise<RunningProxy> {
  const p = await startProxy();
  closers.push(() => p.close());
  return p;
}
async function handProvider(faults: string[]): Promise<RunningProvider> {
  const p = await startHandProvider({ credentials: CREDENTIALS, faults: faults as never });
  closers.push(() => p.close());
  return p;
}

/**
 * idp-verify at a gateway (or any origin): base and state URL under it, small and seeded. Five
 * runs a check: these tests judge what crosses the gateway (throttling, keys, TLS, proxies), which
 * every request does alike; the pacts and every check still run.
 */
function at(origin: string, extra: readonly string[] = [], runs = 5, seed = 7): string[] {
  return [
    "--provider-url",
    `${origin}/v1`,
    "--provider-states-url",
    `${origin}/_pact/provider-states`,
    "--pacts",
    PACTS,
    "--runs",
    String(runs),
    "--seed",
    String(seed),
    // Generous: with every test file running at once on 2 cores, a gateway and a provider in this
    // process answer a 1 MiB body slowly; the tests judge throttling and secrets, not latency.
    "--timeout-ms",
    "15000",
    ...extra,
  ];
}
const LOGIN = { IDP_USERNAME: CREDENTIALS.username, IDP_PASSWORD: CREDENTIALS.password };

/** Every text a run leaves: stdout, stderr and each report. */
function everything(run: { stdout: string; stderr: string; json: string }, files: string[] = []) {
  return [run.stdout, run.stderr, run.json, ...files.map((f) => readFileSync(f, "utf8"))].join(
    "\n",
  );
}

describe("a throttling gateway (429/503 are not answers)", () => {
  it("passes the conforming provider behind a token bucket (429 + Retry-After), counting what was throttled", async () => {
    // The first request is throttled whatever the timing: with every test file running at once on
    // 2 cores, a run in this process once never outran the bucket (CI: 0 throttled). The bucket
    // throttles more wherever the run's requests come faster than 250/s.
    const g = await gateway({ ratePerSecond: 250, burst: 4, throttleFirst: 1 });
    const run = await verifyReport(at(g.origin), LOGIN);
    expect(run.report?.verdict, run.stdout).toBe("passed");
    expect(run.code).toBe(0);
    expect(g.counts.throttled).toBeGreaterThan(0);
    expect(run.report?.requests.throttled).toBe(g.counts.throttled);
    expect(run.stdout).toMatch(new RegExp(`${g.counts.throttled} throttled answers? waited out`));
    // Pact's interactions and the state calls went through the gateway too, and passed.
    expect(
      run.report?.checks.filter((c) => c.kind === "pact" && c.status === "passed").length,
    ).toBe(12);
  });

  it("waits out 429 without Retry-After (backoff) and 503 with an HTTP-date Retry-After", async () => {
    const bare = await gateway({ throttleFirst: 2, retryAfter: "none" });
    const a = await verifyReport(at(bare.origin), LOGIN);
    expect(a.code, a.stdout).toBe(0);
    expect(a.report?.requests.throttled).toBe(2);
    const dated = await gateway({ throttleFirst: 3, throttleStatus: 503, retryAfter: "date" });
    const b = await verifyReport(at(dated.origin), LOGIN);
    expect(b.code, b.stdout).toBe(0);
    expect(b.report?.requests.throttled).toBe(3);
  });

  it("sends nothing a 250/s rate limit would exceed: a 300/s bucket throttles none", async () => {
    // A bucket holding a tenth of a second, as gateways' do; it shares this test's event loop.
    const g = await gateway({ ratePerSecond: 300, burst: 30 });
    const run = await verifyReport(at(g.origin, ["--rate-limit", "250/s"], 10), LOGIN);
    expect(run.code, run.stdout).toBe(0);
    expect(g.counts.throttled).toBe(0);
    expect(run.report?.deployment.rateLimitPerSecond).toBe(250);
  });

  it("ends a gateway that throttles forever as exit 2, throttled, within --max-duration", async () => {
    const g = await gateway({ throttleAll: true });
    const started = performance.now();
    const run = await verifyReport(at(g.origin, ["--max-duration", "3"]), LOGIN);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/E_THROTTLED: .*throttled/);
    expect(performance.now() - started).toBeLessThan(3_000 + 2_500);
  });

  it("makes checks still throttled at --max-duration incomplete (throttled), never failed", async () => {
    // The preflight and state probes get through; everything after the first 40 requests is throttled.
    const g = await gateway({ ratePerSecond: 0.001, burst: 40 });
    const run = await verifyReport(at(g.origin, ["--max-duration", "4"], 20), LOGIN);
    expect(run.code).toBe(2);
    expect(failedIds(run.report)).toEqual([]);
    const incomplete = run.report?.checks.filter((c) => c.status === "incomplete") ?? [];
    expect(incomplete.length).toBeGreaterThan(0);
    for (const c of incomplete) expect(c.reason).toMatch(/throttled/);
    expect(run.stdout).toMatch(/^COULD NOT VERIFY: .* incomplete \(\d+ throttled\)/m);
  });

  it("still fails a faulty provider behind it, with the same check ids as without it", async () => {
    const faulty = await handProvider(["swap-400-422", "no-404-403"]);
    const origin = new URL(faulty.baseUrl).origin;
    // Which checks fail is known before shrinking starts: unshrunk, the same ids sooner.
    const direct = await verifyReport(at(origin, ["--no-shrink"], 15), LOGIN);
    // Throttled at least once whatever the timing (as in the first test of this block).
    const g = await gateway({ upstream: origin, ratePerSecond: 250, burst: 4, throttleFirst: 1 });
    const behind = await verifyReport(at(g.origin, ["--no-shrink"], 15), LOGIN);
    expect(g.counts.throttled).toBeGreaterThan(0);
    expect(direct.code).toBe(1);
    expect(behind.code).toBe(1);
    expect(failedIds(behind.report)).toEqual(failedIds(direct.report));
    expect(failedIds(direct.report)).toContain("R5.invalid-rejected.createSchema");
  });
});

describe("a request the gateway cannot read", () => {
  it("is answered 431 whole before the connection closes (a lingering close), as its provider answers it", async () => {
    const g = await gateway({});
    // A request line of 300 KB, over Node's 16 KiB head limit, written whole before reading: with
    // Node's default handling the gateway closed with it unread, and the reset lost the answer.
    const head = `GET /v1/marketing/datastore/schemas/${"n".repeat(300_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    for (const origin of [g.origin, referenceOrigin]) {
      const got = await new Promise<string>((resolve) => {
        const socket = connect(Number(new URL(origin).port), "127.0.0.1", () => socket.write(head));
        let text = "";
        socket.on("data", (d: Buffer) => {
          text += d.toString("latin1");
        });
        // A reset once the answer is in is the peer's own business; the answer is what counts.
        socket.on("error", () => resolve(text));
        socket.on("close", () => resolve(text));
      });
      expect(got, origin).toMatch(/^HTTP\/1\.1 431 /);
      const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(got)?.[1]);
      const body = got.slice(got.indexOf("\r\n\r\n") + 4);
      expect(Buffer.byteLength(body), origin).toBe(length);
      expect(() => JSON.parse(body), origin).not.toThrow();
    }
  });
});

describe("an answer before the body", () => {
  it("the gateway reads the rest of the body once its upstream answered and closed, so the client's send ends", async () => {
    // An upstream that answers 401 at once, never reads the body, and closes 300 ms later.
    const upstream = createServer((req, res) => {
      res.writeHead(401, { "content-type": "application/json", "content-length": "2" }).end("{}");
      setTimeout(() => req.socket.destroy(), 300);
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
    const g = await gateway({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    });
    const body = Buffer.alloc(8 * 1024 * 1024, 97);
    const outcome = await new Promise<{ status?: number; sent: boolean }>((resolve) => {
      let status: number | undefined;
      const r = httpRequest(`${g.origin}/v1/x`, {
        method: "POST",
        headers: { "content-length": String(body.length) },
      });
      r.on("response", (res) => {
        status = res.statusCode;
        res.resume();
      });
      r.on("finish", () => resolve({ ...(status ? { status } : {}), sent: true }));
      r.on("error", () => resolve({ ...(status ? { status } : {}), sent: false }));
      setTimeout(() => resolve({ ...(status ? { status } : {}), sent: false }), 5_000).unref();
      r.end(body);
    });
    expect(outcome).toEqual({ status: 401, sent: true });
  });
});

describe("idle upstream connections", () => {
  it("the gateway drops one after 1 s, before the provider's keep-alive closes it under a request (no 502 of its own)", async () => {
    // An upstream that, like the reference provider, closes a connection idle for a while; and
    // counts the connections it was given and which of them the gateway closed first.
    const opened: { closedByGateway: boolean }[] = [];
    const upstream = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-length": "0" }).end());
    });
    upstream.keepAliveTimeout = 2_500;
    upstream.on("connection", (socket) => {
      const c = { closedByGateway: false };
      opened.push(c);
      socket.on("end", () => {
        c.closedByGateway = true;
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
    const g = await gateway({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    });
    const post = () =>
      new Promise<number | undefined>((resolve) => {
        const r = httpRequest(`${g.origin}/v1/x`, { method: "POST" });
        r.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode));
        });
        r.on("error", () => resolve(undefined));
        r.end("{}");
      });
    expect(await post()).toBe(200);
    // Idle for 1.5 s: past the gateway's 1 s, short of the upstream's 2.5 s.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await post()).toBe(200);
    expect(opened).toHaveLength(2);
    expect(opened[0]?.closedByGateway).toBe(true);
  });
});

describe("a gateway that requires an API key", () => {
  it("sends --header on every request (checks, pacts, states), never printing its value", async () => {
    const g = await gateway({ requireHeader: ["X-Api-Key", API_KEY] });
    const har = join(dir, "gateway.har");
    const junit = join(dir, "gateway.xml");
    const html = join(dir, "gateway.html");
    const run = await verifyReport(
      at(g.origin, [
        "--header",
        `X-Api-Key: ${API_KEY}`,
        "--har",
        har,
        "--report",
        `junit=${junit}`,
        "--report",
        `html=${html}`,
      ]),
      LOGIN,
    );
    expect(run.code, run.stdout).toBe(0);
    expect(g.counts.refused).toBe(0);
    expect([...g.counts.headerValues]).toEqual([API_KEY]);
    expect(everything(run, [har, junit, html])).not.toContain(API_KEY);
    expect(run.report?.deployment.headers).toEqual(["X-Api-Key"]);
  });

  it.each([
    ["Authorization: Basic abc", /the verifier sets Authorization itself/],
    ["content-type: text/plain", /the verifier sets content-type itself/],
    ["Host: example.com", /the verifier sets Host itself/],
    ["no colon here", /--header must be "Name: value"/],
  ])("refuses --header %j (exit 2, one line)", async (header, message) => {
    const run = await verifyReport(at("http://127.0.0.1:9", ["--header", header]), LOGIN);
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toMatch(
      new RegExp(`^idp-verify: E_CONFIG: .*${message.source}`),
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("HAR 1.2 of every exchange", () => {
  it("records every request of the run, throttled ones marked, readable as HAR 1.2, secrets out", async () => {
    const g = await gateway({ ratePerSecond: 250, burst: 4 });
    const har = join(dir, "run.har");
    const run = await verifyReport(at(g.origin, ["--har", har], 10), LOGIN);
    expect(run.code, run.stdout).toBe(0);
    const doc = HarSchema.parse(JSON.parse(readFileSync(har, "utf8")));
    expect(doc.log.entries.length).toBe(run.report?.requests.sent);
    const sources = new Set(doc.log.entries.map((e) => e._source));
    for (const s of ["preflight", "provider-state", "pact", "R4.valid-accepted.createSchema"])
      expect(sources).toContain(s);
    expect(doc.log.entries.filter((e) => e._throttled).length).toBe(g.counts.throttled);
    const text = readFileSync(har, "utf8");
    expect(text).not.toContain(CREDENTIALS.password);
    expect(text).not.toContain(
      Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString("base64"),
    );
  });
});

describe("TLS with a private CA", () => {
  it("refuses an unknown CA (exit 2), trusts --ca-cert or NODE_EXTRA_CA_CERTS, and says --insecure aloud", async () => {
    const g = await gateway({ tls: { key: pki.server.key, cert: pki.server.cert } });
    const unknown = await verifyReport(at(g.origin), LOGIN);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/E_PROVIDER_UNREACHABLE: .*(certificate|CERT)/i);

    const trusted = await verifyReport(at(g.origin, ["--ca-cert", pki.ca.path]), LOGIN);
    expect(trusted.code, trusted.stdout).toBe(0);
    expect(
      trusted.report?.checks.filter((c) => c.kind === "pact" && c.status === "passed").length,
    ).toBe(12);

    const fromEnv = await verifyReport(at(g.origin), {
      ...LOGIN,
      NODE_EXTRA_CA_CERTS: pki.ca.path,
    });
    expect(fromEnv.code, fromEnv.stdout).toBe(0);

    const insecure = await verifyReport(at(g.origin, ["--insecure"]), LOGIN);
    expect(insecure.code).toBe(0);
    expect(insecure.stdout).toMatch(/^PASSED: .*TLS certificates not checked \(--insecure\)/m);
    expect(insecure.report?.deployment.insecure).toBe(true);
  });

  it("presents a client certificate to a gateway that requires one (mutual TLS), never printing its key", async () => {
    const g = await gateway({
      tls: { key: pki.server.key, cert: pki.server.cert, ca: pki.ca.cert, requestCert: true },
    });
    const without = await verifyReport(at(g.origin, ["--ca-cert", pki.ca.path]), LOGIN);
    expect(without.code).toBe(2);
    const har = join(dir, "mtls.har");
    const run = await verifyReport(
      at(g.origin, [
        "--ca-cert",
        pki.ca.path,
        "--client-cert",
        pki.client.certPath,
        "--client-key",
        pki.client.keyPath,
        "--har",
        har,
      ]),
      LOGIN,
    );
    expect(run.code, run.stdout).toBe(0);
    expect(run.report?.deployment.clientCertificate).toBe(true);
    const keyBody = pki.client.key.split("\n").filter((l) => l && !l.startsWith("-----"));
    const all = everything(run, [har]);
    for (const line of keyBody) expect(all).not.toContain(line);
  });

  it.each([
    [["--client-cert", "x.pem"], /--client-cert and --client-key go together/],
    [
      ["--ca-cert", "/nonexistent/ca.pem"],
      /--ca-cert \/nonexistent\/ca\.pem: cannot read it \(ENOENT\)/,
    ],
  ])("refuses %j with one line (exit 2)", async (extra, message) => {
    const run = await verifyReport(at("https://127.0.0.1:9", extra), LOGIN);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});

describe("a corporate proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY as curl reads them)", () => {
  it("tunnels https through CONNECT, forwards http, and goes direct for NO_PROXY hosts", async () => {
    const p = await proxy();
    const tls = await gateway({ tls: { key: pki.server.key, cert: pki.server.cert } });
    const viaTunnel = await verifyReport(at(tls.origin, ["--ca-cert", pki.ca.path]), {
      ...LOGIN,
      HTTPS_PROXY: p.url,
    });
    expect(viaTunnel.code, viaTunnel.stdout).toBe(0);
    expect(p.counts.tunnels).toBeGreaterThan(0);
    expect(viaTunnel.report?.deployment.proxied).toBe(true);

    const plain = await gateway({});
    const viaForward = await verifyReport(at(plain.origin), { ...LOGIN, http_proxy: p.url });
    expect(viaForward.code, viaForward.stdout).toBe(0);
    expect(p.counts.forwarded).toBeGreaterThan(0);

    const before = p.counts.forwarded + p.counts.tunnels;
    const direct = await verifyReport(at(plain.origin), {
      ...LOGIN,
      HTTP_PROXY: p.url,
      NO_PROXY: "localhost,127.0.0.1",
    });
    expect(direct.code).toBe(0);
    expect(p.counts.forwarded + p.counts.tunnels).toBe(before);
  });
});

export type { RunningGateway };
