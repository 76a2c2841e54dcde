import { describe, expect, it } from "vitest";
import { runVerify } from "./support/run.ts";

describe("idp-verify without --provider-url", () => {
  it("should start the reference provider in-process and verify it: pacts and every check pass", async () => {
    // Act
    const run = await runVerify(["--runs", "10", "--seed", "7"]);
    // Assert
    expect(run.stdout).toContain("(embedded reference provider)");
    expect(run.stdout).not.toMatch(/^ {2}[✗!-] /m);
    expect(run.stdout).toMatch(/✓ pact\./);
    expect(run.stdout).toMatch(/PASSED: \d+ passed, 0 failed, 0 skipped, 0 could not run/);
    expect(run.code).toBe(0);
  });
});
