// A schema the run could not remove is named in one line of every report: a generated name may be
// 100,000 characters long (a stressed body), and the line must stay readable.
import { describe, expect, it } from "vitest";
import { shownName } from "../src/report/format.ts";

describe("a schema name in a report line", () => {
  it("is whole when short", () => {
    expect(shownName("")).toBe('""');
    expect(shownName("customers")).toBe('"customers"');
  });
  it("is cut, with its length, when long, never splitting a surrogate pair", () => {
    const long = `${"a".repeat(39)}😀${"b".repeat(88_000)}`;
    const shown = shownName(long);
    expect(shown.length).toBeLessThan(80);
    expect(shown).toContain(`(${long.length} UTF-16 units)`);
    expect(shown.startsWith(`"${"a".repeat(39)}"`)).toBe(true);
  });
});
