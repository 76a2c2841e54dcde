import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  acceptanceProblem,
  authRejectionProblem,
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  defaultProfile,
  defineProfile,
  errorBodyProblem,
  expectedRejection,
  loginUserProblem,
  type ObservedResponse,
  type Problem,
  RULES,
  rejectionProblem,
  serverErrorProblem,
  strictProfile,
  successBodyProblem,
  undocumentedStatusProblem,
} from "../src/index.ts";
import { clusteringExample, createSchemaExample, pushExample } from "./examples.ts";
import { conformanceText, tableAfter } from "./spec-text.ts";

// Every response here is written by hand (or drawn by fast-check), never built with the code under
// test. Expected statuses come from the spec text or are written out.

const JSON_TYPE = "application/json";
const res = (
  status: number,
  body: string | Uint8Array = "",
  contentType: string | undefined = JSON_TYPE,
): ObservedResponse => ({ status, contentType, body });
const authFailed =
  '{"error":"authentication_failed","error_description":"bad credentials","errors":["bad credentials"]}';

describe("R2 error body", () => {
  it.each([
    ["the spec's body", authFailed, JSON_TYPE],
    ["a charset parameter", authFailed, "application/json; charset=utf-8"],
    ["upper case and spaces", authFailed, " Application/JSON ;charset=UTF-8 "],
    ["extra keys", '{"error":"x","error_description":"y","errors":[],"trace":1}', JSON_TYPE],
    ["any error code", '{"error":"conflict","error_description":"","errors":[""]}', JSON_TYPE],
    ["bytes", new TextEncoder().encode(authFailed), JSON_TYPE],
    ["mixed case (RFC 9110 §8.3.1)", authFailed, "Application/JSON;Charset=UTF-8"],
    ["a quoted charset", authFailed, 'application/json; charset="utf-8"'],
    ["other parameters, an empty one", authFailed, "application/json;; v=1 ;charset=utf-8"],
    [
      "UTF-8 text beyond ASCII",
      new TextEncoder().encode(authFailed.replace("bad", "café 😀")),
      JSON_TYPE,
    ],
  ])("should accept %s", (_, body, contentType) => {
    expect(errorBodyProblem(res(422, body, contentType))).toBeUndefined();
  });

  it.each([
    [
      "no Content-Type",
      { status: 400, contentType: undefined, body: authFailed },
      "content-type",
      "got none",
    ],
    ["text/html", res(400, authFailed, "text/html"), "content-type", 'got "text/html"'],
    ["json-ish type", res(400, authFailed, "application/jsonp"), "content-type", "jsonp"],
    [
      "a charset other than UTF-8",
      res(400, authFailed, "application/json; charset=ISO-8859-1"),
      "content-type",
      'charset "ISO-8859-1" is not UTF-8',
    ],
    [
      "Latin-1 in any case",
      res(400, authFailed, "APPLICATION/JSON; CHARSET=Latin1"),
      "content-type",
      "is not UTF-8",
    ],
    [
      "a parameter without a value",
      res(400, authFailed, "application/json; charset"),
      "content-type",
      "not a media type",
    ],
    [
      "spaces around =",
      res(400, authFailed, "application/json; charset = utf-8"),
      "content-type",
      "not a media type",
    ],
    [
      "Latin-1 bytes in the body",
      // {"error":"é"...}: 0xE9 then a quote, at offset 10.
      res(422, Uint8Array.from([...'{"error":"'].map((c) => c.charCodeAt(0)).concat([0xe9, 0x22]))),
      "not-utf8",
      "byte 0xE9 at offset 10",
    ],
    ["HTML", res(500, "<h1>oops</h1>"), "not-json", 'not JSON, got "<h1>oops</h1>"'],
    ["an empty body", res(404, ""), "not-json", 'not JSON, got ""'],
    ["no errors", res(403, '{"error":"x","error_description":"y"}'), "body-shape", "; errors: "],
    [
      "errors a string",
      res(403, '{"error":"x","error_description":"y","errors":"z"}'),
      "body-shape",
      "errors: ",
    ],
    [
      "error a number",
      res(403, '{"error":1,"error_description":"y","errors":[]}'),
      "body-shape",
      "; error: ",
    ],
    [
      "an object item",
      res(422, '{"error":"x","error_description":"y","errors":[{"a":1}]}'),
      "errors-item",
      'errors[0] must be a string, got {"a":1}',
    ],
    [
      "a number item",
      res(422, '{"error":"x","error_description":"y","errors":["ok",7]}'),
      "errors-item",
      "errors[1] must be a string, got 7",
    ],
  ])("should name %s", (_, answer, kind, words) => {
    const problem = errorBodyProblem(answer);
    expect(problem).toMatchObject({ rule: "R2", kind });
    expect(problem?.message).toContain(words);
    expect(problem?.message.startsWith(`R2: `)).toBe(true);
  });

  it("should judge the same bytes again by what else the answer says (status, type, cut, profile)", () => {
    // One body, read by the check that sent it and by R2 watching every answer: the second read
    // of the very same bytes must still see its own answer's status, Content-Type and profile.
    const bytes = new TextEncoder().encode(
      '{"error":"x","error_description":"y","errors":[{"attribute":"a","message":"m","code":"c"}]}',
    );
    const objects = defineProfile(defaultProfile, { name: "objects", errorsItems: ["object"] });
    expect(errorBodyProblem(res(422, bytes))?.kind).toBe("errors-item");
    expect(errorBodyProblem(res(422, bytes), objects)).toBeUndefined();
    expect(errorBodyProblem(res(422, bytes))?.message).toContain("R2: the 422 error body's");
    expect(errorBodyProblem(res(409, bytes))?.message).toContain("R2: the 409 error body's");
    expect(errorBodyProblem(res(422, bytes, "text/plain"), objects)?.kind).toBe("content-type");
    expect(errorBodyProblem({ ...res(422, bytes), truncated: true }, objects)?.kind).toBe(
      "truncated",
    );
    expect(errorBodyProblem(res(422, bytes), objects)).toBeUndefined();
  });

  it("should not judge a body it had to cut", () => {
    const cut = { ...res(400, authFailed.slice(0, 20)), truncated: true };
    expect(errorBodyProblem(cut)).toMatchObject({
      kind: "truncated",
      received: "more than 20 bytes",
    });
  });
});

