#!/usr/bin/env node
// Checks the published packages as packed tarballs: publint, are-the-types-wrong (ESM-only
// profile) and the packed manifest itself. One line per package, then PASS/FAIL; exit 1 on any
// problem. `--tarballs DIR` checks tarballs packed earlier (CI packs once) instead of packing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build, findTarballs, packAll, ROOT, run } from "./pack-packages.mjs";

const { values } = parseArgs({ options: { tarballs: { type: "string" } } });
const started = performance.now();
const dest = values.tarballs ?? mkdtempSync(join(tmpdir(), "idp-check-packages-"));
let packs;
if (values.tarballs) {
  packs = findTarballs(dest);
} else {
  const b = build();
  if (b.status !== 0) {
    process.stderr.write(`${b.stdout}${b.stderr}check-packages: FAIL: the build failed\n`);
    process.exit(1);
  }
  packs = packAll(dest);
}

const bin = (name) => join(ROOT, "node_modules", ".bin", name);
let failed = 0;
for (const p of packs) {
  const problems = p.error
    ? [p.error]
    : [...manifestProblems(p.tarball), ...publint(p.tarball), ...attw(p.tarball)];
  failed += problems.length > 0 ? 1 : 0;
  process.stdout.write(
    problems.length === 0
      ? `ok   ${p.name}: publint, attw (esm-only) and manifest clean\n`
      : `FAIL ${p.name}: ${problems.join("; ")}\n`,
  );
}
if (!values.tarballs) rmSync(dest, { recursive: true, force: true });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(
  failed === 0
    ? `check-packages: PASS (${packs.length} packages, ${seconds} s)\n`
    : `check-packages: FAIL (${failed} of ${packs.length} packages, ${seconds} s)\n`,
);
process.exitCode = failed === 0 ? 0 : 1;

/** What the registry would receive: no workspace-only condition, no unrewritten specifiers. */
function manifestProblems(tarball) {
  const r = run("tar", ["-xzOf", tarball, "package/package.json"]);
  if (r.status !== 0) return [`cannot read package.json from ${tarball}`];
  const m = JSON.parse(r.stdout);
  const problems = [];
  // Only resolution fields matter: a script may run sources with --conditions=@idp/source.
  const text = JSON.stringify({ exports: m.exports, imports: m.imports, main: m.main });
  if (text.includes("@idp/source"))
    problems.push('packed manifest still has the "@idp/source" condition');
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"])
    for (const [dep, spec] of Object.entries(m[field] ?? {}))
      if (/^(workspace|catalog):/.test(spec))
        problems.push(`${field}.${dep} is "${spec}" (not rewritten)`);
  if (m.private) problems.push("private: true");
  if (m.type !== "module") problems.push('type is not "module"');
  for (const field of ["exports", "files", "engines", "sideEffects", "license", "repository"])
    if (m[field] === undefined) problems.push(`no "${field}"`);
  return problems;
}

function publint(tarball) {
  // --pack false: lint the tarball as packed; --strict: warnings are problems too.
  const r = run(bin("publint"), ["run", tarball, "--pack", "false", "--strict"]);
  const clean = r.status === 0 && r.stdout.includes("All good!");
  return clean ? [] : [`publint: ${lines(r.stdout + r.stderr, (l) => /^\d+\. /.test(l))}`];
}

function attw(tarball) {
  const r = run(bin("attw"), [tarball, "--profile", "esm-only", "--format", "json"]);
  if (r.status === 0) return [];
  let kinds;
  try {
    kinds = [...new Set(JSON.parse(r.stdout).analysis.problems.map((p) => p.kind))].join(", ");
  } catch {
    kinds = lines(r.stdout + r.stderr, () => true);
  }
  return [`attw (exit ${r.status}): ${kinds}`];
}

function lines(text, keep) {
  return (
    text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && keep(l))
      .join(" | ") || "(no output)"
  );
}
