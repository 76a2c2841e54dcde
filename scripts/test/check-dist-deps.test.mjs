// The dependency check against planted workspaces: each way a dist can break the rule is found,
// and a dist that keeps it is not.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findings, importsOf, packageOf } from "../check-dist-deps.mjs";
import { planter } from "./support/planted.mjs";

const workspace = planter("check-dist-deps-");

const lib = {
  "packages/lib/package.json": { name: "@x/lib" },
  "packages/lib/src/index.ts": "export function libHelper(): number {\n  return 1;\n}\n",
  "packages/lib/dist/index.mjs": "function libHelper() {\n  return 1;\n}\nexport { libHelper };\n",
};

describe("check-dist-deps", () => {
  it("passes a dist that imports what its package declares", () => {
    const root = workspace({
      ...lib,
      "apps/app/package.json": { name: "@x/app", dependencies: { "@x/lib": "*", zod: "*" } },
      "apps/app/src/index.ts": "export const own = 1;\n",
      "apps/app/dist/index.mjs":
        'import { libHelper } from "@x/lib";\nimport { z } from "zod/mini";\nimport { readFileSync } from "node:fs";\nimport "path";\nconst own = libHelper();\nexport { own };\n',
      "apps/app/dist/index.d.mts": 'export declare const own: import("@x/lib").T;\n',
    });
    expect(findings(root)).toEqual([]);
  });

  it("finds an import of an undeclared package, in code and in types", () => {
    const root = workspace({
      ...lib,
      "apps/app/package.json": { name: "@x/app", devDependencies: { "@x/lib": "*" } },
      "apps/app/src/index.ts": "export const own = 1;\n",
      "apps/app/dist/index.mjs": 'const own = await import("left-pad");\nexport { own };\n',
      "apps/app/dist/index.d.mts": 'export declare const own: import("@x/lib").T;\n',
    });
    expect(findings(root)).toEqual([
      "apps/app/dist/index.d.mts imports @x/lib, but @x/app does not declare @x/lib in dependencies or peerDependencies",
      "apps/app/dist/index.mjs imports left-pad, but @x/app does not declare left-pad in dependencies or peerDependencies",
    ]);
  });

  it("finds another workspace package's code copied into a dist, renamed or not", () => {
    const root = workspace({
      ...lib,
      "apps/app/package.json": { name: "@x/app", devDependencies: { "@x/lib": "*" } },
      "apps/app/src/index.ts": "export const own = 1;\nfunction libHelper() {}\n",
      "apps/app/dist/index.mjs":
        "function libHelper$1() {\n  return 1;\n}\nconst own = libHelper$1();\nexport { own };\n",
    });
    // app declares a libHelper of its own: the copy is found only when app does not.
    expect(findings(root)).toEqual([]);
    writeFileSync(join(root, "apps/app/src/index.ts"), "export const own = 1;\n");
    expect(findings(root)).toEqual([
      "apps/app/dist/index.mjs carries code of @x/lib (libHelper): import it as a declared dependency instead of bundling it",
    ]);
  });

  it("allows a listed optional package only through import(), and nothing outside dist/", () => {
    const root = workspace({
      "apps/verifier/package.json": { name: "@idp/verifier" },
      "apps/verifier/dist/a.mjs": 'export const p = () => import("@idp/provider");\n',
      "apps/verifier/dist/b.mjs": 'import "@idp/provider";\nimport "../../x.mjs";\n',
    });
    expect(findings(root)).toEqual([
      "apps/verifier/dist/b.mjs imports @idp/provider, but @idp/verifier does not declare @idp/provider in dependencies or peerDependencies (its optional import must be an import())",
      "apps/verifier/dist/b.mjs imports ../../x.mjs, outside its own dist/",
    ]);
  });

  it("reads package names and import forms", () => {
    expect(["@a/b/c", "a/b", "node:fs", "fs/promises", "./x"].map(packageOf)).toEqual([
      "@a/b",
      "a",
      undefined,
      undefined,
      undefined,
    ]);
    const root = workspace({
      "f.mjs":
        'export * from "a";\nexport { x } from "b";\nrequire("c");\nimport("d");\nimport(name);\n',
    });
    expect(
      importsOf(join(root, "f.mjs")).map((i) => `${i.specifier}${i.dynamic ? "()" : ""}`),
    ).toEqual(["a", "b", "c()", "d()"]);
  });
});
