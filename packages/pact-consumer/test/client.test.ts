import { fc, test } from "@fast-check/vitest";
import { AUTHENTICATION_FAILED, detailedOperations } from "@idp/contracts";
import { describe, expect, it, vi } from "vitest";
import {
  IdpApiError,
  IdpClient,
  IdpProtocolError,
  PACT_PLACEHOLDER_AUTHORIZATION,
  PACT_PLACEHOLDER_CREDENTIALS,
} from "../src/index.ts";
import {
  exampleClusteringRules,
  exampleCreateSchemaRequest,
  exampleUserPublishRequest,
} from "./support/examples.ts";

interface Seen {
  url: string;
  method: string | undefined;
  headers: Headers;
  body: string;
}

/** A fetch double that records the request and answers with `status` and `body`. */
function fakeFetch(status: number, body = "", contentType = "application/json") {
  const seen: Seen[] = [];
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    seen.push({
      url: String(input),
      method: init?.method,
      headers: new Headers(init?.headers),
      body: String(init?.body),
    });
    return new Response(body === "" ? null : body, {
      status,
      headers: body === "" ? {} : { "content-type": contentType },
    });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, seen };
}

const BASE = "https://idp.example/api/v1";
const errorJson = (error: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ error, error_description: `about ${error}`, errors: ["e1", "e2"], ...extra });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the call to reject"),
    (e: unknown) => e,
  );
}

describe("IdpClient requests", () => {
  it("sends Basic credentials, JSON and the operation path appended to the base URL", async () => {
    const { fetch, seen } = fakeFetch(201);
    const client = new IdpClient({ baseUrl: `${BASE}/`, ...PACT_PLACEHOLDER_CREDENTIALS, fetch });
    const body = exampleCreateSchemaRequest();
    await expect(client.createSchema(body)).resolves.toBeUndefined();
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.url).toBe(`${BASE}/marketing/datastore/schemas`);
    expect(request?.method).toBe("POST");
    expect(request?.headers.get("authorization")).toBe(PACT_PLACEHOLDER_AUTHORIZATION);
    expect(request?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual(body);
  });

  it("uses each operation's method, path and success status", async () => {
    const push = fakeFetch(200);
    await new IdpClient({
      baseUrl: BASE,
      fetch: push.fetch,
      username: "u",
      password: "p",
    }).pushToUserDevices("a/b c", exampleUserPublishRequest());
    expect(push.seen[0]?.method).toBe("POST");
    expect(push.seen[0]?.url).toBe(
      `${BASE}/marketing/push_notifications/login/users/a%2Fb%20c/publish`,
    );

    const rules = fakeFetch(200);
    await new IdpClient({
      baseUrl: BASE,
      fetch: rules.fetch,
      username: "u",
      password: "p",
      onDeprecation: () => {},
    }).updateClusteringRules(exampleClusteringRules());
    expect(rules.seen[0]?.method).toBe("PUT");
    expect(rules.seen[0]?.url).toBe(`${BASE}/marketing/login/apps/clustering/rules`);
  });

  it("sends no Authorization header without credentials, and refuses half of a credential", async () => {
    const { fetch, seen } = fakeFetch(201);
    await new IdpClient({ baseUrl: BASE, fetch }).createSchema(exampleCreateSchemaRequest());
    expect(seen[0]?.headers.has("authorization")).toBe(false);
    expect(() => new IdpClient({ baseUrl: BASE, username: "only-user" })).toThrow(TypeError);
  });

  it("rejects a base URL with credentials without echoing them", () => {
    const build = () => new IdpClient({ baseUrl: "https://u:s3cret@idp.example/v1" });
    expect(build).toThrow(/must not contain credentials/);
    expect(build).not.toThrow(/s3cret/);
  });

  it("ignores a body on a success answer (R8 is the provider's rule, not a client failure)", async () => {
    const { fetch } = fakeFetch(201, "{}");
    const client = new IdpClient({ baseUrl: BASE, fetch });
    await expect(client.createSchema(exampleCreateSchemaRequest())).resolves.toBeUndefined();
  });
});

