import { describe, expect, it } from "vitest";
import { parseFfiResults } from "../src/pact/ffi-results.ts";

// Shaped like pact-core 20's pactffi_verifier_json, written here by hand (the parser is the code
// under test; these documents are what Pact's verifier emits).
const results = (over: Record<string, unknown>) =>
  JSON.stringify({
    result: true,
    errors: [],
    pendingErrors: [],
    interactionResults: [],
    notices: [],
    output: [],
    ...over,
  });

const failing = {
  consumer: "c",
  description: "create schema: 400 for a malformed body",
  duration: "19ms",
  pending: false,
  providerStates: [],
  result: "Error",
  mismatch: {
    type: "mismatches",
    mismatches: [
      { type: "StatusMismatch", expected: 400, actual: 201, mismatch: "expected 400 but was 201" },
      {
        type: "HeaderMismatch",
        key: "Content-Type",
        expected: '"application/json"',
        actual: "",
        mismatch: "Expected a header 'Content-Type' but was missing",
      },
      {
        type: "BodyMismatch",
        path: "$.errors",
        expected: "[]",
        actual: '{"secret":"s3cret"}',
        mismatch: "echoed s3cret",
      },
    ],
  },
};

describe("parseFfiResults", () => {
  it("reads each interaction: consumer, pending, timing, mismatches by path", () => {
    const r = parseFfiResults(
      results({
        result: false,
        interactionResults: [
          {
            consumer: "c",
            description: "ok one",
            duration: "1.5s",
            pending: false,
            providerStates: ["a login user exists"],
            result: "OK",
          },
          failing,
        ],
      }),
      (s) => s,
    );
    expect(r?.result).toBe(false);
    expect(r?.interactions[0]).toMatchObject({
      description: "ok one",
      ok: true,
      durationMs: 1500,
      providerStates: ["a login user exists"],
    });
    expect(r?.interactions[1]?.ok).toBe(false);
    expect(r?.interactions[1]?.mismatches).toEqual([
      { type: "status", expected: "400", actual: "201", message: "expected 400 but was 201" },
      {
        type: "header",
        path: "Content-Type",
        expected: '"application/json"',
        actual: "",
        message: "Expected a header 'Content-Type' but was missing",
      },
      {
        type: "body",
        path: "$.errors",
        expected: "[]",
        actual: '{"secret":"s3cret"}',
        message: "echoed s3cret",
      },
    ]);
  });

  it("scrubs every provider-controlled string as it reads it, leaving the structure whole", () => {
    const r = parseFfiResults(results({ result: false, interactionResults: [failing] }), (s) =>
      s.replaceAll("s3cret", "<redacted>"),
    );
    const body = r?.interactions[0]?.mismatches[2];
    expect(body?.actual).toBe('{"secret":"<redacted>"}');
    expect(body?.message).toBe("echoed <redacted>");
  });

  it("reads an error instead of mismatches (Pact could not verify at all)", () => {
    const r = parseFfiResults(
      results({
        result: false,
        interactionResults: [
          {
            description: "d",
            result: "Error",
            mismatch: { type: "error", message: "State change request failed" },
          },
        ],
      }),
      (s) => s,
    );
    expect(r?.interactions[0]).toMatchObject({
      ok: false,
      error: "State change request failed",
      mismatches: [],
    });
  });

  it("reads a pact that could not be loaded", () => {
    const r = parseFfiResults(
      results({
        result: false,
        errors: [{ interaction: "Failed to load pact", mismatch: { message: "no such file" } }],
      }),
      (s) => s,
    );
    expect(r?.loadError).toBe("no such file");
  });

  it.each([
    "",
    "not json",
    "[]",
    JSON.stringify({ errors: [] }),
    JSON.stringify({ result: "yes" }),
  ])("returns undefined for %j, which is not Pact's results", (text) => {
    expect(parseFfiResults(text, (s) => s)).toBeUndefined();
  });
});
