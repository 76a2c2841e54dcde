// my-backend's consumer pact with the IDP, recorded with @idp/pact-consumer's builders.
import { idpInteraction, PACT_WRONG_CREDENTIALS } from "@idp/pact-consumer";
import { PactV4 } from "@pact-foundation/pact";
import { describe, expect, it } from "vitest";
import { MyIdpClient } from "../src/idp-client.ts";
import { orderShippedPush, ordersSchema } from "../src/payloads.ts";

const pact = new PactV4({ consumer: "my-backend", provider: "idp-service", dir: "pacts" });
const push = orderShippedPush({ orderId: "A-1", carrier: "DHL", vibrateSeconds: 3, unread: 2 });
const client = (url: string) => new MyIdpClient(url, "any-user", "any-password");
const wrongClient = (url: string) =>
  new MyIdpClient(url, PACT_WRONG_CREDENTIALS.username, PACT_WRONG_CREDENTIALS.password);

describe("push to user devices", () => {
  it("200", () =>
    idpInteraction(pact, "pushToUserDevices", 200, { body: push, id: "u-1" }).executeTest(
      async (mock) => expect(await client(mock.url).push("u-1", push)).toBe(200),
    ));
  it("403", () =>
    idpInteraction(pact, "pushToUserDevices", 403, { body: push, id: "u-2" }).executeTest(
      async (mock) => expect(await client(mock.url).push("u-2", push)).toBe(403),
    ));
  it("404", () =>
    idpInteraction(pact, "pushToUserDevices", 404, { body: push, id: "u-3" }).executeTest(
      async (mock) => expect(await client(mock.url).push("u-3", push)).toBe(404),
    ));
  // Another order's push for the same cell: recorded under a description of its own.
  it("200 for a second user", () =>
    idpInteraction(pact, "pushToUserDevices", 200, {
      body: push,
      id: "u-4",
      // biome-ignore lint/suspicious/noUndeclaredEnvVars: the smoke's planted bug (src/payloads.ts)
      ...(process.env.PLANT_BUG === "duplicate"
        ? {}
        : { description: "push to user devices: 200 for a second login user" }),
    }).executeTest(async (mock) => expect(await client(mock.url).push("u-4", push)).toBe(200)));
  it("401", () =>
    idpInteraction(pact, "pushToUserDevices", 401, { body: push, id: "u-1" }).executeTest(
      async (mock) => expect(await wrongClient(mock.url).push("u-1", push)).toBe(401),
    ));
});

describe("create schema", () => {
  it("201", () => {
    const body = ordersSchema("orders");
    return idpInteraction(pact, "createSchema", 201, { body }).executeTest(async (mock) =>
      expect(await client(mock.url).createSchema(body)).toBe(201),
    );
  });
  it("422", () => {
    const body = { schema: { ...ordersSchema("orders").schema, fields: "order_id" } };
    return idpInteraction(pact, "createSchema", 422, { body }).executeTest(async (mock) =>
      expect(await client(mock.url).createSchema(body as never)).toBe(422),
    );
  });
});
