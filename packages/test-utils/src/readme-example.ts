import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";

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
 * comments, line by line; it must also typecheck under the package's tsconfig.
 * Call it inside a `describe` of a test file of the package whose README it checks (a lexical
 * `describe` keeps the suite visible to `vitest list`).
 */
export function readmeExampleTests(packageDir: string): void {
  const readme = readFileSync(join(packageDir, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/^```ts example\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");
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

  /**
   * Type errors of the example under this package's tsconfig, as if it were a file in the package:
   * tsc (the package's own, TypeScript 7) on a copy in a fresh git-ignored folder of the package,
   * whose tsconfig extends the package's and includes only the copy (the package's tsconfig, biome
   * and turbo never see it).
   */
  function typeErrors(source: string): string[] {
    const dir = mkdtempSync(join(packageDir, ".readme-example-"));
    try {
      writeFileSync(join(dir, "example.ts"), source);
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({ extends: "../tsconfig.json", include: ["example.ts"] }),
      );
      const tsc = join(
        dirname(createRequire(join(packageDir, "package.json")).resolve("typescript/package.json")),
        "bin",
        "tsc",
      );
      // One thread: the other test files of the run use the other core.
      const run = spawnSync(
        process.execPath,
        [tsc, "-p", dir, "--pretty", "false", "--singleThreaded"],
        { cwd: packageDir, encoding: "utf8", timeout: 60_000 },
      );
      if (run.error) return [`tsc did not run: ${run.error.message}`];
      const errors: string[] = [];
      for (const line of `${run.stdout}${run.stderr}`.split("\n")) {
        if (line.trim() === "") continue;
        const at = /^(?:.*[\\/])?example\.ts\((\d+),(\d+)\): (.*)$/.exec(line);
        if (at) errors.push(`README example ${at[1]}:${at[2]}: ${at[3]}`);
        // a message's further lines, or an error outside the example (its tsconfig, a dependency)
        else if (errors.length > 0) errors[errors.length - 1] += `\n${line}`;
        else errors.push(line);
      }
      if (run.status !== 0 && errors.length === 0) errors.push(`tsc exited ${run.status}`);
      return errors;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

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

  it("typechecks under the package's tsconfig", () => {
    expect(typeErrors(code)).toEqual([]);
  });
}
