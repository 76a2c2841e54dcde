#!/usr/bin/env node
// The root README shows each command's --help as the built bins print it. `node
// scripts/readme-help.mjs` exits 1 naming the blocks that differ; `--write` rewrites them.
// (scripts/test/readme-help.test.mjs runs the same comparison in `pnpm test`.)
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The commands whose help the README shows, and their built bins. */
export const COMMANDS = [
  ["idp-verify", "apps/verifier/dist/cli.mjs"],
  ["idp-gen", "packages/generators/dist/cli.mjs"],
  ["idp-pacts", "packages/pact-consumer/dist/pacts-cli.mjs"],
];

/** A README block: "### `idp-gen --help`", a blank line, then a ```text fence. */
const block = (command) =>
  new RegExp(`(### \`${command} --help\`\\n\\n\`\`\`text\\n)([\\s\\S]*?)(\\n\`\`\`)`);

/** Version numbers change with every release; the help around them must not drift. */
export const normalise = (text) => text.replace(/\b\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b/g, "X.Y.Z");

/** What `command --help` prints (built bin), without the trailing newline. */
export function helpOf(bin, cwd = root) {
  const r = spawnSync(process.execPath, [join(cwd, bin), "--help"], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
  });
  if (r.status !== 0)
    throw new Error(`${bin} --help exited ${r.status}: ${r.stderr.trim().split("\n")[0]}`);
  return r.stdout.replace(/\n+$/, "");
}

/** The help block of `command` in `readme`, or undefined when there is none. */
export const readmeHelp = (readme, command) => block(command).exec(readme)?.[2];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = join(root, "README.md");
  let readme = readFileSync(file, "utf8");
  const stale = [];
  for (const [command, bin] of COMMANDS) {
    const help = helpOf(bin);
    const shown = readmeHelp(readme, command);
    if (shown === undefined) {
      process.stderr.write(`README.md: no "### \`${command} --help\`" block with a text fence\n`);
      process.exit(2);
    }
    if (normalise(shown) !== normalise(help)) {
      stale.push(command);
      readme = readme.replace(block(command), (_, open, _old, close) => `${open}${help}${close}`);
    }
  }
  if (process.argv.includes("--write")) {
    writeFileSync(file, readme);
    process.stdout.write(
      stale.length ? `README.md: rewrote ${stale.join(", ")}\n` : "README.md: up to date\n",
    );
  } else if (stale.length) {
    process.stderr.write(
      `README.md: the --help of ${stale.join(", ")} differs from the bin's; run node scripts/readme-help.mjs --write\n`,
    );
    process.exit(1);
  }
}
