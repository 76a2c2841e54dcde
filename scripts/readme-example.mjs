#!/usr/bin/env node
// A package's `typecheck` runs this first: the one ```ts example block of its README.md is written
// to .readme-example/example.ts (git-ignored, line for line), which the package's tsconfig
// includes, so the example typechecks in the package's own tsc program, as a file of the package.
// (A separate tsc per example, in its test, cost each run ~3 s of CPU: the package's whole program
// again.) Its test (packages/test-utils/src/readme-example.ts) runs the block and checks its output.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
// The one reading of an example block, the test's too (Node strips its types).
import { readmeExampleBlocks } from "../packages/test-utils/src/readme-blocks.ts";

const dir = process.argv[2] ?? process.cwd();
const readme = join(dir, "README.md");
const out = join(dir, ".readme-example");
let text;
try {
  text = readFileSync(readme, "utf8");
} catch (e) {
  process.stderr.write(`readme-example: cannot read ${readme}: ${e.code ?? e.message}\n`);
  process.exit(2);
}
const blocks = readmeExampleBlocks(text);
if (blocks.length !== 1) {
  process.stderr.write(
    `readme-example: ${readme} has ${blocks.length} \`\`\`ts example blocks; expected exactly one\n`,
  );
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
writeFileSync(join(out, "example.ts"), blocks[0]);