describe("IdpClient errors", () => {
  it("turns a documented error status into IdpApiError with the body's fields", async () => {
    const { fetch } = fakeFetch(401, errorJson(AUTHENTICATION_FAILED, { trace: "t-1" }));
    const client = new IdpClient({ baseUrl: BASE, fetch, username: "u", password: "wrong" });
    const error = await rejection(client.createSchema(exampleCreateSchemaRequest()));
    expect(error).toBeInstanceOf(IdpApiError);
    expect(error).toMatchObject({
      code: "E_API_ERROR",
      operation: "createSchema",
      status: 401,
      error: AUTHENTICATION_FAILED,
      error_description: `about ${AUTHENTICATION_FAILED}`,
      errors: ["e1", "e2"],
      body: { trace: "t-1" },
    });
    expect((error as Error).message).toContain("401 authentication_failed");
  });

  it.each([
    ["createSchema", 403],
    ["createSchema", 200],
    ["pushToUserDevices", 422],
    ["pushToUserDevices", 201],
    ["updateClusteringRules", 400],
    ["updateClusteringRules", 418],
  ] as const)("%s: status %i is undocumented -> E_UNDOCUMENTED_STATUS", async (op, status) => {
    const { fetch } = fakeFetch(status, errorJson("x"));
    const client = new IdpClient({ baseUrl: BASE, fetch, onDeprecation: () => {} });
    const error = await rejection(call(client, op));
    expect(error).toBeInstanceOf(IdpProtocolError);
    expect(error).toMatchObject({ code: "E_UNDOCUMENTED_STATUS", operation: op, status });
    const expected = detailedOperations[op].documentedStatuses.join(", ");
    expect((error as Error).message).toContain(`Expected: one of ${expected}`);
    expect((error as Error).message).toContain(`Received: ${status}`);
  });

  it.each([
    ["not JSON", "<html>oops</html>", "text/html"],
    ["empty", "", "application/json"],
    ["missing errors", JSON.stringify({ error: "x", error_description: "y" }), "application/json"],
    [
      "errors not strings",
      JSON.stringify({ error: "x", error_description: "y", errors: [1] }),
      "application/json",
    ],
  ])("an error body that is %s -> E_INVALID_ERROR_BODY", async (_, body, contentType) => {
    const { fetch } = fakeFetch(422, body, contentType);
    const client = new IdpClient({ baseUrl: BASE, fetch });
    const error = await rejection(client.createSchema(exampleCreateSchemaRequest()));
    expect(error).toBeInstanceOf(IdpProtocolError);
    expect(error).toMatchObject({ code: "E_INVALID_ERROR_BODY", status: 422 });
    expect((error as Error).message).toMatch(/Expected: .*error/);
  });

  it("wraps a network failure as E_NETWORK with the cause", async () => {
    const cause = new TypeError("fetch failed");
    const fetch = vi.fn(async () => {
      throw cause;
    }) as unknown as typeof globalThis.fetch;
    const error = await rejection(
      new IdpClient({ baseUrl: BASE, fetch }).createSchema(exampleCreateSchemaRequest()),
    );
    expect(error).toMatchObject({ code: "E_NETWORK", status: undefined, cause });
  });

  it("never puts the credential into an error message, even when the service echoes it", async () => {
    const password = "pa55-Word-in-echo";
    const token = Buffer.from(`user:${password}`).toString("base64");
    const echo = JSON.stringify({
      error: "bad_request",
      error_description: `got Basic ${token} / ${password}`,
      errors: [],
    });
    for (const [status, body] of [
      [400, echo],
      [418, echo],
      [422, `not json ${password} ${token}`],
    ] as const) {
      const { fetch } = fakeFetch(status, body);
      const client = new IdpClient({ baseUrl: BASE, fetch, username: "user", password });
      const error = await rejection(client.createSchema(exampleCreateSchemaRequest()));
      expect((error as Error).message).not.toContain(password);
      expect((error as Error).message).not.toContain(token);
      expect((error as Error).message).toContain("[redacted]");
    }
  });

  test.prop(
    [
      fc.constantFrom(
        ...detailedOperations.pushToUserDevices.documentedStatuses.filter((s) => s >= 400),
      ),
      fc.record({
        error: fc.string(),
        error_description: fc.string(),
        errors: fc.array(fc.string()),
      }),
    ],
    { numRuns: 50 },
  )(
    "any conforming error body of a documented status is carried as it is",
    async (status, body) => {
      const { fetch } = fakeFetch(status, JSON.stringify(body));
      const client = new IdpClient({ baseUrl: BASE, fetch });
      const error = await rejection(client.pushToUserDevices("id", exampleUserPublishRequest()));
      expect(error).toBeInstanceOf(IdpApiError);
      expect(error).toMatchObject({ status, ...body });
    },
  );
});

describe("deprecation", () => {
  it("calls onDeprecation once per client for the clustering rules operation", async () => {
    const onDeprecation = vi.fn();
    const { fetch } = fakeFetch(200);
    const client = new IdpClient({ baseUrl: BASE, fetch, onDeprecation });
    await client.updateClusteringRules(exampleClusteringRules());
    await client.updateClusteringRules(exampleClusteringRules());
    await client.createSchema(exampleCreateSchemaRequest()).catch(() => {});
    expect(onDeprecation).toHaveBeenCalledTimes(1);
    expect(onDeprecation.mock.calls[0]?.[0]).toMatch(/deprecated since 2024-12-31/);
  });

  it("emits one process DeprecationWarning by default", async () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const { fetch } = fakeFetch(200);
    await new IdpClient({ baseUrl: BASE, fetch }).updateClusteringRules(exampleClusteringRules());
    await new IdpClient({ baseUrl: BASE, fetch }).updateClusteringRules(exampleClusteringRules());
    expect(emit).toHaveBeenCalledTimes(1);
    expect(emit.mock.calls[0]?.[1]).toMatchObject({ type: "DeprecationWarning" });
  });
});

function call(client: IdpClient, op: keyof typeof detailedOperations): Promise<void> {
  switch (op) {
    case "createSchema":
      return client.createSchema(exampleCreateSchemaRequest());
    case "pushToUserDevices":
      return client.pushToUserDevices("id", exampleUserPublishRequest());
    case "updateClusteringRules":
      return client.updateClusteringRules(exampleClusteringRules());
  }
}
