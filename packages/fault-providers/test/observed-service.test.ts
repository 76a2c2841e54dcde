// The observed-service reading (issue 13): a provider written to the service's public developer
// documentation, where it differs from conformance.md's default reading.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OBSERVED_FIELD_TYPES, type RunningProvider, startHandProvider } from "../src/index.ts";
import {
  CREDENTIALS,
  call,
  expectErrorBody,
  setState,
  validCreateSchema,
  validPush,
} from "./support.ts";

let observed: RunningProvider;
let conforming: RunningProvider;
beforeAll(async () => {
  observed = await startHandProvider({
    credentials: CREDENTIALS,
    reading: "observed-service",
    uniqueNames: true,
  });
  conforming = await startHandProvider({ credentials: CREDENTIALS, uniqueNames: true });
  for (const p of [observed, conforming]) {
    await setState(p.statesUrl, "a login user exists", { id: "user-1" });
    await setState(p.statesUrl, "a login user of another login app exists", { id: "other-1" });
  }
});
afterAll(async () => {
  await observed.close();
  await conforming.close();
});

const both = async (f: (p: RunningProvider) => Promise<unknown>) => ({
  observed: await f(observed),
  conforming: await f(conforming),
});
const pushWith = (data: object) => ({ data: { ...validPush().data, ...data } });

describe("push", () => {
  it("a wrong-type data field is 422 with an object per field (default reading: 400)", async () => {
    const r = await both(async (p) => {
      const a = await call(p.baseUrl, "pushToUserDevices", { body: pushWith({ badge: "1" }) });
      return { status: a.status, body: expectErrorBody(a, "strings-or-objects") };
    });
    expect(r.observed).toEqual({
      status: 422,
      body: {
        error: "unprocessable_entity",
        error_description: expect.any(String),
        errors: [{ attribute: "data.badge", message: "must be an integer", code: "invalid" }],
      },
    });
    expect(r.conforming).toMatchObject({
      status: 400,
      body: { errors: ["data.badge must be an integer"] },
    });
  });

  it("400 only when data is missing or not an object, or the body not JSON", async () => {
    for (const body of [{}, { data: [] }, "{", "[]"]) {
      const a = await call(observed.baseUrl, "pushToUserDevices", { body });
      expect(a.status, JSON.stringify(body)).toBe(400);
      expect(expectErrorBody(a, "strings-or-objects").error).toBe("bad_request");
    }
  });

  it("no 404: an id that is no user of this login app is 403 forbidden", async () => {
    const r = await both(
      async (p) => (await call(p.baseUrl, "pushToUserDevices", { id: "nobody" })).status,
    );
    expect(r).toEqual({ observed: 403, conforming: 404 });
    const other = await call(observed.baseUrl, "pushToUserDevices", { id: "other-1" });
    expect(other.status).toBe(403);
    expect(expectErrorBody(other).error).toBe("forbidden");
    expect((await call(observed.baseUrl, "pushToUserDevices")).status).toBe(200);
  });
});

describe("create schema", () => {
  it("a missing field is an object with code blank", async () => {
    const a = await call(observed.baseUrl, "createSchema", {
      body: { schema: { fields: [], permissions: {} } },
    });
    expect(a.status).toBe(422);
    expect(expectErrorBody(a, "strings-or-objects").errors).toEqual([
      { attribute: "schema.name", message: "can't be blank", code: "blank" },
      { attribute: "schema.permissions.write_protected", message: "can't be blank", code: "blank" },
      { attribute: "schema.permissions.read_protected", message: "can't be blank", code: "blank" },
    ]);
  });

  it("accepts the documented field types, refuses others (the default reading accepts any string)", async () => {
    for (const [i, type] of OBSERVED_FIELD_TYPES.entries()) {
      const body = validCreateSchema();
      body.schema.name = `types-${i}`;
      body.schema.fields = [{ name: "f", type, unique: false }];
      expect((await call(observed.baseUrl, "createSchema", { body })).status, type).toBe(201);
    }
    const body = validCreateSchema();
    body.schema.fields = [{ name: "f", type: "uuid", unique: false }];
    const r = await both(async (p) => {
      const a = await call(p.baseUrl, "createSchema", { body });
      return {
        status: a.status,
        errors: a.status === 201 ? [] : expectErrorBody(a, "strings-or-objects").errors,
      };
    });
    expect(r.observed).toEqual({
      status: 422,
      errors: [
        {
          attribute: "schema.fields[0].type",
          message: "is not included in the list",
          code: "inclusion",
        },
      ],
    });
    expect(r.conforming).toEqual({ status: 201, errors: [] });
  });

  it("a name held is 422 conflict", async () => {
    const body = validCreateSchema();
    body.schema.name = "held";
    await call(observed.baseUrl, "createSchema", { body });
    const a = await call(observed.baseUrl, "createSchema", { body });
    expect(a.status).toBe(422);
    expect(expectErrorBody(a, "strings-or-objects")).toMatchObject({
      error: "conflict",
      errors: [{ attribute: "schema.name", code: "taken" }],
    });
  });
});

describe("content type and credentials", () => {
  it("a non-JSON Content-Type is 406 not_acceptable (the default reading ignores it)", async () => {
    const r = await both(async (p) => {
      const a = await call(p.baseUrl, "updateClusteringRules", { contentType: "text/plain" });
      return { status: a.status, error: a.status === 200 ? undefined : expectErrorBody(a).error };
    });
    expect(r).toEqual({
      observed: { status: 406, error: "not_acceptable" },
      conforming: { status: 200, error: undefined },
    });
    for (const contentType of [
      null,
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/vnd.api+json",
    ])
      expect(
        (await call(observed.baseUrl, "updateClusteringRules", { contentType })).status,
        String(contentType),
      ).toBe(200);
  });

  it("keeps 401 authentication_failed, before the content type", async () => {
    const a = await call(observed.baseUrl, "createSchema", {
      auth: null,
      contentType: "text/plain",
    });
    expect(a.status).toBe(401);
    expect(expectErrorBody(a).error).toBe("authentication_failed");
  });
});
