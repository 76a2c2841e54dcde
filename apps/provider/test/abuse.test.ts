import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProvider, MAX_LISTED_VIOLATIONS, SERVER_LIMITS } from "../src/index.ts";
import {
  expectErrorBody,
  expectRawErrorBody,
  GOOD_AUTH,
  PATHS,
  rawRequest,
  type Started,
  startProvider,
  validRules,
  validSchema,
} from "./helpers.ts";

// One test per finding of issue 11, over real sockets; raw bytes where an HTTP client cannot send
// them. Timeouts are tested with short limits (the defaults are measured by fuzz/measure-timeouts.ts).

const MEMBER = "abuse-user";
const LIMITS = { headersTimeoutMs: 600, bodyTimeoutMs: 900, checkIntervalMs: 50 };
let s: Started;
let port: number;
beforeAll(async () => {
  s = await startProvider({ seed: { loginUsers: [MEMBER] }, limits: LIMITS });
  port = Number(new URL(s.baseUrl).port);
});
afterAll(() => s.provider.close());

const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const withUnknown = (body: object, wrapperKey: string, value: string) =>
  JSON.stringify(body).replace(`"${wrapperKey}":{`, () => `"${wrapperKey}":{"x":${value},`);
const PUSH_DATA = {
  data: {
    message: "m",
    title: "t",
    small_icon: "i",
    vibrate: true,
    vibrate_duration: 1,
    auto_cancel: true,
    big_style: false,
    activity_class: "a",
    badge: 1,
    sound: "s",
  },
};
const request = (head: string, body = "") =>
  `${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const authed = (line: string) => `${line}\r\nHost: idp.test\r\nAuthorization: ${GOOD_AUTH}`;

describe("finding: 500 on deep nesting (R6)", () => {
  it.each([4_500, 5_000, 100_000])(
    "%i levels under an unknown key: the pinned 4xx on all three operations",
    async (n) => {
      const create = await s.call(
        "POST",
        PATHS.createSchema,
        withUnknown(validSchema("deep"), "schema", nested(n)),
      );
      await expectErrorBody(create, 422);
      const push = await s.call(
        "POST",
        PATHS.push(MEMBER),
        withUnknown(PUSH_DATA, "data", nested(n)),
      );
      await expectErrorBody(push, 400);
      const rules = await s.call(
        "PUT",
        PATHS.clusteringRules,
        withUnknown(validRules(), "rules", nested(n)),
      );
      await expectErrorBody(rules, 422);
    },
  );
});

describe("finding: poisoned reads", () => {
  it("a value just under the old overflow (4,390 levels) is refused, so reads stay 200", async () => {
    await expectErrorBody(
      await s.call(
        "POST",
        PATHS.createSchema,
        withUnknown(validSchema("poison"), "schema", nested(4_390)),
      ),
      422,
    );
    await expectErrorBody(
      await s.call("PUT", PATHS.clusteringRules, withUnknown(validRules(), "rules", nested(4_390))),
      422,
    );
    expect((await s.call("GET", PATHS.createSchema)).status).toBe(200);
    expect((await s.call("GET", `${PATHS.createSchema}/poison`)).status).toBe(404);
  });

  it("a database already holding such values (written before the bound) still reads back, verbatim", async () => {
    const dir = mkdtempSync(join(tmpdir(), "idp-poison-"));
    const db = join(dir, "provider.sqlite");
    try {
      const first = await startProvider({ db });
      await first.call("POST", PATHS.createSchema, JSON.stringify(validSchema("old")));
      await first.call("PUT", PATHS.clusteringRules, JSON.stringify(validRules()));
      await first.provider.close();
      // What an older provider stored: 4,390 levels (JSON.stringify of it throws at ~4,450).
      const deep = `{"name":"old","fields":[],"permissions":{"write_protected":false,"read_protected":false},"x":${nested(4_390)}}`;
      const raw = new DatabaseSync(db);
      raw.prepare("UPDATE schemas SET document = ? WHERE name = 'old'").run(deep);
      raw.prepare("UPDATE clustering_rules SET document = ?").run(`{"x":${nested(9_000)}}`);
      raw.close();

      const again = await startProvider({ db });
      try {
        const list = await again.call("GET", PATHS.createSchema);
        expect(list.status).toBe(200);
        expect(await list.text()).toBe(`{"schemas":[${deep}]}`);
        const one = await again.call("GET", `${PATHS.createSchema}/old`);
        expect(await one.text()).toBe(`{"schema":${deep}}`);
        const rules = await again.call("GET", PATHS.clusteringRules);
        expect(rules.status).toBe(200);
        expect(await rules.text()).toBe(`{"rules":{"x":${nested(9_000)}}}`);
      } finally {
        await again.provider.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a listing is streamed page by page (no Content-Length), whole and in name order", async () => {
    // 20 schemas of 700 KB: 14 MB, read in pages of 16. (Built as one string, 600 schemas of
    // 1 MiB would pass V8's 512 MiB string limit and fail every later listing.)
    const fresh = await startProvider();
    try {
      const padding = "p".repeat(700_000);
      for (let i = 0; i < 20; i++) {
        const body = validSchema(`big-${String(i).padStart(2, "0")}`);
        (body.schema as Record<string, unknown>).padding = padding;
        expect((await fresh.call("POST", PATHS.createSchema, JSON.stringify(body))).status).toBe(
          201,
        );
      }
      const list = await fresh.call("GET", PATHS.createSchema);
      expect(list.headers.get("content-length")).toBeNull();
      const names = ((await list.json()) as { schemas: { name: string }[] }).schemas.map(
        (x) => x.name,
      );
      expect(names).toEqual(
        Array.from({ length: 20 }, (_, i) => `big-${String(i).padStart(2, "0")}`),
      );
    } finally {
      await fresh.provider.close();
    }
  });
});

describe("finding: answers without the error body", () => {
  it("Expect: x is ignored (RFC 9110 §10.1.1), not 417: the operation answers", async () => {
    const body = JSON.stringify(validSchema("expect-x"));
    const answer = await rawRequest(
      port,
      request(`${authed("POST /v1/marketing/datastore/schemas HTTP/1.1")}\r\nExpect: x`, body),
      { waitMs: 20_000, untilAnswer: true },
    );
    expect(answer.status).toBe(201);
    const unauthenticated = await rawRequest(
      port,
      request("POST /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a\r\nExpect: x", body),
      { waitMs: 20_000, untilAnswer: true },
    );
    expectRawErrorBody(unauthenticated, 401);
  });

  it.each([
    ["no Host on HTTP/1.1", "GET /v1/marketing/datastore/schemas HTTP/1.1\r\n\r\n", "needs a Host"],
    [
      "an empty Host",
      "GET /v1/marketing/datastore/schemas HTTP/1.1\r\nHost:\r\n\r\n",
      "not a valid host",
    ],
    [
      "an invalid Host",
      "GET /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a b\r\n\r\n",
      "not a valid host",
    ],
    [
      "a Host with a path",
      "GET /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a/b\r\n\r\n",
      "not a valid host",
    ],
    [
      "two Host headers",
      "GET /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
      "one Host header",
    ],
    ["OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", "request target"],
    ["a backslash in the path", "GET /v1\\marketing HTTP/1.1\r\nHost: a\r\n\r\n", "request target"],
    ["malformed HTTP", "GARBAGE\r\n\r\n", "not valid HTTP/1.1"],
    [
      "a bad Content-Length",
      "POST /v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n",
      "not valid HTTP/1.1",
    ],
    [
      "Content-Length with chunked",
      "POST /v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "not valid HTTP/1.1",
    ],
  ])("%s gets 400 with the error body", async (_, bytes, says) => {
    const error = expectRawErrorBody(
      await rawRequest(port, bytes, { waitMs: 20_000, untilAnswer: true }),
      400,
    );
    expect(error.error_description).toContain(says);
  });

  it("headers over 16 KiB get 431 with the error body", async () => {
    const bytes = `GET /v1 HTTP/1.1\r\nHost: a\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`;
    expectRawErrorBody(await rawRequest(port, bytes), 431);
  });

  it("HTTP/1.0 without Host is served (Host is optional before 1.1), with the error body on 401", async () => {
    const answer = await rawRequest(port, "GET /v1/marketing/datastore/schemas HTTP/1.0\r\n\r\n");
    expectRawErrorBody(answer, 401);
    expect(answer.closed).toBe(true);
    const served = await rawRequest(
      port,
      `GET /v1/marketing/datastore/schemas HTTP/1.0\r\nAuthorization: ${GOOD_AUTH}\r\n\r\n`,
    );
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body)).toHaveProperty("schemas");
  });

  it("CONNECT gets 405 with the error body instead of a dropped connection", async () => {
    const answer = await rawRequest(
      port,
      "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
    );
    const error = expectRawErrorBody(answer, 405);
    expect(error.error_description).toContain("not a proxy");
    expect(answer.closed).toBe(true);
  });

  it.each([
    ["create schema", "POST /v1/marketing/datastore/schemas", 400],
    ["push", `POST /v1/marketing/push_notifications/login/users/${MEMBER}/publish`, 400],
    ["clustering rules (no 400 documented)", "PUT /v1/marketing/login/apps/clustering/rules", 422],
  ])(
    "a malformed chunked body of %s gets the operation's pinned status",
    async (_, line, status) => {
      const bytes = `${authed(`${line} HTTP/1.1`)}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`;
      const error = expectRawErrorBody(await rawRequest(port, bytes), status);
      expect(error.error_description).toContain("framing");
    },
  );

  it("a malformed request pipelined behind a good one: the good one is answered first", async () => {
    const answer = await rawRequest(
      port,
      `${authed("GET /v1/marketing/datastore/schemas HTTP/1.1")}\r\n\r\nGARBAGE\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(answer.raw).toMatch(/HTTP\/1\.1 400 Bad Request\r\n[\s\S]*"error":"invalid_request"/);
  });

  it("HEAD is the one exception: the error's headers, no body (RFC 9110 §9.3.2)", async () => {
    const answer = await rawRequest(
      port,
      "HEAD /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    );
    expect(answer.status).toBe(401);
    expect(answer.headers["content-type"]).toMatch(/^application\/json\b/);
    expect(answer.raw.slice(answer.raw.indexOf("\r\n\r\n") + 4)).toBe("");
  });
});

