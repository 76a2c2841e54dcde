import { describe, expect, it } from "vitest";
import { verifyReport } from "./support/run.ts";

describe("idp-verify without --provider-url", () => {
  it("starts the reference provider in-process and verifies it: every pact and check passes", async () => {
    const run = await verifyReport(["--runs", "10", "--seed", "7"]);
    expect(run.stdout).toContain("(embedded reference provider)");
    expect(run.report?.embedded).toBe(true);
    expect(run.report?.checks.filter((c) => c.kind === "pact")).toHaveLength(12);
    expect(run.report?.checks.filter((c) => c.kind === "conformance")).toHaveLength(18);
    expect(run.report?.checks.filter((c) => c.status !== "passed")).toEqual([]);
    expect(run.report?.leftOut).toEqual([]);
    // Each check's line appears once, live on stderr; stdout is the summary.
    expect(run.stderr.match(/^✓ pact\./gm)).toHaveLength(12);
    expect(run.stdout).not.toMatch(/^✓ /m);
    expect(run.stdout).toMatch(/^PASSED: 30 passed, 0 failed \(exit 0\)$/m);
    expect(run.code).toBe(0);
  });
});
