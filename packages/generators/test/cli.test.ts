import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

// End to end: the built bin, as `pnpm gen` runs it (the bin imports @idp/contracts' dist).
const pkg = fileURLToPath(new URL("..", import.meta.url));
const cli = fileURLToPath(new URL("../dist/cli.mjs", import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });

beforeAll(() => {
  for (const dir of ["../contracts", "."])
    execFileSync("pnpm", ["exec", "tsdown", "--logLevel", "error"], {
      cwd: `${pkg}/${dir}`,
      stdio: "ignore",
    });
});

describe("idp-gen (built)", () => {
  it("should keep its shebang through the build", () => {
    expect(readFileSync(cli, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("should print the same bytes for the same seed", () => {
    const a = run(["push", "--invalid", "--count", "300", "--seed", "11"]);
    const b = run(["push", "--invalid", "--count", "300", "--seed", "11"]);
    expect(a.status).toBe(0);
    expect(a.stdout.split("\n")).toHaveLength(301);
    expect(b.stdout).toBe(a.stdout);
    expect(run(["push", "--invalid", "--count", "300", "--seed", "12"]).stdout).not.toBe(a.stdout);
  });

  it("should print the drawn seed on stderr when none is given, so the run can be replayed", () => {
    const first = run(["create-schema", "--count", "5"]);
    const seed = /--seed (-?\d+)/.exec(first.stderr)?.[1];
    expect(seed).toBeDefined();
    expect(run(["create-schema", "--count", "5", "--seed", String(seed)]).stdout).toBe(
      first.stdout,
    );
  });

  it("should exit 2 with one line and no stack on bad input", () => {
    const r = run(["bogus"]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("bogus");
    expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it("should stop quietly when the reader goes away (| head)", () => {
    const r = spawnSync(
      "sh",
      ["-c", `"${process.execPath}" "${cli}" push --count 100000 --seed 1 | head -n 2; exit "$?"`],
      {
        encoding: "utf8",
      },
    );
    expect(r.stdout.trim().split("\n")).toHaveLength(2);
    expect(r.stderr).toBe("");
  });
});
