// When `pnpm verify|gen` must build first, on a workspace of real files in a temporary directory.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  buildReason,
  recordBuild,
  withDependencies,
  workspacePackages,
} from "../lib/build-state.mjs";

let root;
const HOUR_AGO = Date.now() / 1000 - 3600;
/** Writes a file an hour old (so anything written later is newer). */
const put = (path, text, when = HOUR_AGO) => {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, when, when);
};
/** Writes a file now. */
const edit = (path, text) => put(path, text, Date.now() / 1000);
const manifest = (name, extra = {}) => JSON.stringify({ name, version: "1.0.0", ...extra });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "build-state-"));
  put("tsconfig.base.json", "{}");
  put("packages/a/package.json", manifest("@f/a", { scripts: { build: "x" } }));
  put("packages/a/src/index.ts", "export const a = 1;\n");
  put("packages/a/README.md", "# a\n");
  put("packages/a/test/a.test.ts", "// a test\n");
  put("packages/helpers/package.json", manifest("@f/helpers")); // no build: never waited for
  put(
    "apps/b/package.json",
    manifest("@f/b", {
      scripts: { build: "x" },
      dependencies: { "@f/a": "workspace:*", zod: "^4" },
      devDependencies: { "@f/helpers": "workspace:*" },
    }),
  );
  put("apps/b/src/cli.ts", "import '@f/a';\n");
  put("apps/other/package.json", manifest("@f/other", { scripts: { build: "x" } }));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const buildAll = () => {
  edit("packages/a/dist/index.mjs", "built");
  edit("apps/b/dist/cli.mjs", "built");
};

describe("workspace packages", () => {
  it("lists packages/* and apps/* by name, and a package's workspace dependencies", () => {
    const packages = workspacePackages(root);
    expect([...packages.keys()].sort()).toEqual(["@f/a", "@f/b", "@f/helpers", "@f/other"]);
    expect(withDependencies(packages, "@f/b").sort()).toEqual(["@f/a", "@f/b", "@f/helpers"]);
  });
});

describe("buildReason", () => {
  it("says 'first run' when nothing is built, names a package that is not", () => {
    expect(buildReason(root, "@f/b")).toBe("first run");
    edit("packages/a/dist/index.mjs", "built");
    expect(buildReason(root, "@f/b")).toBe("@f/b is not built");
    expect(buildReason(root, "@f/a")).toBeUndefined();
  });

  it("needs nothing when every dist/ is newer than its sources; an unrelated package does not count", () => {
    buildAll();
    expect(buildReason(root, "@f/b")).toBeUndefined();
    edit("apps/other/src/x.ts", "changed");
    expect(buildReason(root, "@f/b")).toBeUndefined();
  });

  it("sees a changed source in the package or a dependency, and the shared tsconfig", () => {
    buildAll();
    edit("packages/a/src/index.ts", "export const a = 2;\n");
    expect(buildReason(root, "@f/b")).toBe("sources changed since the last build");
    buildAll();
    edit("tsconfig.base.json", '{"compilerOptions":{}}');
    expect(buildReason(root, "@f/b")).toBe("sources changed since the last build");
  });

  it("ignores tests, READMEs and changelogs (not build inputs)", () => {
    buildAll();
    edit("packages/a/test/a.test.ts", "// another test\n");
    edit("packages/a/src/a.test.ts", "// a test next to the source\n");
    edit("packages/a/README.md", "# a, better\n");
    edit("packages/a/CHANGELOG.md", "# a\n\n## Unreleased\n");
    expect(buildReason(root, "@f/b")).toBeUndefined();
  });

  it("after a build it recorded, needs nothing for files touched but unchanged (git checkout)", () => {
    buildAll();
    edit("packages/a/src/index.ts", "export const a = 3;\n");
    expect(buildReason(root, "@f/b")).toBe("sources changed since the last build");
    // turbo's cache hit leaves dist/ as it was (older than the edit): the digest decides.
    recordBuild(root, "@f/b");
    expect(buildReason(root, "@f/b")).toBeUndefined();
    edit("packages/a/src/index.ts", "export const a = 3;\n"); // touched, same bytes
    expect(buildReason(root, "@f/b")).toBeUndefined();
    edit("packages/a/src/index.ts", "export const a = 4;\n");
    expect(buildReason(root, "@f/b")).toBe("sources changed since the last build");
    edit("packages/a/src/new.ts", "export {};\n"); // and a new file is a change too
    recordBuild(root, "@f/b");
    rmSync(join(root, "packages/a/src/new.ts"));
    edit("packages/a/src/index.ts", "export const a = 4;\n");
    expect(buildReason(root, "@f/b")).toBe("sources changed since the last build");
  });
});
