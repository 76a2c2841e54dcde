import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  assertValidRequestBody,
  BodyAssertionError,
  findBodyProblem,
  type IdpBodyMatchers,
  idpBodyMatchers,
  strictProfile,
  type UserPublishRequest,
} from "../src/index.ts";
import { pushExample } from "./examples.ts";

expect.extend(idpBodyMatchers);
declare module "vitest" {
  interface Matchers<R, T> extends IdpBodyMatchers<R> {}
}

const push = pushExample as UserPublishRequest;
const withData = (patch: Record<string, unknown>) => ({ data: { ...push.data, ...patch } });
const failure = (fn: () => void): BodyAssertionError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof BodyAssertionError) return e;
    throw e;
  }
  throw new Error("expected a BodyAssertionError");
};

describe("assertValidRequestBody", () => {
  it("passes a valid body", () => {
    expect(() => assertValidRequestBody("pushToUserDevices", push)).not.toThrow();
  });

  test.prop([
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
  ])(
    "names the operation, the path, the received value, the rule, its source and the body",
    (fraction) => {
      const body = withData({ vibrate_duration: fraction });
      const e = failure(() => assertValidRequestBody("pushToUserDevices", body));
      expect(e.finding).toMatchObject({
        operation: "pushToUserDevices",
        outcome: "invalid",
        status: 400,
        kind: "wrong-type",
        path: "data.vibrate_duration",
        received: `${JSON.stringify(fraction)} (a fraction)`,
        expected: "an integer (a JSON number without a fraction)",
        source: { source: "spec" },
      });
      expect(e.message).toContain("pushToUserDevices body is invalid");
      expect(e.message).toContain(`at data.vibrate_duration: received ${JSON.stringify(fraction)}`);
      expect(e.message).toContain("rule: every tabulated field has its tabulated JSON type");
      expect(e.message).toContain(`body built: ${JSON.stringify(body)}`);
    },
  );

  it("fails on a missing field (unspecified) unless asked otherwise", () => {
    const { title: _title, ...data } = push.data;
    const e = failure(() => assertValidRequestBody("pushToUserDevices", { data }));
    expect(e.finding).toMatchObject({
      outcome: "unspecified",
      path: "data.title",
      received: "absent",
      source: { source: "pinned" },
    });
    expect(() =>
      assertValidRequestBody("pushToUserDevices", { data }, { allowUnspecified: true }),
    ).not.toThrow();
    // Under strict, the same body is invalid, and the profile is the source.
    const strict = failure(() =>
      assertValidRequestBody("pushToUserDevices", { data }, { profile: strictProfile }),
    );
    expect(strict.finding.outcome).toBe("invalid");
  });

  it("says what was expected once, without zod's own received part", () => {
    expect(findBodyProblem("pushToUserDevices", withData({ title: 1 }))).toMatchObject({
      received: "1 (an integer)",
      expected: "string",
    });
  });

  it("judges the body as sent: NaN is null on the wire, an undefined key is absent", () => {
    expect(findBodyProblem("pushToUserDevices", withData({ badge: Number.NaN }))).toMatchObject({
      path: "data.badge",
      received: "null (null)",
    });
    expect(findBodyProblem("pushToUserDevices", withData({ sound: undefined }))).toMatchObject({
      kind: "missing-field",
      path: "data.sound",
    });
    expect(
      findBodyProblem("pushToUserDevices", { data: { ...push.data, badge: 1n } }),
    ).toMatchObject({
      kind: "not-json",
    });
  });

  it("works as a vitest matcher", () => {
    expect(push).toBeValidRequestBody("pushToUserDevices");
    expect(withData({ title: null })).not.toBeValidRequestBody("pushToUserDevices");
    const result = idpBodyMatchers.toBeValidRequestBody.call(
      {},
      withData({ title: null }),
      "pushToUserDevices",
    );
    expect(result.pass).toBe(false);
    expect(result.message()).toContain("at data.title: received null (null)");
  });
});
