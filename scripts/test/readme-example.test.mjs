// scripts/readme-example.mjs, which each package's `typecheck` runs first: the README's one
// ```ts example block becomes .readme-example/example.ts, line for line; anything else is refused.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../readme-example.mjs", import.meta.url));
const dirs = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** A package folder holding only this README, and the script run in it. */
function run(readme) {
  const dir = mkdtempSync(join(tmpdir(), "readme-example-"));
  dirs.push(dir);
  if (readme !== undefined) writeFileSync(join(dir, "README.md"), readme);
  const r = spawnSync(process.execPath, [script], { cwd: dir, encoding: "utf8" });
  const file = join(dir, ".readme-example", "example.ts");
  return { ...r, dir, example: existsSync(file) ? readFileSync(file, "utf8") : undefined };
}

describe("readme-example.mjs", () => {
  it("writes the one ts example block, line for line, and nothing from the other fences", () => {
    const block = 'import { x } from "pkg";\n\nconsole.log(x); // → 1\n';
    const r = run(
      `# pkg\n\n\`\`\`ts\nnot this\n\`\`\`\n\n\`\`\`ts example\n${block}\`\`\`\n\nmore\n`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.example).toBe(block);
    expect(r.stdout).toBe("");
  });

  it("replaces what an earlier run wrote", () => {
    const first = run("```ts example\nconst a = 1;\n```\n");
    writeFileSync(join(first.dir, "README.md"), "```ts example\nconst b = 2;\n```\n");
    const again = spawnSync(process.execPath, [script], { cwd: first.dir, encoding: "utf8" });
    expect(again.status).toBe(0);
    expect(readFileSync(join(first.dir, ".readme-example", "example.ts"), "utf8")).toBe(
      "const b = 2;\n",
    );
  });

  it.each([
    ["no example block", "```ts\nconst a = 1;\n```\n", "has 0 ```ts example blocks"],
    ["two", "```ts example\na\n```\n\n```ts example\nb\n```\n", "has 2 ```ts example blocks"],
  ])("refuses a README with %s: exit 2, one line naming the file", (_, readme, says) => {
    const r = run(readme);
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(join(r.dir, "README.md"));
    expect(r.stderr).toContain(says);
    expect(r.stderr).toContain("expected exactly one");
    expect(r.example).toBeUndefined();
  });

  it("says so when there is no README.md: exit 2, one line", () => {
    const r = run(undefined);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^readme-example: cannot read .*README\.md: ENOENT\n$/);
  });
});
