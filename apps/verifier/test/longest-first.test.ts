// The suite's start order (test/support/longest-first.ts): every file it names exists (a renamed
// file would quietly fall back to vitest's order), and the named files come first, in its order.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { TestSpecification } from "vitest/node";
import { LONGEST_FIRST, LongestFirst } from "./support/longest-first.ts";

const file = (name: string) => fileURLToPath(new URL(`./${name}.test.ts`, import.meta.url));

describe("the longest files first", () => {
  it("names only test files that exist, once each", () => {
    expect(LONGEST_FIRST.filter((name) => !existsSync(file(name)))).toEqual([]);
    expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
  });

  it("starts the named files first, in its order, and keeps vitest's order for the rest", async () => {
    const spec = (name: string) =>
      ({
        moduleId: file(name),
        project: { name: "p", config: { sequence: { groupOrder: 0 }, isolate: false } },
      }) as unknown as TestSpecification;
    // No cached results and no sizes (files that do not exist): vitest keeps the given order.
    const ctx = { cache: { getTestSpecificationResult: () => undefined }, config: {} };
    const given = ["zz-a", "wire", "zz-b", "reach", "faults"].map(spec);
    const sorted = await new LongestFirst(ctx as never).sort(given);
    expect(sorted.map((s) => s.moduleId)).toEqual(
      ["reach", "faults", "wire", "zz-a", "zz-b"].map(file),
    );
  });
});
