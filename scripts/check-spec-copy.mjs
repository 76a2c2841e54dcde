#!/usr/bin/env node
// docs/spec/*.md must stay byte-identical to the shared specification when it is present beside the
// repo (it is in CI); the repo itself only ever reads the copies.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const shared = join(root, "..", "shared", "spec");
let bad = 0;
for (const name of ["service-interface.md", "conformance.md"]) {
  const copy = join(root, "docs", "spec", name);
  if (!existsSync(copy)) {
    process.stderr.write(`check-spec-copy: docs/spec/${name} is missing\n`);
    bad += 1;
  } else if (
    existsSync(join(shared, name)) &&
    !readFileSync(copy).equals(readFileSync(join(shared, name)))
  ) {
    process.stderr.write(
      `check-spec-copy: docs/spec/${name} differs from ../shared/spec/${name}\n`,
    );
    bad += 1;
  }
}
process.exit(bad === 0 ? 0 : 1);
