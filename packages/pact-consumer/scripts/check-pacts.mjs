#!/usr/bin/env node
// pacts:check: re-record the pacts, then fail if pacts/ differs from what git has committed.
// CI runs it so a pact change always arrives as a reviewed diff (and regeneration is byte-stable).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(pkg, "..", "..");

const record = spawnSync("pnpm", ["exec", "vitest", "run", "test/idp.pact.test.ts"], {
  cwd: pkg,
  stdio: ["ignore", process.stderr, process.stderr],
});
if (record.status !== 0) {
  process.stderr.write(`pacts:check: recording the pacts failed (exit ${record.status})\n`);
  process.exit(1);
}
const status = spawnSync("git", ["status", "--porcelain", "--", "pacts/"], {
  cwd: root,
  encoding: "utf8",
});
if (status.status !== 0) {
  process.stderr.write(`pacts:check: git status failed: ${status.stderr}\n`);
  process.exit(2);
}
if (status.stdout.trim() !== "") {
  process.stderr.write(
    `pacts:check: pacts/ differs from the committed pacts after regeneration:\n${status.stdout}` +
      "Review the change (git diff -- pacts/) and commit it, or fix what made it non-deterministic.\n",
  );
  spawnSync("git", ["--no-pager", "diff", "--stat", "--", "pacts/"], {
    cwd: root,
    stdio: "inherit",
  });
  process.exit(1);
}
process.stderr.write("pacts:check: pacts/ is up to date\n");
