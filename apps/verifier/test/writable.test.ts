// The folders a run writes into (reports, --har, --learn, --replay-dir) are made one level at a
// time: each level's own error, never Node's recursive mkdir, which never returns under /proc.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeDirs } from "../src/writable.ts";

const dir = mkdtempSync(join(tmpdir(), "idp-make-dirs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const codeOf = (f: () => void): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code;
  }
};

describe("makeDirs", () => {
  it("makes every missing level, and leaves a folder that exists as it is", () => {
    const deep = join(dir, "a", "b", "c");
    makeDirs(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    writeFileSync(join(deep, "kept"), "x");
    makeDirs(deep);
    makeDirs(join(dir, "a"));
    expect(statSync(join(deep, "kept")).isFile()).toBe(true);
  });

  it("throws the level's own error (ENOTDIR under a file); a path that exists is left alone", () => {
    writeFileSync(join(dir, "file"), "");
    expect(codeOf(() => makeDirs(join(dir, "file", "sub")))).toBe("ENOTDIR");
    mkdirSync(join(dir, "d"));
    writeFileSync(join(dir, "d", "x"), "");
    expect(codeOf(() => makeDirs(join(dir, "d", "x")))).toBeUndefined(); // exists: nothing to make
    expect(codeOf(() => makeDirs(join(dir, "d", "x", "y")))).toBe("ENOTDIR");
  });

  it.runIf(process.platform === "linux")(
    "ends with ENOENT under /proc instead of never returning",
    () => {
      expect(codeOf(() => makeDirs("/proc/idp-make-dirs-test/a/b"))).toBe("ENOENT");
    },
  );
});