describe("R1 auth", () => {
  it("should accept 401 with the error body and authentication_failed", () => {
    expect(authRejectionProblem(res(401, authFailed))).toBeUndefined();
  });

  it.each([
    [res(200), "status", "R1: a request without acceptable credentials must get 401, got 200"],
    [
      res(403, authFailed),
      "status",
      "R1: a request without acceptable credentials must get 401, got 403",
    ],
    [
      res(401, '{"error":"unauthorized","error_description":"","errors":[]}'),
      "error-code",
      'R1: a 401 must carry error "authentication_failed", got "unauthorized"',
    ],
    [
      res(401, "Unauthorized", "text/plain"),
      "content-type",
      'R1: 401 without the error body (R2: a 401 answer must have Content-Type application/json, got "text/plain")',
    ],
  ])("should reject %j", (answer, kind, message) => {
    expect(authRejectionProblem(answer)).toMatchObject({ rule: "R1", kind, message });
  });

  it("should read the error body with the profile's errorsItems", () => {
    const objects = defineProfile(defaultProfile, { name: "objects", errorsItems: ["object"] });
    const answer = res(
      401,
      '{"error":"authentication_failed","error_description":"","errors":[{"attribute":"","message":"","code":"x"}]}',
    );
    expect(authRejectionProblem(answer, objects)).toBeUndefined();
    expect(authRejectionProblem(answer)).toMatchObject({
      rule: "R1",
      kind: "errors-item",
      source: { source: "spec" },
    });
  });
});

