// Observed rules in a sharded run (rules/observed.ts): a rule judged in another shard fails every
// check of this shard whose own answers broke it, not only the first check that saw it (which may
// have failed for a reason of its own, and then took the violation with it).
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../src/results.ts";
import {
  mergeObservations,
  type Observation,
  sourceKey,
  withObservations,
} from "../src/rules/observed.ts";

const seen = (source: string, status: number): Observation => ({
  source,
  exchange: {
    request: {
      method: "POST",
      url: "http://127.0.0.1:1/v1/x",
      headers: {},
      credentials: "none",
      curlAuth: [],
    },
    result: {
      kind: "response",
      status,
      headers: {},
      bodyBytes: 0,
      bodyPreview: "",
      truncated: false,
      durationMs: 1,
    },
  },
  problem: {
    rule: "R6",
    kind: "server-error",
    message: `R6: got ${status}`,
    source: { source: "pinned", ref: "conformance.md §1" },
  },
});
const passed = (id: string): CheckResult => ({
  id,
  kind: "conformance",
  title: id,
  source: { source: "spec", ref: "spec" },
  status: "passed",
  runs: { done: 1, asked: 1 },
  requests: 1,
  durationMs: 1,
  warnings: [],
});

describe("withObservations in a shard", () => {
  // R6 runs in another shard; R4 saw a 500 first (and failed on it itself), R3 saw one later.
  const first = new Map([["R6.no-5xx", seen("R4.valid-accepted.pushToUserDevices", 500)]]);
  const bySource = new Map([
    [
      sourceKey("R6.no-5xx", "R4.valid-accepted.pushToUserDevices"),
      seen("R4.valid-accepted.pushToUserDevices", 500),
    ],
    [sourceKey("R6.no-5xx", "R3.documented-status"), seen("R3.documented-status", 503)],
  ]);
  const foreign = new Set(["R6.no-5xx"]);

  it("fails each passed check whose own answer broke the foreign rule, with that answer", () => {
    const r3 = withObservations(passed("R3.documented-status"), { first, bySource }, foreign);
    expect(r3.status).toBe("failed");
    expect(r3.failure?.message).toBe(
      "R6: got 503 (judged for R6.no-5xx, which runs in another shard)",
    );
    expect(r3.failure?.exchange?.result).toMatchObject({ status: 503 });
  });

  it("leaves a check whose answers broke no foreign rule as it was", () => {
    const r8 = passed("R8.no-success-body");
    expect(withObservations(r8, { first, bySource }, foreign)).toBe(r8);
    // Without the shard (nothing foreign), only the rule's own check takes observations.
    expect(withObservations(passed("R3.documented-status"), { first, bySource })).toMatchObject({
      status: "passed",
    });
  });

  it("keeps per-source observations when observations of several clients merge", () => {
    const merged = mergeObservations(
      { first, bySource },
      { first: new Map(), bySource: new Map() },
    );
    expect([...(merged.bySource ?? new Map()).keys()]).toEqual([...bySource.keys()]);
  });
});
