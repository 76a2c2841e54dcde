import { connect } from "node:net";
import { test } from "@fast-check/vitest";
import {
  neighbourPath,
  PINNED_NEIGHBOURS,
  rulesReadBackProblem,
  schemaReadBackProblem,
} from "@idp/contracts";
import { clusteringRulesArb, createSchemaRequestArb } from "@idp/generators";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../src/index.ts";
import {
  expectErrorBody,
  expectNoBody,
  PATHS,
  type Started,
  startProvider,
  validRules,
  validSchema,
} from "./helpers.ts";

// The neighbours: GET and DELETE of one schema and GET of the clustering rules as conformance.md §8
// pins them; the listing and PUT of a schema assumed; and the answers outside the operations.

let s: Started;
beforeAll(async () => {
  s = await startProvider();
});
afterAll(() => s.provider.close());

const one = (name: string) => `${PATHS.createSchema}/${encodeURIComponent(name)}`;

describe("the neighbours as conformance.md §8 pins them", () => {
  const onePinned = (name: string) => neighbourPath(PINNED_NEIGHBOURS.getSchema, name);
  test.prop([createSchemaRequestArb({ maxLength: 4 })], { numRuns: 40 })(
    "reads back every created schema as R9 asks (valid bodies from @idp/generators)",
    async (body) => {
      const created = await s.call("POST", PATHS.createSchema, JSON.stringify(body));
      expect(created.status).toBe(201);
      if (!["", ".", ".."].includes(body.schema.name)) {
        const read = await s.call("GET", onePinned(body.schema.name));
        const text = await read.text();
        const answer = {
          status: read.status,
          contentType: read.headers.get("content-type") ?? undefined,
          body: text,
        };
        expect(schemaReadBackProblem(body.schema, answer)?.message).toBeUndefined();
      }
    },
  );

  test.prop([clusteringRulesArb({ maxLength: 3 })], { numRuns: 30 })(
    "reads back the clustering rules last updated as R9 asks",
    async (body) => {
      expect((await s.call("PUT", PATHS.clusteringRules, JSON.stringify(body))).status).toBe(200);
      const read = await s.call(
        PINNED_NEIGHBOURS.getClusteringRules.method,
        PINNED_NEIGHBOURS.getClusteringRules.path,
      );
      const answer = {
        status: read.status,
        contentType: read.headers.get("content-type") ?? undefined,
        body: await read.text(),
      };
      expect(rulesReadBackProblem(body.rules, answer)?.message).toBeUndefined();
    },
  );
});

