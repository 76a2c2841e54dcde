import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  assertValidRequestBody,
  BodyAssertionError,
  type CreateSchemaRequest,
  defaultProfile,
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
      expected: "a string",
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

describe("the builders' reading: no key or value the contract does not name, unless the default profile is asked for", () => {
  const schema = (field: Record<string, unknown>): CreateSchemaRequest =>
    ({
      schema: {
        name: "orders",
        fields: [field],
        permissions: { write_protected: false, read_protected: true },
      },
    }) as CreateSchemaRequest;

  it("fails a misspelt optional key, naming the key, the value and the keys there are", () => {
    const body = schema({ name: "id", type: "string", uniqe: true });
    const e = failure(() => assertValidRequestBody("createSchema", body));
    expect(e.finding).toMatchObject({
      outcome: "unspecified",
      kind: "unknown-key",
      path: "schema.fields[0].uniqe",
      received: "true (a boolean)",
      expected: "no such key: schema.fields[0] has only name, type, unique (did you mean unique?)",
    });
    expect(e.message.split("\n")[0]).toBe(
      "createSchema body has a key the contract does not have: the spec is silent, a provider may ignore it (its value is then lost) or answer 422",
    );
    expect(e.message).toContain("pass { profile: defaultProfile } to accept it");
    // The default profile is the explicit opt-in: the spec does not forbid unknown keys.
    expect(findBodyProblem("createSchema", body, { profile: defaultProfile })).toBeUndefined();
    // Accepting a missing field does not accept an unknown key.
    expect(() => assertValidRequestBody("createSchema", body, { allowUnspecified: true })).toThrow(
      BodyAssertionError,
    );
  });

  test.prop([
    fc.string({ minLength: 1 }).filter((v) => !["string", "integer", "date_time"].includes(v)),
  ])("fails a field type beyond those in use, naming the value and the values in use", (type) => {
    const body = schema({ name: "id", type });
    expect(findBodyProblem("createSchema", body)).toMatchObject({
      kind: "value-not-in-use",
      path: "schema.fields[0].type",
      received: `${JSON.stringify(type)} (a string)`,
      expected: 'one of "string", "integer", "date_time" (the values in use)',
    });
    expect(findBodyProblem("createSchema", body, { profile: defaultProfile })).toBeUndefined();
    expect(findBodyProblem("createSchema", body, { profile: strictProfile })?.outcome).toBe(
      "invalid",
    );
  });

  it("fails an unknown key anywhere, and leaves the strict profile's other assumptions to it", () => {
    expect(findBodyProblem("pushToUserDevices", withData({ priority: "high" }))).toMatchObject({
      path: "data.priority",
      received: '"high" (a string)',
    });
    const rules = {
      rules: {
        features: {
          sports: {
            labels: [{ name: "football", keywords: ["goal"] }],
            classifier: { type: "likes", categories: ["sports"], threshold: 2 },
          },
        },
        parameters: { excluded_words: [] },
      },
    };
    // A threshold beyond [0, 1] is strict's assumption, not a value in use.
    expect(findBodyProblem("updateClusteringRules", rules)).toBeUndefined();
  });
});

describe("what was received and what was expected, in plain words", () => {
  it.each([
    [{ schema: "customers" }, "schema", '"customers" (a string)', "a JSON object"],
    [[], "(body)", "[] (an array)", 'a JSON object, {"schema": {...}}'],
    [{}, "schema", "absent", 'a "schema" key holding a JSON object'],
    [undefined, "(body)", "undefined (JSON.stringify gives no text for it)", "a JSON object"],
  ])("%j: at %s received %s; expected %s", (body, path, received, expected) => {
    expect(findBodyProblem("createSchema", body)).toMatchObject({ path, received, expected });
  });

  it("names zod's types in words, and a value outside its range by the range", () => {
    expect(findBodyProblem("pushToUserDevices", withData({ vibrate: "yes" }))?.expected).toBe(
      "true or false",
    );
    expect(findBodyProblem("pushToUserDevices", withData({ title: [] }))?.expected).toBe(
      "a string",
    );
    const rules = (threshold: number) => ({
      rules: {
        features: {
          f: { labels: [], classifier: { type: "likes", categories: [], threshold } },
        },
        parameters: { excluded_words: [] },
      },
    });
    expect(
      findBodyProblem("updateClusteringRules", rules(2), { profile: strictProfile })?.expected,
    ).toBe("at most 1");
    expect(
      findBodyProblem("updateClusteringRules", rules(-1), { profile: strictProfile })?.expected,
    ).toBe("at least 0");
  });
});
