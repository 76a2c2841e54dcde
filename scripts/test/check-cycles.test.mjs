// The import-cycle check against planted workspaces: a cycle is found whether its imports are of
// values or only of types, and named module by module; a workspace without one passes.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cycleLine, cyclesOf } from "../check-cycles.mjs";
import { planter } from "./support/planted.mjs";

const SCRIPT = fileURLToPath(new URL("../check-cycles.mjs", import.meta.url));
const workspace = planter("check-cycles-");

/** A package whose rule module and registry import each other, the registry only for a type. */
const planted = {
  "packages/lib/package.json": '{ "name": "@x/lib" }',
  "packages/lib/src/index.ts": 'export { RULES } from "./registry.ts";\n',
  "packages/lib/src/registry.ts":
    'import { r1 } from "./r1.ts";\nexport interface Rule { readonly id: string }\nexport const RULES = [r1];\n',
  "packages/lib/src/r1.ts":
    'import type { Rule } from "./registry.ts";\nexport const r1: Rule = { id: "R1" };\n',
  "apps/app/package.json": '{ "name": "@x/app" }',
  "apps/app/src/a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
  "apps/app/src/b.ts": "export const b = 1;\n",
};

describe("check-cycles", () => {
  it("finds a cycle made of a type-only import, and names each module of it", async () => {
    const root = workspace(planted);
    const cycles = await cyclesOf(root);
    expect(cycles.map(cycleLine)).toEqual([
      "packages/lib/src/registry.ts > packages/lib/src/r1.ts > packages/lib/src/registry.ts",
    ]);
    const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "import cycle: packages/lib/src/registry.ts > packages/lib/src/r1.ts > packages/lib/src/registry.ts",
    );
  });

  it("finds a cycle through import() and across folders of one src/", async () => {
    const root = workspace({
      "apps/app/package.json": '{ "name": "@x/app" }',
      "apps/app/src/phases/run.ts":
        'export const run = async () => (await import("../verify.ts")).verify;\n',
      "apps/app/src/verify.ts":
        'import { run } from "./phases/run.ts";\nexport const verify = () => run;\n',
    });
    expect((await cyclesOf(root)).map(cycleLine)).toEqual([
      "apps/app/src/phases/run.ts > apps/app/src/verify.ts > apps/app/src/phases/run.ts",
    ]);
  });

  it("passes a workspace whose imports go one way", async () => {
    const root = workspace({
      ...planted,
      "packages/lib/src/r1.ts":
        'import type { Rule } from "./rule.ts";\nexport const r1: Rule = { id: "R1" };\n',
      "packages/lib/src/rule.ts": "export interface Rule { readonly id: string }\n",
      "packages/lib/src/registry.ts":
        'import { r1 } from "./r1.ts";\nexport type { Rule } from "./rule.ts";\nexport const RULES = [r1];\n',
    });
    expect(await cyclesOf(root)).toEqual([]);
    const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("no import cycle among 2 src/ folders\n");
  });
});