describe("schemas (GET and DELETE of one as §8 pins them; the listing and PUT assumed)", () => {
  it("reads back a created schema, unknown keys included", async () => {
    const created = validSchema("orders");
    (created.schema as Record<string, unknown>).note = "kept";
    await expectNoBody(await s.call("POST", PATHS.createSchema, JSON.stringify(created)), 201);
    const response = await s.call("GET", one("orders"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(created);
  });

  it("lists, updates and deletes", async () => {
    await s.call("POST", PATHS.createSchema, JSON.stringify(validSchema("a/b é")));
    const list = (await (await s.call("GET", PATHS.createSchema)).json()) as {
      schemas: { name: string }[];
    };
    expect(list.schemas.map((x) => x.name)).toContain("a/b é");

    const changed = validSchema("ignored-name");
    changed.schema.fields = [];
    await expectNoBody(await s.call("PUT", one("a/b é"), JSON.stringify(changed)), 200);
    const read = (await (await s.call("GET", one("a/b é"))).json()) as {
      schema: { name: string; fields: unknown[] };
    };
    expect(read.schema).toMatchObject({ name: "a/b é", fields: [] });

    const removed = await s.call("DELETE", one("a/b é"));
    expect(removed.status).toBe(200); // conformance.md §8: 200, no body
    expect(await removed.text()).toBe("");
    await expectErrorBody(await s.call("GET", one("a/b é")), 404);
    await expectErrorBody(await s.call("DELETE", one("a/b é")), 404);
  });

  it("answers a second create with the same name 201 and keeps the latest", async () => {
    const first = validSchema("twice");
    const second = validSchema("twice");
    second.schema.permissions.write_protected = true;
    await expectNoBody(await s.call("POST", PATHS.createSchema, JSON.stringify(first)), 201);
    await expectNoBody(await s.call("POST", PATHS.createSchema, JSON.stringify(second)), 201);
    expect(await (await s.call("GET", one("twice"))).json()).toEqual(second);
  });

  it("answers 404 to an update of an unknown schema, after checking the body", async () => {
    await expectErrorBody(await s.call("PUT", one("nope"), JSON.stringify(validSchema())), 404);
    await expectErrorBody(await s.call("PUT", one("nope"), "{"), 400);
  });

  it("requires credentials", async () => {
    await expectErrorBody(await s.call("GET", PATHS.createSchema, undefined, null), 401);
    await expectErrorBody(await s.call("DELETE", one("x"), undefined, null), 401);
  });
});

describe("clustering rules GET (conformance.md §8: the PUT's path)", () => {
  it("answers 404 before any PUT, then returns what was PUT, marked deprecated", async () => {
    const fresh = await startProvider();
    try {
      await expectErrorBody(await fresh.call("GET", PATHS.clusteringRules), 404);
      await fresh.call("PUT", PATHS.clusteringRules, JSON.stringify(validRules()));
      const response = await fresh.call("GET", PATHS.clusteringRules);
      expect(response.status).toBe(200);
      expect(response.headers.get("deprecation")).toMatch(/^@\d+$/);
      expect(await response.json()).toEqual(validRules());
    } finally {
      await fresh.provider.close();
    }
  });
});

describe("outside the operations", () => {
  it("answers 404 with the error body to an unknown path", async () => {
    const error = await expectErrorBody(await s.call("GET", "/marketing/nothing-here"), 404);
    expect(error.error).toBe(ERROR_CODES.notFound);
    await expectErrorBody(await fetch(s.baseUrl.replace(/\/v1$/, "/elsewhere")), 404);
  });

  it("authenticates before routing under /v1", async () => {
    await expectErrorBody(await s.call("GET", "/marketing/nothing-here", undefined, null), 401);
  });

  it.each([
    ["PATCH", PATHS.createSchema, "GET, POST"],
    ["GET", PATHS.push("x"), "POST"],
    ["DELETE", PATHS.clusteringRules, "GET, PUT"],
  ])("answers 405 with Allow to %s %s", async (method, path, allow) => {
    const response = await s.call(method, path);
    expect(response.headers.get("allow")).toBe(allow);
    const error = await expectErrorBody(response, 405);
    expect(error.error).toBe(ERROR_CODES.methodNotAllowed);
  });

  it("does not serve provider states unless enabled", async () => {
    const response = await fetch(s.providerStatesUrl, {
      method: "POST",
      body: JSON.stringify({ state: "a login user exists", params: { id: "1" } }),
    });
    await expectErrorBody(response, 404);
  });

  it("answers in-process through fetch(), without a socket", async () => {
    const response = await s.provider.fetch(new Request(`http://in-process${PATHS.createSchema}`));
    await expectErrorBody(response, 404); // not under /v1
  });

  it.each([
    ["malformed HTTP", "GARBAGE\r\n\r\n", 400],
    [
      "headers over 16 KiB",
      `GET /v1 HTTP/1.1\r\nHost: a\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
    ],
  ])("answers %s below the app with the error body", async (_, text, status) => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(s.baseUrl).port), "127.0.0.1", () =>
        socket.write(text),
      );
      let out = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
      });
      socket.on("close", () => resolve(out));
      socket.on("error", reject);
    });
    expect(answer.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({
      error: expect.any(String),
      errors: [expect.any(String)],
    });
  });
});
