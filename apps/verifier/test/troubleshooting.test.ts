import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ERROR_CODES } from "@idp/provider";
import { describe, expect, it } from "vitest";

// docs/troubleshooting.md explains every coded error; it cannot drift: a new code in one of these
// modules fails this test until the page explains it.
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const page = readFileSync(join(ROOT, "docs", "troubleshooting.md"), "utf8");

/** Every `E_...` code written in a source file (type unions, `code = "..."`, describeError). */
function codesIn(path: string): string[] {
  const text = readFileSync(join(ROOT, path), "utf8");
  return [...new Set([...text.matchAll(/\bE_[A-Z][A-Z_]+\b/g)].map((m) => m[0]))].sort();
}

/** The table row of the page that starts with this code, in backticks. */
const rowOf = (code: string) =>
  page
    .split("\n")
    .find((line) => line.startsWith(`| \`${code}\``) || line.startsWith(`| \`${code}\` (`));

describe("docs/troubleshooting.md", () => {
  it.each([
    ["apps/verifier/src/errors.ts", 7],
    ["packages/pact-consumer/src/errors.ts", 7],
    ["packages/generators/src/errors.ts", 2],
  ])("should explain every error code of %s in its own row", (path, atLeast) => {
    // Arrange
    const codes = codesIn(path);
    expect(codes.length).toBeGreaterThanOrEqual(atLeast);
    // Assert: a table row per code, with meaning, example and what to do (4 cells at least)
    for (const code of codes) {
      const row = rowOf(code);
      expect(row, `${code} (${path}) has no row in docs/troubleshooting.md`).toBeDefined();
      expect(row?.split(" | ").length, code).toBeGreaterThanOrEqual(4);
    }
  });

  it("should explain the per-request codes idp-verify puts in reports", () => {
    for (const code of codesIn("apps/verifier/src/http/client.ts"))
      expect(rowOf(code), code).toBeDefined();
  });

  it("should explain every error body code of the reference provider", () => {
    const codes = Object.values(ERROR_CODES);
    expect(codes.length).toBeGreaterThanOrEqual(10);
    for (const code of codes) expect(rowOf(code), code).toBeDefined();
  });

  it("should link only to pages that exist", () => {
    for (const [, target] of page.matchAll(/\]\(([^)#]+\.md)\)/g))
      expect(() => readFileSync(join(ROOT, "docs", target ?? ""))).not.toThrow();
  });
});