describe("R3 documented status", () => {
  // conformance.md §1, R3's row: "create schema 201, 400, ...; push to user devices ...; ...".
  const r3 = tableAfter(conformanceText, "## 1. Rules").find((row) => row[0]?.startsWith("R3"));
  const documented = new Map<DetailedOperationId, number[]>();
  const names: Record<string, DetailedOperationId> = {
    "create schema": "createSchema",
    "push to user devices": "pushToUserDevices",
    "update clustering rules": "updateClusteringRules",
  };
  for (const [name, op] of Object.entries(names)) {
    const match = new RegExp(`${name} ([\\d, ]+)`).exec(r3?.[1] ?? "");
    documented.set(
      op,
      (match?.[1] ?? "").split(",").map((s) => Number(s.trim())),
    );
  }

  test.prop([fc.constantFrom(...DETAILED_OPERATION_IDS), fc.integer({ min: 100, max: 599 })])(
    "should flag exactly the statuses conformance.md §1 R3 does not list",
    (op, status) => {
      const listed = documented.get(op) ?? [];
      expect(listed.length).toBeGreaterThan(3);
      const problem = undocumentedStatusProblem(op, status);
      expect(problem === undefined).toBe(listed.includes(status));
      if (problem)
        expect(problem.message).toBe(
          `R3: ${status} is not a documented status of ${op} (documented: ${listed.join(", ")})`,
        );
    },
  );
});

describe("R4, R6, R7, R8", () => {
  it.each([
    ["createSchema", 201],
    ["pushToUserDevices", 200],
    ["updateClusteringRules", 200],
  ] as const)("R4: a valid %s payload gets %i", (op, status) => {
    expect(acceptanceProblem(op, status)).toBeUndefined();
    expect(acceptanceProblem(op, 204)).toMatchObject({
      rule: "R4",
      message: `R4: a valid ${op} payload must get ${status}, got 204`,
    });
  });

  test.prop([fc.integer({ min: 100, max: 599 })])("R6: a problem exactly for 5xx", (status) => {
    expect(serverErrorProblem(status) !== undefined).toBe(status >= 500);
  });

  it("R7: 404 for an unknown id, 403 for another login app's user (pinned)", () => {
    expect(loginUserProblem("unknown", 404)).toBeUndefined();
    expect(loginUserProblem("otherLoginApp", 403)).toBeUndefined();
    expect(loginUserProblem("unknown", 403)).toMatchObject({
      message: "R7: push to an id no login user has must get 404, got 403",
      source: { source: "pinned", ref: "conformance.md §1 R7" },
    });
    expect(loginUserProblem("otherLoginApp", 200)?.message).toBe(
      "R7: push to a login user of another login app must get 403, got 200",
    );
  });

  test.prop([fc.integer({ min: 200, max: 299 }), fc.string({ unit: "grapheme", minLength: 1 })])(
    "R8: a success answer with a body names its size in bytes",
    (status, body) => {
      expect(successBodyProblem(res(status, ""))).toBeUndefined();
      const bytes = Buffer.byteLength(body, "utf8");
      expect(successBodyProblem(res(status, body))?.message).toBe(
        `R8: a ${status} success answer must carry no body, got ${bytes} bytes`,
      );
      expect(successBodyProblem(res(status, Buffer.from(body)))?.received).toBe(`${bytes} bytes`);
    },
  );

  it("R8: other statuses are not its business", () => {
    expect(successBodyProblem(res(422, authFailed))).toBeUndefined();
    expect(successBodyProblem(res(302, "moved"))).toBeUndefined();
  });
});

