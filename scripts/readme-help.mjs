#!/usr/bin/env node
// Each command's --help is shown in its package's README as the built bin prints it (the root README
// links there). `node scripts/readme-help.mjs` exits 1 naming the blocks that differ; `--write`
// rewrites them. (scripts/test/readme-help.test.mjs runs the same comparison in `pnpm test`.)
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The commands whose help a README shows: the command, its built bin, the README. */
export const COMMANDS = [
  ["idp-verify", "apps/verifier/dist/cli.mjs", "apps/verifier/README.md"],
  ["idp-gen", "packages/generators/dist/cli.mjs", "packages/generators/README.md"],
  ["idp-pacts", "packages/pact-consumer/dist/pacts-cli.mjs", "packages/pact-consumer/README.md"],
  ["idp-provider", "apps/provider/dist/cli.mjs", "apps/provider/README.md"],
];

/**
 * A README block: a line naming "`command --help`" (a heading, or "`idp-gen --help` prints:"), a
 * blank line, then a code fence (```text or ```) holding the help.
 */
const block = (command) =>
  new RegExp(`(\`${command} --help\`[^\\n]*\\n\\n\`\`\`(?:text)?\\n)([\\s\\S]*?)(\\n\`\`\`)`);

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

/** `readme` with the help block of `command` replaced by `help`. */
export const withHelp = (readme, command, help) =>
  readme.replace(block(command), (_, open, _old, close) => `${open}${help}${close}`);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes("--write");
  let stale = 0;
  for (const [command, bin, file] of COMMANDS) {
    const readme = readFileSync(join(root, file), "utf8");
    const shown = readmeHelp(readme, command);
    if (shown === undefined) {
      process.stderr.write(`${file}: no "\`${command} --help\`" line followed by a code fence\n`);
      process.exit(2);
    }
    const help = helpOf(bin);
    if (normalise(shown) === normalise(help)) continue;
    stale += 1;
    if (write) {
      writeFileSync(join(root, file), withHelp(readme, command, help));
      process.stdout.write(`${file}: rewrote the ${command} --help block\n`);
    } else
      process.stderr.write(
        `${file}: the ${command} --help block differs from the bin's; run node scripts/readme-help.mjs --write\n`,
      );
  }
  if (stale === 0) process.stdout.write("every --help block is up to date\n");
  else if (!write) process.exit(1);
}
