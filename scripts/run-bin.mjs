#!/usr/bin/env node
// `pnpm verify|gen ...`: build the package (and its dependencies) through turbo's cache, quietly and
// on stderr so stdout stays the command's own output (NDJSON, reports), then run its bin with the
// caller's arguments.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [pkgName, binName, ...args] = process.argv.slice(2);
const dirs = {
  "@idp/contracts": "packages/contracts",
  "@idp/generators": "packages/generators",
  "@idp/pact-consumer": "packages/pact-consumer",
  "@idp/provider": "apps/provider",
  "@idp/verifier": "apps/verifier",
};
const dir = dirs[pkgName];
if (!dir || !binName) {
  process.stderr.write(
    `run-bin: unknown package "${pkgName}" (expected one of ${Object.keys(dirs).join(", ")})\n`,
  );
  process.exit(2);
}
// Turbo's own output is kept unless the build fails: a user's command prints only its own output.
const build = spawnSync(
  "pnpm",
  ["exec", "turbo", "run", "build", `--filter=${pkgName}...`, "--output-logs=errors-only"],
  {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" },
  },
);
if (build.status !== 0) {
  process.stderr.write(`${build.stdout ?? ""}${build.stderr ?? ""}`);
  process.stderr.write(`run-bin: building ${pkgName} failed (exit ${build.status}); see above\n`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
const bin = manifest.bin?.[binName];
if (!bin) {
  process.stderr.write(`run-bin: ${pkgName} has no bin "${binName}"\n`);
  process.exit(2);
}
const run = spawnSync(process.execPath, [join(root, dir, bin), ...args], { stdio: "inherit" });
process.exit(run.status ?? 1);
