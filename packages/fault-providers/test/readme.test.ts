// The README names every fault and hostile kind the code has, and no other.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { FAULTS, HOSTILE_KINDS } from "../src/index.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

it("lists each fault once in its table, and no fault the code lacks", () => {
  const table = readme.slice(readme.indexOf("## Faults"), readme.indexOf("## `startHostile"));
  const rows = [...table.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
  expect(rows.sort()).toEqual([...FAULTS].sort());
});

it("describes each hostile kind", () => {
  const section = readme.slice(
    readme.indexOf("## `startHostile"),
    readme.indexOf("## In its own process"),
  );
  for (const kind of HOSTILE_KINDS) expect(section).toContain(`\`${kind}\` (`);
});
