// Property test of my-backend's payload builders against the IDP contracts.
import { fc, test } from "@fast-check/vitest";
import { assertValidRequestBody } from "@idp/contracts";
import { orderShippedPush, ordersSchema } from "../src/payloads.ts";

const shipped = fc.record({
  orderId: fc.string({ minLength: 1 }),
  carrier: fc.string(),
  vibrateSeconds: fc.integer({ min: 0, max: 30 }),
  unread: fc.nat(),
});

test.prop([shipped])("order-shipped pushes are valid push bodies", (e) => {
  assertValidRequestBody("pushToUserDevices", orderShippedPush(e));
});

test.prop([fc.string()])("orders schemas are valid create-schema bodies", (name) => {
  assertValidRequestBody("createSchema", ordersSchema(name));
});
