import { describe, expect, it } from "vitest";
import { PROVIDER_STATE_PARAM, PROVIDER_STATES } from "../src/index.ts";
import { conformanceText, tableAfter } from "./spec-text.ts";

describe("the provider states", () => {
  it("should be exactly the names and params of conformance.md section 4", () => {
    const rows = tableAfter(conformanceText, "## 4. Provider states");
    expect(rows.map((r) => r[0]?.replace(/`/g, ""))).toEqual(Object.values(PROVIDER_STATES));
    for (const row of rows) {
      const name = row[0]?.replace(/`/g, "") as keyof typeof PROVIDER_STATE_PARAM;
      expect(row[1]).toBe(`\`{"${PROVIDER_STATE_PARAM[name]}": string}\``);
    }
  });
});
