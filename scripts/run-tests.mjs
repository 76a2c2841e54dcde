#!/usr/bin/env node
// The README's test command: build every package through turbo (cached); then, at the same time,
// typecheck, lint and test them through turbo, the repository scripts' tests and the repo-level checks
// (each check's output printed whole when it ends); and end with one plain "N passed, N failed" line
// for the whole run. On 2 cores the run is CPU-bound: the checks that mostly wait (npm install, a
// broker's start) run beside the tests instead of after them.
// Vitest tests count one each; every other step (a package's build, typecheck or lint, a repo check)
// counts as one check.
// On a terminal, the tools print as they like. Piped (a CI log, `| less`), every line goes through
// a filter: no escape codes (turbo replays cached logs as they were recorded, colours included) and
// no tool noise; the children are asked for no colour too.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { failedTests } from "./lib/failed-tests.mjs";
import { colourWanted, noColourEnv, noiseFilter, pipeLines, plainLine } from "./lib/output.mjs";
import { packAll } from "./pack-packages.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const plain = !colourWanted(process.stdout.isTTY === true, process.env);
// Node's compile cache for every Node process of the run (vitest and its workers, and the bins the
// tests start, several from TypeScript sources: ~150 files stripped and compiled again by each).
// Measured on the verifier's tests alone: 244 CPU-s with it against 262 without; a bin started from
// src/ 0.55 CPU-s against 1.0. Node checks each entry against the file's content, so a stale one is
// never used; turbo passes the variable through (turbo.json), outside the tasks' hashes.
const compileCache =
  process.env.NODE_COMPILE_CACHE || join(root, "node_modules", ".cache", "node-compile-cache");
const baseEnv = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: "1",
  PACT_DO_NOT_TRACK: "true",
  NODE_COMPILE_CACHE: compileCache,
};
const env = plain ? noColourEnv(baseEnv) : baseEnv;

/**
 * Runs a command from the repository root. Live, its output goes straight on (piped: through the
 * filter); otherwise it is kept and printed whole, under `label`, when the command ends, so checks
 * that run at the same time never interleave their lines.
 * @returns {Promise<number | null>} the exit status
 */
async function run(cmd, args, { label, live = false, background = false } = {}) {
  if (background && process.platform !== "win32")
    [cmd, args] = ["nice", ["-n", "10", cmd, ...args]];
  if (live && !plain) {
    const child = spawn(cmd, args, { cwd: root, stdio: "inherit", env });
    return new Promise((resolve) => {
      child.on("close", (code) => resolve(code));
      child.on("error", () => resolve(null));
    });
  }
  const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env });
  const exited = new Promise((resolve) => {
    child.on("close", (code) => resolve(code));
    child.on("error", () => resolve(null));
  });
  let kept = "";
  const write = live ? (t) => process.stdout.write(t) : (t) => (kept += t);
  const writeErr = live ? (t) => process.stderr.write(t) : (t) => (kept += t);
  const through = () => {
    if (!plain) return (line) => line;
    const noise = noiseFilter();
    return (line) => noise(plainLine(line));
  };
  await Promise.all([
    pipeLines(child.stdout, write, through()),
    pipeLines(child.stderr, writeErr, through()),
  ]);
  const status = await exited;
  if (!live) process.stdout.write(`\n> ${label}\n${kept}`);
  return status;
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
/** One check: passed when its status is 0. */
const count = (label, status) => {
  if (status === 0) passed += 1;
  else {
    failed += 1;
    failures.push(`${label} (exit ${status})`);
  }
};
const turbo = (args, { background = false } = {}) =>
  run(
    "pnpm",
    [
      "exec",
      "turbo",
      "run",
      ...args,
      "--continue",
      "--summarize",
      ...(plain ? ["--no-color"] : []),
    ],
    { live: true, background },
  );

const summaryDir = join(root, ".turbo", "runs");
rmSync(summaryDir, { recursive: true, force: true });

// 1. The builds: everything after reads dist/.
const buildStatus = await turbo(["build"]);

// 2. Packed once for the two checks that read the tarballs. A failed build or pack leaves them to
// build and pack by themselves (and say what failed).
const tarballs = mkdtempSync(join(tmpdir(), "idp-test-tarballs-"));
const packed = buildStatus === 0 && packAll(tarballs).every((p) => !p.error);
const fromTarballs = packed ? ["--tarballs", tarballs] : [];

// 3. At the same time: typecheck, lint and test through turbo (after a good build, the tasks alone:
// their builds are done), the scripts' tests, and the repo checks.
const scriptsReport = join(root, "scripts", ".vitest-report.json");
rmSync(scriptsReport, { force: true });
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
    "typecheck of every package but the verifier, in one program (tsc)",
    process.execPath,
    [join(root, "scripts", "typecheck-together.mjs")],
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
    [join(root, "scripts", "check-packages.mjs"), ...fromTarballs],
  ],
  // Installs the packed tarballs into an empty project with npm (needs the npm registry; never cached).
  // At the normal priority, as the verifier's tests (below): a chain of some 30 steps, one after
  // the other, that lowered ended the run 100 s after everything else (58 CPU-s in 334 s).
  [
    "packed tarballs install and work (idp-verify, idp-gen, a consumer, a real verification)",
    process.execPath,
    [join(root, "scripts", "pack-smoke.mjs"), ...fromTarballs],
    { background: false },
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
];
// Two test runs are the run's critical path, each a long chain: the verifier's (about half of the
// run's CPU, 300 of 620 CPU-s by process accounting, and, run beside everything else, still going
// 100 s after every other task had ended) and pact-consumer's (its broker tests: some 50 bins
// started one after the other against a broker). They run at the normal priority and everything
// else at a lower one (nice 10), so the cores go to them first and the other tasks fill the time
// they spend waiting (timers, throttling gateways, brokers). After a failed build, one turbo run
// does it all and shows which build failed.
const CHAINS = ["@idp/verifier", "@idp/pact-consumer"];
const background = { background: true };
// The typecheck: the verifier's own task, and one program for the other packages (a repo check
// above, scripts/typecheck-together.mjs: a program per package checked the siblings' sources again).
const tasks =
  buildStatus === 0
    ? Promise.all([
        turbo(["test", "--only", ...CHAINS.map((p) => `--filter=${p}`)]),
        turbo(["test", "--only", ...CHAINS.map((p) => `--filter=!${p}`)], background),
        turbo(["lint", "--only"], background),
        turbo(["typecheck", "--only", "--filter=@idp/verifier"], background),
      ]).then((codes) => codes.find((c) => c !== 0) ?? 0)
    : turbo(["typecheck", "lint", "test"]);
