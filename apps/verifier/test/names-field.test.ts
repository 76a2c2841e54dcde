// R10 errors name the field (conformance.md §10, opt-in): a provider written by hand whose 400 and
// 422 answers are right in every other way but say only "The request is invalid" fails it, on the
// first wrong type of each operation; the reference provider and a hand provider that name the
// field pass it; without --checks it never runs.
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { against, CREDENTIALS, failedIds, verifyReport } from "./support/run.ts";

const R10 = [
  "R10.names-field.createSchema",
  "R10.names-field.pushToUserDevices",
  "R10.names-field.updateClusteringRules",
];
let generic: RunningProvider;
beforeAll(async () => {
  generic = await startHandProvider({ credentials: CREDENTIALS, genericMessages: true });
});
afterAll(() => generic.close());

describe("R10 errors name the field (--checks R10 only)", () => {
  it("fails a provider whose 4xx name no field, showing the field that went unnamed and the answer", async () => {
    const run = await verifyReport(against(generic, ["--checks", "R10"], { runs: 20, seed: 1 }));
    expect(failedIds(run.report)).toEqual(R10);
    expect(run.code).toBe(1);
    const failure = run.report?.checks.find(
      (c) => c.id === "R10.names-field.pushToUserDevices",
    )?.failure;
    expect(failure?.source).toEqual({ source: "pinned", ref: "conformance.md §10 (R10)" });
    expect(failure?.message).toMatch(
      /^R10: a 400 to a body whose one broken field is data(\.\w+)? must name it .*The request is invalid/,
    );
    expect(run.stdout).toContain("R10: a 400 to a body whose one broken field is");
  });

  it("passes a hand provider that names the field, and the reference provider", async () => {
    const named = await startHandProvider({ credentials: CREDENTIALS });
    try {
      for (const args of [
        against(named, ["--checks", "R10"], { runs: 30, seed: 2 }),
        ["--checks", "R10", "--runs", "30", "--seed", "2"],
      ]) {
        const run = await verifyReport(args);
        expect(failedIds(run.report), run.stdout).toEqual([]);
        expect(run.report?.checks.map((c) => c.id)).toEqual(R10);
        expect(run.code).toBe(0);
      }
    } finally {
      await named.close();
    }
  });

  it("is never in the default selection: generic words break no other rule", async () => {
    const run = await verifyReport(against(generic, [], { runs: 10, seed: 3 }));
    expect(run.report?.checks.some((c) => c.id.startsWith("R10"))).toBe(false);
    expect(run.report?.leftOut.some((c) => c.id.startsWith("R10"))).toBe(false);
    expect(run.code, run.stdout).toBe(0);
  });
});
