#!/usr/bin/env node
// `pnpm packages:pack [--out DIR]`: the release tarballs of the four published packages, for
// installing the toolkit where the npm registry does not have it (a GitHub release's assets, a
// provider repository's CI; docs/releasing.md). Builds through turbo's cache, `pnpm pack`s each
// package (publishConfig applied, workspace:/catalog: rewritten to exact versions), and writes
// SHA256SUMS beside them (`sha256sum -c SHA256SUMS`). Default DIR: dist/release (git-ignored).
// Exit 0 packed, 1 the build or a pack failed, 2 bad arguments.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { build, packAll, ROOT } from "./pack-packages.mjs";

let values;
try {
  ({ values } = parseArgs({ options: { out: { type: "string" } }, allowPositionals: false }));
} catch (e) {
  process.stderr.write(
    `packages:pack: ${e.message.split("\n")[0]} (usage: pnpm packages:pack [--out DIR])\n`,
  );
  process.exit(2);
}
const out = resolve(values.out ?? join(ROOT, "dist", "release"));
const shown = relative(process.cwd(), out) || ".";

const b = build();
if (b.status !== 0) {
  process.stderr.write(`${b.stdout}${b.stderr}packages:pack: the build failed\n`);
  process.exit(1);
}
// No older tarball of ours stays beside the new ones: SHA256SUMS lists exactly what is there.
mkdirSync(out, { recursive: true });
for (const name of readdirSync(out))
  if (/^idp-[a-z-]+-\d[\w.+-]*\.tgz$/.test(name) || name === "SHA256SUMS")
    rmSync(join(out, name), { force: true });
const packs = packAll(out);
const failed = packs.filter((p) => p.error);
if (failed.length > 0) {
  for (const p of failed) process.stderr.write(`packages:pack: ${p.name}: ${p.error}\n`);
  process.exit(1);
}
const sums = packs.map(
  (p) =>
    `${createHash("sha256").update(readFileSync(p.tarball)).digest("hex")}  ${basename(p.tarball)}`,
);
writeFileSync(join(out, "SHA256SUMS"), `${sums.join("\n")}\n`);

process.stdout.write(`packages:pack: ${packs.length} tarballs in ${shown}, with SHA256SUMS\n`);
for (const p of packs)
  process.stdout.write(`  ${basename(p.tarball)}  ${(p.bytes / 1024).toFixed(1)} kB\n`);
process.stdout.write(
  `install them together (each pins the others' exact version):\n  npm install ${packs.map((p) => `./${basename(p.tarball)}`).join(" ")}\n`,
);