const [turboStatus, scriptsStatus, checkStatuses] = await Promise.all([
  tasks,
  // The repository scripts' own tests (run-bin, this output filter, the READMEs' --help blocks
  // against the bins just built, the Markdown link check), counted per test like a package's.
  run(
    "pnpm",
    [
      "exec",
      "vitest",
      "run",
      "--config",
      "scripts/vitest.config.mjs",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${scriptsReport}`,
    ],
    { label: "the repository scripts' tests (scripts/test)", background: true },
  ),
  Promise.all(
    repoChecks.map(([label, cmd, args, options]) =>
      run(cmd, args, { label, background: true, ...options }),
    ),
  ),
]);
rmSync(tarballs, { recursive: true, force: true });

// Each turbo task but the tests (counted per test below) is one check.
const summaries = existsSync(summaryDir)
  ? readdirSync(summaryDir).filter((f) => f.endsWith(".json"))
  : [];
/** Each package's test task's exit code (a worker that crashed leaves a report without failures). */
const testExit = new Map();
for (const file of summaries) {
  const summary = JSON.parse(readFileSync(join(summaryDir, file), "utf8"));
  for (const task of summary.tasks ?? []) {
    const code = task.execution?.exitCode;
    if (task.task === "test") {
      // Counted per test below; how the run ended is kept for a run whose report has no failure.
      testExit.set(task.package, code);
      continue;
    }
    if (code === undefined || code === null) continue; // not run (dependency failed): counted there
    if (code === 0) passed += 1;
    else {
      failed += 1;
      failures.push(`${task.taskId} exited ${code}`);
    }
  }
}
if (summaries.length < 2 && (buildStatus !== 0 || turboStatus !== 0)) {
  failed += 1;
  failures.push(`turbo exited ${buildStatus || turboStatus} without a run summary`);
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
  if (r.numFailedTests > 0)
    failures.push(
      [`${name}: ${r.numFailedTests} test(s) failed`, ...failedTests(r, dir)].join("\n"),
    );
  // A test that neither passed nor failed did not run to its end (a skipped one, or every test of a
  // file whose worker crashed): never a pass.
  const notRun = r.numTotalTests - r.numPassedTests - r.numFailedTests;
  if (notRun > 0) {
    failed += notRun;
    failures.push(`${name}: ${notRun} test(s) did not run to their end`);
  }
  if (r.numFailedTestSuites > 0 && r.numFailedTests === 0 && notRun === 0) {
    failed += r.numFailedTestSuites;
    failures.push(`${name}: ${r.numFailedTestSuites} test file(s) failed to run`);
  }
  const exit = testExit.get(name);
  if (
    exit !== undefined &&
    exit !== null &&
    exit !== 0 &&
    r.numFailedTests === 0 &&
    notRun === 0 &&
    r.numFailedTestSuites === 0
  ) {
    failed += 1;
    failures.push(`${name}: its test run exited ${exit} (an unhandled error)`);
  }
}

if (existsSync(scriptsReport)) {
  const r = JSON.parse(readFileSync(scriptsReport, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numFailedTests === 0 ? r.numFailedTestSuites : 0);
  if (r.numFailedTests > 0)
    failures.push(
      [`scripts: ${r.numFailedTests} test(s) failed`, ...failedTests(r, root)].join("\n"),
    );
  else if (r.numFailedTestSuites > 0)
    failures.push(`scripts: ${r.numFailedTestSuites} test file(s) failed to run`);
} else {
  failed += 1;
  failures.push(`scripts: no test report (vitest exited ${scriptsStatus})`);
}

for (const [i, [label]] of repoChecks.entries()) count(label, checkStatuses[i]);

// The pact-consumer tests above re-recorded pacts/; a byte of difference from git fails here.
process.stdout.write("\n> pacts/ unchanged after regeneration\n");
const pacts = spawnSync("git", ["status", "--porcelain", "--", "pacts/"], {
  cwd: root,
  encoding: "utf8",
});
const pactsSame = pacts.status === 0 && pacts.stdout.trim() === "";
if (!pactsSame)
  process.stderr.write(
    `pacts/ differs from git after regeneration:\n${pacts.stdout}${pacts.stderr}`,
  );
count("pacts/ unchanged after regeneration", pactsSame ? 0 : 1);

if (failures.length > 0)
  process.stdout.write(`\nFailed:\n${failures.map((f) => `  - ${f}`).join("\n")}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 && buildStatus === 0 && turboStatus === 0 ? 0 : 1;
