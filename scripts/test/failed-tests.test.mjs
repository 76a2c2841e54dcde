// scripts/lib/failed-tests.mjs, which puts each failed test into run-tests' closing summary: read
// from the JSON report of a real vitest run of a planted test file.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { failedTests } from "../lib/failed-tests.mjs";
import { planter } from "./support/planted.mjs";

const plant = planter("failed-tests-");
const vitest = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));

it("names each failed test's file, name and first error line, cut to 300 characters, ten at most", () => {
  const dir = plant({
    "package.json": {},
    "test/x.test.js": `describe("group", () => {
  test("long", () => { throw new Error("${"y".repeat(400)}\\nsecond line"); });
  for (let i = 0; i < 12; i++) test(\`fails \${i}\`, () => { expect(i).toBe(-1); });
  test("passes", () => {});
});
`,
  });
  const out = join(dir, "r.json");
  const run = spawnSync(
    process.execPath,
    [vitest, "run", "--root", dir, "--globals", "--reporter=json", `--outputFile.json=${out}`],
    { encoding: "utf8" },
  );
  expect(run.status).toBe(1);
  const lines = failedTests(JSON.parse(readFileSync(out, "utf8")), dir);
  expect(lines).toHaveLength(11);
  expect(lines[0]).toHaveLength(300);
  expect(lines[0]).toMatch(/^ {4}test\/x\.test\.js > group long: Error: y+…$/);
  expect(lines[1]).toBe(
    "    test/x.test.js > group fails 0: AssertionError: expected +0 to be -1 // Object.is equality",
  );
  expect(lines.slice(1, 10).map((l) => /group (fails \d+):/.exec(l)?.[1])).toEqual(
    Array.from({ length: 9 }, (_, i) => `fails ${i}`),
  );
  expect(lines[10]).toBe("    … and 3 more");
});
