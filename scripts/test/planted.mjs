// Planted workspaces for the repo checks' tests: files written under a fresh temp folder, removed
// after each test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

/**
 * A `plant(files)` for one test file: each call writes `files` (path to text, or to a value
 * written as JSON) under a fresh folder named `prefix...` and returns it; the folder goes after the test.
 */
export function planter(prefix) {
  const roots = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  return (files) => {
    const root = mkdtempSync(join(tmpdir(), prefix));
    roots.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), typeof text === "string" ? text : JSON.stringify(text));
    }
    return root;
  };
}