describe("finding: limits not as documented (short limits here; defaults measured by a script)", () => {
  it("the default limits are the documented ones, checked often enough to hold within a second", () => {
    expect(SERVER_LIMITS).toMatchObject({ headersTimeoutMs: 10_000, bodyTimeoutMs: 30_000 });
    expect(SERVER_LIMITS.checkIntervalMs).toBeLessThanOrEqual(1_000);
    expect(() =>
      createProvider({
        credentials: { username: "u", password: "p" },
        limits: { bodyTimeoutMs: 0 },
      }),
    ).toThrow("limits.bodyTimeoutMs must be a positive integer, got 0");
  });

  it.each([
    ["nothing at all", ""],
    ["headers that never end", "GET /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a\r\n"],
  ])("%s: 408 with the error body once the headers limit has passed", async (_, bytes) => {
    const answer = await rawRequest(port, bytes, bytes === "" ? {} : { drip: "X-Slow: 1\r\n" });
    const error = expectRawErrorBody(answer, 408);
    expect(error.error_description).toContain("headers");
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 20);
    expect(answer.elapsedMs).toBeLessThan(LIMITS.headersTimeoutMs + 3_000);
  });

  it.each([
    ["create schema", "POST /v1/marketing/datastore/schemas", 400],
    ["push", `POST /v1/marketing/push_notifications/login/users/${MEMBER}/publish`, 400],
    ["clustering rules", "PUT /v1/marketing/login/apps/clustering/rules", 422],
  ])(
    "a body slower than the body limit (%s): the operation's pinned status, not 408",
    async (_, line, status) => {
      const bytes = `${authed(`${line} HTTP/1.1`)}\r\nContent-Length: 100000\r\n\r\n{`;
      const answer = await rawRequest(port, bytes, { drip: " " });
      const error = expectRawErrorBody(answer, status);
      expect(error.error_description).toContain("did not arrive within 0.9 s");
      expect(answer.closed).toBe(true);
      expect(answer.elapsedMs).toBeGreaterThanOrEqual(LIMITS.bodyTimeoutMs - 20);
      expect(answer.elapsedMs).toBeLessThan(LIMITS.bodyTimeoutMs + 3_000);
    },
  );

  it("a body nobody reads (GET) still trickling after its answer: closed, with no second answer", async () => {
    const bytes = `${authed("GET /v1/marketing/datastore/schemas HTTP/1.1")}\r\nContent-Length: 100000\r\n\r\n{`;
    const answer = await rawRequest(port, bytes, { drip: " ", waitMs: 10_000 });
    expect(answer.status).toBe(200);
    expect(answer.closed).toBe(true);
    expect(answer.raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});

describe("found on the way: bodies whose violations are too many to list", () => {
  const rulesWithLabels = (key: string, labels: number) =>
    `{"rules":{"parameters":{"excluded_words":[]},"features":{${JSON.stringify(key)}:{"classifier":{"type":"likes","categories":[],"threshold":0},"labels":[${Array(labels).fill("1").join(",")}]}}}}`;

  it(`lists the first ${MAX_LISTED_VIOLATIONS} violations and counts the rest`, async () => {
    const fields = Array(1_000).fill("1").join(",");
    const body = `{"schema":{"name":"n","permissions":{"write_protected":false,"read_protected":false},"fields":[${fields}]}}`;
    const error = await expectErrorBody(await s.call("POST", PATHS.createSchema, body), 422);
    expect(error.errors).toHaveLength(MAX_LISTED_VIOLATIONS + 1);
    expect(error.errors.at(-1)).toBe(`... and ${1_000 - MAX_LISTED_VIOLATIONS} more violations`);
  });

  it("a 100 KB feature key above 100,000 wrong labels: 422 with short messages (was 10 GB of them)", async () => {
    const response = await s.call(
      "PUT",
      PATHS.clusteringRules,
      rulesWithLabels("k".repeat(100_000), 100_000),
    );
    const text = await response.text();
    expect(text.length).toBeLessThan(200_000);
    const error = await expectErrorBody(
      new Response(text, { status: response.status, headers: response.headers }),
      422,
    );
    expect(error.error_description).toMatch(
      /^the request body is invalid: rules\.features\.k{32}…#1\.labels\[0\]/,
    );
  });

  it("more violations under one feature than zod can collect (its push(...issues) overflows): 422", async () => {
    const error = await expectErrorBody(
      await s.call("PUT", PATHS.clusteringRules, rulesWithLabels("f", 400_000)),
      422,
    );
    expect(error.error_description).toContain("more wrong-typed values than can be listed");
  });
});

describe("finding: credentials on the command line", () => {
  it("both READMEs start the provider with IDP_USERNAME / IDP_PASSWORD, not --password", () => {
    // The CLI reading them is tested in src/config.test.ts and, built, in durability.test.ts.
    for (const file of ["../README.md", "../../../README.md"]) {
      const text = readFileSync(fileURLToPath(new URL(file, import.meta.url)), "utf8");
      const first = text.split("\n").find((line) => line.includes("--filter @idp/provider start"));
      expect(first, file).toMatch(
        /IDP_USERNAME=\S+ IDP_PASSWORD=\S+ pnpm --filter @idp\/provider start/,
      );
      expect(first, file).not.toContain("--password");
    }
  });
});
