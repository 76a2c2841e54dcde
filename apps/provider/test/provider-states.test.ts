import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../src/index.ts";
import { expectErrorBody, PATHS, type Started, startProvider, validPush } from "./helpers.ts";

let s: Started;
beforeAll(async () => {
  s = await startProvider({ providerStates: true });
});
afterAll(() => s.provider.close());

const change = (body: unknown) =>
  fetch(s.providerStatesUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const push = (id: string) => s.call("POST", PATHS.push(id), JSON.stringify(validPush()));

describe("Pact state change (conformance.md §4)", () => {
  it("lists exactly the four state names (extension: GET)", async () => {
    const response = await fetch(s.providerStatesUrl);
    const { states } = (await response.json()) as { states: { name: string }[] };
    expect(states.map((x) => x.name)).toEqual([
      "a login user exists",
      "no login user exists",
      "a login user of another login app exists",
      "no schema with this name exists",
    ]);
  });

  it("removes a schema of that name for 'no schema with this name exists'", async () => {
    const name = "state-schema-1";
    const body = JSON.stringify({
      schema: { name, fields: [], permissions: { write_protected: false, read_protected: false } },
    });
    expect((await s.call("POST", PATHS.createSchema, body)).status).toBe(201);
    expect((await s.call("GET", `${PATHS.createSchema}/${name}`)).status).toBe(200);
    const setup = await change({
      state: "no schema with this name exists",
      params: { name },
      action: "setup",
    });
    expect(setup.status).toBe(200);
    expect((await s.call("GET", `${PATHS.createSchema}/${name}`)).status).toBe(404);
    // Idempotent: no schema of that name is the state already.
    expect(
      (await change({ state: "no schema with this name exists", params: { name } })).status,
    ).toBe(200);
    await expectErrorBody(
      await change({ state: "no schema with this name exists", params: { id: name } }),
      400,
    );
  });

  it("sets up and tears down each state, observed through push", async () => {
    const id = "state-user-1";
    expect(
      (await change({ state: "a login user exists", params: { id }, action: "setup" })).status,
    ).toBe(200);
    expect((await push(id)).status).toBe(200);
    await change({ state: "a login user exists", params: { id }, action: "teardown" });
    expect((await push(id)).status).toBe(404);

    // `action` defaults to setup, as in Pact.
    expect(
      (await change({ state: "a login user of another login app exists", params: { id } })).status,
    ).toBe(200);
    expect((await push(id)).status).toBe(403);

    expect((await change({ state: "no login user exists", params: { id } })).status).toBe(200);
    expect((await push(id)).status).toBe(404);
  });

  it("accepts a numeric id as its string", async () => {
    await change({ state: "a login user exists", params: { id: 7 } });
    expect((await push("7")).status).toBe(200);
  });

  it("treats the empty state (sent by Pact for stateless interactions) as a no-op", async () => {
    const response = await change({ state: "", action: "setup" });
    expect(response.status).toBe(200);
    expect((await push("never-created")).status).toBe(404);
  });

  it("answers 400 naming an unknown state", async () => {
    const error = await expectErrorBody(
      await change({ state: "a user exists", params: { id: "1" } }),
      400,
    );
    expect(error.error).toBe(ERROR_CODES.unknownProviderState);
    expect(error.error_description).toContain('"a user exists"');
  });

  it.each([
    ["not JSON", "{"],
    ["no state", { params: { id: "1" } }],
    ["no id", { state: "a login user exists", params: {} }],
    ["an unknown action", { state: "a login user exists", params: { id: "1" }, action: "reset" }],
  ])("answers 400 to a state change with %s", async (_, body) => {
    await expectErrorBody(await change(body), 400);
  });
});
