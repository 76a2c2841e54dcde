// Shared by check-packages.mjs and pack-smoke.mjs: build the published packages through turbo's
// cache, then `pnpm pack` them (pnpm applies publishConfig and rewrites workspace:/catalog:).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..");

/** The published packages, in dependency order. */
export const PACKAGES = [
  { name: "@idp/contracts", dir: "packages/contracts" },
  { name: "@idp/generators", dir: "packages/generators" },
  { name: "@idp/pact-consumer", dir: "packages/pact-consumer" },
  { name: "@idp/provider", dir: "apps/provider" },
  { name: "@idp/verifier", dir: "apps/verifier" },
];

/** Runs a command; returns { status, stdout, stderr, ms }. Never throws. */
export function run(cmd, args, options = {}) {
  const started = performance.now();
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  return {
    status: r.status ?? (r.error ? 127 : 1),
    stdout: r.stdout ?? "",
    stderr: `${r.stderr ?? ""}${r.error ? String(r.error) : ""}`,
    ms: performance.now() - started,
  };
}

/** Builds the published packages (the verifier and everything it depends on, @idp/provider too). */
export function build() {
  return run(
    "pnpm",
    ["exec", "turbo", "run", "build", "--filter=@idp/verifier...", "--output-logs=errors-only"],
    {
      cwd: ROOT,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" },
    },
  );
}

/**
 * Packs each published package into `dest`.
 * @returns per package: { name, dir, tarball, bytes, ms } or { name, error }
 */
export function packAll(dest) {
  return PACKAGES.map(({ name, dir }) => {
    const { version } = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8"));
    const r = run("pnpm", ["pack", "--pack-destination", dest], { cwd: join(ROOT, dir) });
    const tarball = join(dest, `${name.slice(1).replace("/", "-")}-${version}.tgz`);
    if (r.status !== 0)
      return { name, dir, error: `pnpm pack exit ${r.status}: ${r.stderr.trim()}` };
    return { name, dir, tarball, bytes: statSync(tarball).size, ms: r.ms };
  });
}

/**
 * The published packages' tarballs packed earlier into `dir` (`pnpm test` packs once for the checks
 * that read them), in the shape of packAll's answer.
 */
export function findTarballs(dir) {
  return PACKAGES.map(({ name, dir: packageDir }) => {
    const prefix = `${name.slice(1).replace("/", "-")}-`;
    const found = readdirSync(dir).filter(
      (f) => f.startsWith(prefix) && /^\d/.test(f.slice(prefix.length)) && f.endsWith(".tgz"),
    );
    if (found.length !== 1)
      return {
        name,
        dir: packageDir,
        error: `expected one ${prefix}<version>.tgz in ${dir}, found ${found.length}`,
      };
    const tarball = join(dir, found[0]);
    return { name, dir: packageDir, tarball, bytes: statSync(tarball).size, ms: 0 };
  });
}
