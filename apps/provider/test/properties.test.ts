import { fc, test } from "@fast-check/vitest";
import { AUTHENTICATION_FAILED, DETAILED_OPERATION_IDS, detailedOperations } from "@idp/contracts";
import { invalidBodyArb, requestBodyText, validBodyArb } from "@idp/generators";
import { binaryString } from "@idp/test-utils/arbitraries";
import { afterAll, beforeAll, describe, expect } from "vitest";
import {
  CREDENTIALS,
  expectErrorBody,
  GOOD_AUTH,
  PATHS,
  type Started,
  startProvider,
} from "./helpers.ts";

// R4-R6 as properties over real HTTP, with the payloads of @idp/generators (the seed is printed by
// the root vitest.setup.ts; replay a failure with FC_SEED=<seed>).

const MEMBER = "property-user";
let s: Started;
beforeAll(async () => {
  s = await startProvider({ seed: { loginUsers: [MEMBER] } });
});
afterAll(() => s.provider.close());

const pathOf = (id: (typeof DETAILED_OPERATION_IDS)[number]) =>
  id === "createSchema"
    ? PATHS.createSchema
    : id === "pushToUserDevices"
      ? PATHS.push(MEMBER)
      : PATHS.clusteringRules;

describe.each(DETAILED_OPERATION_IDS)("%s", (id) => {
  const op = detailedOperations[id];

  test.prop([validBodyArb(id)])(
    "every valid payload gets the success status, no body (R4, R8)",
    async (body) => {
      const response = await s.call(op.method, pathOf(id), JSON.stringify(body));
      expect({ status: response.status, text: await response.text() }).toEqual({
        status: op.successStatus,
        text: "",
      });
    },
  );

  test.prop([invalidBodyArb(id)])(
    "every invalid payload gets the pinned status and a parseable error body (R2, R5)",
    async (c) => {
      const response = await s.call(op.method, pathOf(id), requestBodyText(c));
      const error = await expectErrorBody(response, c.expectedStatus);
      expect(error.errors.length).toBeGreaterThan(0);
    },
  );

  test.prop([
    fc.oneof(fc.string(), fc.json(), fc.constantFrom("", "null", "{}", "[]", "\uFEFF{}")),
  ])("any body text gets a documented status and never a 5xx (R3, R6)", async (text) => {
    const response = await s.call(op.method, pathOf(id), text);
    await response.arrayBuffer();
    expect(op.documentedStatuses).toContain(response.status);
    expect(response.status).toBeLessThan(500);
  });
});

test.prop([binaryString()])(
  "any login user id gets 200 or 404, never a 5xx (R6, R7)",
  async (id) => {
    const response = await s.call(
      "POST",
      PATHS.push(id),
      JSON.stringify({
        data: {
          message: "m",
          title: "t",
          small_icon: "i",
          vibrate: false,
          vibrate_duration: 0,
          auto_cancel: false,
          big_style: false,
          activity_class: "a",
          badge: 0,
          sound: "s",
        },
      }),
    );
    await response.arrayBuffer();
    expect([200, 404]).toContain(response.status);
    if (response.status === 200) expect(id).toBe(MEMBER);
  },
);

test.prop([
  fc
    .oneof(
      fc.string().map((t) => `Basic ${t}`),
      fc
        .tuple(fc.string(), fc.string())
        .map(([u, p]) => `Basic ${Buffer.from(`${u}:${p}`).toString("base64")}`),
      fc.string(),
    )
    .filter((h) => h !== GOOD_AUTH && /^[\t\x20-\x7e]*$/.test(h) && h.trim() === h),
])("any other Authorization header gets 401 authentication_failed (R1)", async (authorization) => {
  const response = await s.call("POST", PATHS.createSchema, "{", authorization);
  const error = await expectErrorBody(response, 401);
  expect(error.error).toBe(AUTHENTICATION_FAILED);
  expect(JSON.stringify(error)).not.toContain(CREDENTIALS.password);
});
