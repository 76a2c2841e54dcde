// `pnpm verify|gen` through scripts/run-bin.mjs, on a workspace of two packages in a temporary
// directory: the real script, the real turbo (npm as its package manager: no install ever runs).
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const npm = spawnSync("npm", ["--version"], { encoding: "utf8" });
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape codes are what it looks for
const ESC = /\x1b/;

let root;
const put = (path, text) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
// Copies src/ to dist/; fails when src/FAIL exists (a compile error).
const BUILD = `import { cpSync, existsSync } from "node:fs";
if (existsSync("src/FAIL")) { console.error("error TS2304: Cannot find name 'oops'."); process.exit(1); }
cpSync("src", "dist", { recursive: true });
console.log("ℹ dist/cli.mjs  0.10 kB");`;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "run-bin-")));
  // The directories a user runs `pnpm <bin>` from (pnpm names it INIT_CWD).
  mkdirSync(join(root, "user", "project"), { recursive: true });
  mkdirSync(join(root, "user", "elsewhere"), { recursive: true });
  mkdirSync(join(root, "scripts", "lib"), { recursive: true });
  copyFileSync(join(repo, "scripts", "run-bin.mjs"), join(root, "scripts", "run-bin.mjs"));
  for (const f of readdirSync(join(repo, "scripts", "lib")))
    copyFileSync(join(repo, "scripts", "lib", f), join(root, "scripts", "lib", f));
  const launcher = realpathSync(join(repo, "node_modules", "turbo", "bin", "turbo"));
  put("node_modules/turbo/bin/turbo", `require(${JSON.stringify(launcher)});\n`);
  put(
    "package.json",
    JSON.stringify({
      name: "fake",
      private: true,
      packageManager: `npm@${npm.stdout.trim()}`,
      workspaces: ["packages/*", "apps/*"],
    }),
  );
  put(
    "turbo.json",
    JSON.stringify({ tasks: { build: { dependsOn: ["^build"], outputs: ["dist/**"] } } }),
  );
  put("tsconfig.base.json", "{}");
  put(
    "packages/a/package.json",
    JSON.stringify({ name: "@f/a", version: "1.0.0", scripts: { build: "node build.mjs" } }),
  );
  put("packages/a/build.mjs", BUILD);
  put("packages/a/src/index.mjs", "export const a = 'a';\n");
  put(
    "apps/b/package.json",
    JSON.stringify({
      name: "@f/b",
      version: "1.0.0",
      bin: { "fake-b": "./dist/cli.mjs" },
      scripts: { build: "node build.mjs" },
      dependencies: { "@f/a": "workspace:*" },
    }),
  );
  put("apps/b/build.mjs", BUILD);
  put(
    "apps/b/src/cli.mjs",
    `console.log("b says " + process.argv.slice(2).join(" ") + " in " + process.cwd());
process.exitCode = Number(process.argv[2] === "--exit" ? process.argv[3] : 0);\n`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const runBin = (args, env = {}) =>
  spawnSync(process.execPath, [join(root, "scripts", "run-bin.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      INIT_CWD: join(root, "user", "project"),
      ...env,
    },
  });

describe.skipIf(npm.status !== 0)("scripts/run-bin.mjs", () => {
  it("builds on the first run: one line saying so, then turbo's progress, all on stderr", () => {
    const r = runBin(["@f/b", "fake-b", "hello"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`b says hello in ${join(root, "user", "project")}\n`);
    const lines = r.stderr.split("\n");
    expect(lines[0]).toBe("building the toolkit (first run, about 15 s) ...");
    expect(lines.filter((l) => l.startsWith("building the toolkit"))).toHaveLength(1);
    // turbo's progress, not hidden: both tasks as they run, and its summary.
    expect(r.stderr).toMatch(/@f\/a:build: cache miss, executing/);
    expect(r.stderr).toMatch(/@f\/b:build: cache miss, executing/);
    expect(r.stderr).toMatch(/Tasks: +2 successful, 2 total/);
    // ...without the build tool's per-file lines, and without escape codes in a pipe.
    expect(r.stderr).not.toContain("ℹ dist/cli.mjs");
    expect(r.stderr).not.toMatch(ESC);
  });

  it("prints nothing extra when nothing needs building, and passes arguments, the directory pnpm ran in (INIT_CWD) and the exit code", () => {
    const r = runBin(["@f/b", "fake-b", "--exit", "3"], {
      INIT_CWD: join(root, "user", "elsewhere"),
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`b says --exit 3 in ${join(root, "user", "elsewhere")}\n`);
    expect(r.status).toBe(3);
  });

  it("exits 2 with one line when INIT_CWD is no directory it can run in", () => {
    const r = runBin(["@f/b", "fake-b"], { INIT_CWD: join(root, "user", "gone") });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `run-bin: cannot run in INIT_CWD ${join(root, "user", "gone")} (the directory pnpm was run from): ENOENT\n`,
    );
  });

  it("rebuilds after a dependency's source changed, saying why", () => {
    put("packages/a/src/index.mjs", "export const a = 'A';\n");
    const r = runBin(["@f/b", "fake-b"]);
    expect(r.status).toBe(0);
    expect(r.stderr.split("\n")[0]).toBe(
      "building the toolkit (sources changed since the last build) ...",
    );
    expect(r.stderr).toMatch(/@f\/a:build: cache miss, executing/);
    expect(runBin(["@f/b", "fake-b"]).stderr).toBe("");
  });

  it("exits 2 when the build fails, with the build's error and one line of its own", () => {
    put("packages/a/src/FAIL", "");
    try {
      const r = runBin(["@f/b", "fake-b"]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("error TS2304: Cannot find name 'oops'.");
      expect(r.stderr.trimEnd().split("\n").at(-1)).toMatch(
        /^run-bin: building @f\/b failed \(exit \d+\); see above$/,
      );
    } finally {
      rmSync(join(root, "packages/a/src/FAIL"));
    }
  });

  it("names the packages it knows when asked for another", () => {
    const r = runBin(["@f/nope", "x"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('run-bin: unknown package "@f/nope" (expected one of @f/a, @f/b)\n');
  });
});
