// Folders of planted files for the repo checks' tests, each removed after its test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

/**
 * Returns `plant(files)`: a fresh folder holding `files` (path to text; any other value is written
 * as JSON), removed after the test that made it.
 */
export function planter(prefix) {
  const made = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (files) => {
    const root = mkdtempSync(join(tmpdir(), prefix));
    made.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), typeof text === "string" ? text : JSON.stringify(text));
    }
    return root;
  };
}
