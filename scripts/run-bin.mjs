#!/usr/bin/env node
// `pnpm verify|gen|pacts:* ...`: run a workspace package's bin with the caller's arguments, building
// it (and its workspace dependencies) first when it must: on the first run, or after a source
// changed. Then one line says so on stderr and turbo's progress follows there (stdout stays the
// command's own: NDJSON, reports). When nothing needs building, nothing extra is printed.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildReason, recordBuild, workspacePackages } from "./lib/build-state.mjs";
import { colourWanted, noColourEnv, noiseFilter, pipeLines, plainLine } from "./lib/output.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [pkgName, binName, ...args] = process.argv.slice(2);
const packages = workspacePackages(root);
const pkg = packages.get(pkgName ?? "");
if (!pkg || !binName) {
  process.stderr.write(
    `run-bin: unknown package "${pkgName}" (expected one of ${[...packages.keys()].join(", ")})\n`,
  );
  process.exit(2);
}
const bin = pkg.manifest.bin?.[binName];
if (!bin) {
  process.stderr.write(`run-bin: ${pkgName} has no bin "${binName}"\n`);
  process.exit(2);
}

// pnpm runs a root script from the repository root and names the directory the user ran it from
// INIT_CWD: the bin runs there, so `pnpm verify --report html=r.html` from apps/ writes
// apps/r.html. (The bins read relative paths from their working directory only: an INIT_CWD they
// inherit from an outer npm script names whatever directory that script was started from.) Checked
// before anything is built.
if (process.env.INIT_CWD) {
  try {
    process.chdir(process.env.INIT_CWD);
  } catch (e) {
    process.stderr.write(
      `run-bin: cannot run in INIT_CWD ${process.env.INIT_CWD} (the directory pnpm was run from): ${e.code ?? e.message}\n`,
    );
    process.exit(2);
  }
}

const reason = buildReason(root, pkgName);
if (reason !== undefined) {
  // Measured: a fresh clone builds the verifier's five packages in 11-15 s on 2 busy cores; a
  // rebuild after a change is faster (turbo's cache skips the unchanged packages).
  const estimate = reason === "first run" ? ", about 15 s" : "";
  process.stderr.write(`building the toolkit (${reason}${estimate}) ...\n`);
  const code = await build();
  if (code !== 0) {
    process.stderr.write(`run-bin: building ${pkgName} failed (exit ${code}); see above\n`);
    process.exit(2);
  }
  recordBuild(root, pkgName);
}
// The bin runs in this process, as if started itself (its argv, its exit code): a second Node
// would cost every run its start-up (about a tenth of a second here).
const binPath = join(pkg.dir, bin);
process.argv = [process.argv[0] ?? process.execPath, binPath, ...args];
await import(pathToFileURL(binPath).href);

/**
 * `turbo run build --filter=<pkg>...`, its output on stderr, line by line: tasks as they start and
 * finish and turbo's summary, without tsdown's per-file lines and timings; coloured only when
 * stderr is a terminal that wants colour.
 */
async function build() {
  const colour = colourWanted(process.stderr.isTTY === true, process.env);
  const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" };
  const launcher = join(root, "node_modules", "turbo", "bin", "turbo");
  const [cmd, pre] = existsSync(launcher)
    ? [process.execPath, [launcher]]
    : ["pnpm", ["exec", "turbo"]];
  const child = spawn(
    cmd,
    [
      ...pre,
      "run",
      "build",
      `--filter=${pkgName}...`,
      "--output-logs=new-only",
      colour ? "--color" : "--no-color",
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: colour ? env : noColourEnv(env) },
  );
  const exited = new Promise((resolve) => {
    child.on("close", (code) => resolve(code));
    child.on("error", () => resolve(null));
  });
  const filter = () => {
    const noise = noiseFilter();
    return (line) => {
      const plain = plainLine(line);
      if (noise(plain) === undefined) return undefined;
      return colour ? line : plain;
    };
  };
  const toStderr = (t) => process.stderr.write(t);
  await Promise.all([
    pipeLines(child.stdout, toStderr, filter()),
    pipeLines(child.stderr, toStderr, filter()),
  ]);
  return exited;
}
