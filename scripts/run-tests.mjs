#!/usr/bin/env node
// The README's test command: build, typecheck, lint and test every package through turbo (cached),
// then the repo-level checks, and end with one plain "N passed, N failed" line for the whole run.
// Vitest tests count one each; every other step (a package's build, typecheck or lint, a repo check)
// counts as one check.
// On a terminal, the tools print as they like. Piped (a CI log, `| less`), every line goes through
// a filter: no escape codes (turbo replays cached logs as they were recorded, colours included) and
// no tool noise; the children are asked for no colour too.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { colourWanted, noColourEnv, noiseFilter, pipeLines, plainLine } from "./lib/output.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const plain = !colourWanted(process.stdout.isTTY === true, process.env);
const baseEnv = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", PACT_DO_NOT_TRACK: "true" };
const env = plain ? noColourEnv(baseEnv) : baseEnv;

/**
 * Runs a command from the repository root; piped, its output goes through the filter.
 * @returns {Promise<number | null>} the exit status
 */
async function run(cmd, args) {
  if (!plain) return spawnSync(cmd, args, { cwd: root, stdio: "inherit", env }).status;
  const child = spawn(cmd, args, { cwd: root, stdio: ["inherit", "pipe", "pipe"], env });
  const exited = new Promise((resolve) => {
    child.on("close", (code) => resolve(code));
    child.on("error", () => resolve(null));
  });
  const through = () => {
    const noise = noiseFilter();
    return (line) => noise(plainLine(line));
  };
  await Promise.all([
    pipeLines(child.stdout, (t) => process.stdout.write(t), through()),
    pipeLines(child.stderr, (t) => process.stderr.write(t), through()),
  ]);
  return exited;
}
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
const turboStatus = await run("pnpm", [
  "exec",
  "turbo",
  "run",
  "build",
  "typecheck",
  "lint",
  "test",
  "--continue",
  "--summarize",
  ...(plain ? ["--no-color"] : []),
]);
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
} else if (turboStatus !== 0) {
  failed += 1;
  failures.push(`turbo exited ${turboStatus} without a run summary`);
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

// The repository scripts' own tests (run-bin, this output filter, the READMEs' --help blocks against
// the bins just built, the Markdown link check), counted per test like a package's.
const scriptsReport = join(root, "scripts", ".vitest-report.json");
rmSync(scriptsReport, { force: true });
process.stdout.write("\n> the repository scripts' tests (scripts/test)\n");
const scriptsStatus = await run("pnpm", [
  "exec",
  "vitest",
  "run",
  "--config",
  "scripts/vitest.config.mjs",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${scriptsReport}`,
]);
if (existsSync(scriptsReport)) {
  const r = JSON.parse(readFileSync(scriptsReport, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numFailedTests === 0 ? r.numFailedTestSuites : 0);
  if (r.numFailedTests > 0) failures.push(`scripts: ${r.numFailedTests} test(s) failed`);
  else if (r.numFailedTestSuites > 0)
    failures.push(`scripts: ${r.numFailedTestSuites} test file(s) failed to run`);
} else {
  failed += 1;
  failures.push(`scripts: no test report (vitest exited ${scriptsStatus})`);
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
      "tsdown.shared.ts",
    ],
  ],
  [
    "docs/spec is identical to the shared spec",
    process.execPath,
    [join(root, "scripts", "check-spec-copy.mjs")],
  ],
  [
    "no import cycle in any package's src/, type-only imports included (madge)",
    process.execPath,
    [join(root, "scripts", "check-cycles.mjs")],
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
    "every dist imports only its declared dependencies and bundles no other package's code",
    process.execPath,
    [join(root, "scripts", "check-dist-deps.mjs")],
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
  [
    "every relative link and anchor of the Markdown files resolves",
    process.execPath,
    [join(root, "scripts", "check-md-links.mjs")],
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
  process.stdout.write(`\n> ${label}\n`);
  const status = typeof cmd === "function" ? cmd() : await run(cmd, args);
  if (status === 0) passed += 1;
  else {
    failed += 1;
    failures.push(`${label} (exit ${status})`);
  }
}

if (failures.length > 0)
  process.stdout.write(`\nFailed:\n${failures.map((f) => `  - ${f}`).join("\n")}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 && turboStatus === 0 ? 0 : 1;