describe("R5 invalid is rejected", () => {
  // conformance.md §3, written out.
  const cases: [DetailedOperationId, string, string, 400 | 422][] = [
    ["createSchema", "not-json", "{", 400],
    ["createSchema", "wrapper-missing", "{}", 400],
    [
      "createSchema",
      "wrong-type",
      JSON.stringify({ schema: { ...createSchemaExample.schema, name: 1 } }),
      422,
    ],
    ["pushToUserDevices", "not-object", "[]", 400],
    [
      "pushToUserDevices",
      "wrong-type",
      JSON.stringify({ data: { ...pushExample.data, badge: 1.5 } }),
      400,
    ],
    ["updateClusteringRules", "not-json", "rules", 422],
    [
      "updateClusteringRules",
      "wrong-type",
      JSON.stringify({ rules: { ...clusteringExample.rules, parameters: [] } }),
      422,
    ],
  ];

  test.prop([fc.constantFrom(...cases), fc.integer({ min: 100, max: 599 })])(
    "should accept only the pinned status, even against another documented 4xx",
    ([op, kind, body, pinned], status) => {
      expect(expectedRejection(op, body)).toMatchObject({ status: pinned, violation: { kind } });
      const problem = rejectionProblem(op, body, status);
      expect(problem === undefined).toBe(status === pinned);
      if (problem)
        expect(problem).toMatchObject({
          rule: "R5",
          expected: String(pinned),
          received: String(status),
          source: { source: "pinned", ref: "conformance.md §3" },
        });
    },
  );

  it("should assert nothing for a valid body or one the profile leaves unspecified", () => {
    expect(expectedRejection("pushToUserDevices", JSON.stringify(pushExample))).toBeUndefined();
    expect(rejectionProblem("pushToUserDevices", JSON.stringify(pushExample), 500)).toBeUndefined();
    const { title: _, ...noTitle } = pushExample.data;
    expect(
      rejectionProblem("pushToUserDevices", JSON.stringify({ data: noTitle }), 200),
    ).toBeUndefined();
  });
});

describe("every problem", () => {
  test.prop([fc.string(), fc.string()])(
    "should keep a message on one line whatever keys the body has (strict profile)",
    (key, feature) => {
      const sports = clusteringExample.rules.features.sports;
      const body = JSON.stringify({
        rules: {
          ...clusteringExample.rules,
          features: { [`${feature}\n`]: { ...sports, classifier: { threshold: "0" } } },
          [`${key}\r`]: 1,
        },
      });
      for (const profile of [defaultProfile, strictProfile])
        expect(rejectionProblem("updateClusteringRules", body, 200, profile)?.message).toMatch(
          /^R5: [^\n\r\u2028]+$/,
        );
    },
  );

  const answerArb: fc.Arbitrary<ObservedResponse> = fc.record({
    status: fc.integer({ min: 100, max: 599 }),
    contentType: fc.option(fc.oneof(fc.constant(JSON_TYPE), fc.string()), { nil: undefined }),
    body: fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({
          error: fc.jsonValue(),
          error_description: fc.jsonValue(),
          errors: fc.jsonValue(),
        })
        .map((v) => JSON.stringify(v)),
      fc.uint8Array(),
    ),
    truncated: fc.boolean(),
  });

  test.prop([answerArb, fc.constantFrom(...DETAILED_OPERATION_IDS), fc.string()])(
    "should be one line starting with its rule, with a source, expected and received",
    (answer, op, body) => {
      const problems: (Problem | undefined)[] = [
        errorBodyProblem(answer),
        authRejectionProblem(answer),
        undocumentedStatusProblem(op, answer.status),
        acceptanceProblem(op, answer.status),
        rejectionProblem(op, body, answer.status),
        serverErrorProblem(answer.status),
        loginUserProblem("unknown", answer.status),
        successBodyProblem(answer),
      ];
      for (const p of problems.filter((x) => x !== undefined)) {
        expect(p.message).not.toMatch(/[\n\r]/);
        expect(p.message.startsWith(`${p.rule}: `)).toBe(true);
        expect(RULES[p.rule].id).toBe(p.rule);
        expect(["spec", "pinned", "profile"]).toContain(p.source.source);
        expect(p.source.ref).not.toBe("");
        expect(p.expected).not.toBe("");
        expect(p.received).not.toBe("");
      }
    },
  );
});
