import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { readmeExampleBlocks } from "./readme-blocks.ts";

const ARROW = "// → ";

const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

/**
 * The README's example is executable documentation (style P20): the one block fenced as
 * ```ts example is run as a user would paste it, and what it prints must equal its `// → ...`
 * comments, line by line. It also typechecks as a file of the package: the package's `typecheck`
 * writes it to .readme-example/example.ts (scripts/readme-example.mjs), which its tsconfig includes.
 * Call it inside a `describe` of a test file of the package whose README it checks (a lexical
 * `describe` keeps the suite visible to `vitest list`).
 */
export function readmeExampleTests(packageDir: string): void {
  const readme = readFileSync(join(packageDir, "README.md"), "utf8");
  const blocks = readmeExampleBlocks(readme);
  const code = blocks[0] ?? "";
  /** What the example says it prints: every `// → ...` comment, in order. */
  const expected = code.split("\n").flatMap((line) => {
    const at = line.indexOf(ARROW);
    return at === -1 ? [] : [line.slice(at + ARROW.length).trimEnd()];
  });

  /** A JSON comment is compared as JSON (spacing aside); any other comment as exact text. */
  const compared = (printed: readonly string[]) =>
    printed.map((line, i) => {
      const want = expected[i];
      if (want === undefined || !parseJson(want).ok) return line;
      const got = parseJson(line);
      return got.ok ? got.value : line;
    });

  it("has exactly one ```ts example block, stating its output in // → comments", () => {
    expect(blocks).toHaveLength(1);
    expect(expected.length).toBeGreaterThan(0);
  });

  it("runs as pasted and prints what its // → comments say", () => {
    // Fed on stdin with the package dir as cwd: bare imports resolve through this package's
    // node_modules and its own name through self-reference, as in a user's project.
    const run = spawnSync(
      process.execPath,
      ["--conditions=@idp/source", "--input-type=module-typescript"],
      { cwd: packageDir, input: code, encoding: "utf8", timeout: 60_000 },
    );
    expect(run.error, "node could not run the example").toBeUndefined();
    expect(run.stderr, "the example wrote to stderr").toBe("");
    expect(run.status, "exit status of the example").toBe(0);
    const printed = run.stdout.split("\n");
    if (printed.at(-1) === "") printed.pop();
    expect(compared(printed), "printed lines vs the example's // → comments").toEqual(
      expected.map((want) => {
        const parsed = parseJson(want);
        return parsed.ok ? parsed.value : want;
      }),
    );
  });
}
