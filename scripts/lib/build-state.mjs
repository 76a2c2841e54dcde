// Whether `pnpm verify|gen|pacts:*` must build first: a package's dist/ is missing, or a source it
// is built from changed. Turbo would answer too, but asking it costs about a second on every run;
// file times (and, when they say "maybe", a digest of the sources) answer in milliseconds.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/**
 * The workspace's packages by name (packages/* and apps/*, as pnpm-workspace.yaml lists them).
 * @param {string} root
 * @returns {Map<string, { dir: string, manifest: any }>}
 */
export function workspacePackages(root) {
  const packages = new Map();
  for (const top of ["packages", "apps"]) {
    if (!existsSync(join(root, top))) continue;
    for (const d of readdirSync(join(root, top), { withFileTypes: true })) {
      const file = join(root, top, d.name, "package.json");
      if (!d.isDirectory() || !existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, "utf8"));
      packages.set(manifest.name, { dir: join(root, top, d.name), manifest });
    }
  }
  return packages;
}

const DEPENDENCY_FIELDS = [
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
];

/**
 * `name` and every workspace package it depends on, directly or not (what turbo's
 * `--filter=name...` builds).
 * @param {Map<string, { dir: string, manifest: any }>} packages
 * @param {string} name
 */
export function withDependencies(packages, name) {
  const seen = new Set();
  const visit = (n) => {
    if (seen.has(n) || !packages.has(n)) return;
    seen.add(n);
    const { manifest } = packages.get(n);
    for (const field of DEPENDENCY_FIELDS)
      for (const [dep, range] of Object.entries(manifest[field] ?? {}))
        if (String(range).startsWith("workspace:")) visit(dep);
  };
  visit(name);
  return [...seen];
}

// Not build inputs (turbo.json's build task leaves out tests, READMEs, changelogs and benchmarks),
// or outputs and caches.
const SKIP_DIRS = new Set(["node_modules", "dist", "test", "bench", "coverage"]);
const skipFile = (name) =>
  name.endsWith(".test.ts") ||
  name === "README.md" ||
  name === "CHANGELOG.md" ||
  name === ".vitest-report.json";

/**
 * The files under `dir` (with their modification times), sorted; `inputs` applies the rules above.
 * @returns {{ path: string, mtimeMs: number }[]}
 */
function filesUnder(dir, inputs) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) {
        if (!(inputs && (SKIP_DIRS.has(e.name) || e.name.startsWith(".")))) walk(path);
      } else if (e.isFile() && !(inputs && skipFile(e.name)))
        out.push({ path, mtimeMs: statSync(path).mtimeMs });
    }
  };
  walk(dir);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Where run-bin remembers the sources it last built from (.turbo/ is git-ignored). */
const stampFile = (root) => join(root, ".turbo", "run-bin.json");

function readStamps(root) {
  try {
    return JSON.parse(readFileSync(stampFile(root), "utf8"));
  } catch {
    return {};
  }
}

/** The packages `name`'s bin needs built, with their dist/ and source files. */
function inspect(root, name) {
  const packages = workspacePackages(root);
  const base = join(root, "tsconfig.base.json");
  return withDependencies(packages, name)
    .filter((n) => packages.get(n)?.manifest.scripts?.build !== undefined)
    .map((n) => {
      const { dir } = /** @type {{ dir: string }} */ (packages.get(n));
      const dist = join(dir, "dist");
      const sources = filesUnder(dir, true);
      if (existsSync(base)) sources.push({ path: base, mtimeMs: statSync(base).mtimeMs });
      return { name: n, sources, outputs: existsSync(dist) ? filesUnder(dist, false) : [] };
    });
}

/** One digest of the contents and names of every source file of these packages. */
function digestOf(root, state) {
  const hash = createHash("sha256");
  for (const s of state)
    for (const f of s.sources)
      hash.update(`${relative(root, f.path)}\0`).update(readFileSync(f.path));
  return hash.digest("hex");
}

/**
 * Why `name` (with its workspace dependencies) must be built before its bin runs, or undefined
 * when it need not: "first run" when no dist/ exists yet, "<package> is not built" when one is
 * missing, "sources changed since the last build" when a source (or tsconfig.base.json) is newer
 * than its package's dist/ and its contents differ from what run-bin last built. Times alone would
 * rebuild after every `git checkout` that changes no byte (turbo's cache hit leaves dist/'s times).
 * @param {string} root
 * @param {string} name
 * @returns {string | undefined}
 */
export function buildReason(root, name) {
  const state = inspect(root, name);
  if (state.length > 0 && state.every((s) => s.outputs.length === 0)) return "first run";
  const missing = state.find((s) => s.outputs.length === 0);
  if (missing) return `${missing.name} is not built`;
  const newer = state.some((s) => {
    const oldest = Math.min(...s.outputs.map((f) => f.mtimeMs));
    // Equal times (one millisecond) may be either order: the digest decides.
    return s.sources.some((f) => f.mtimeMs >= oldest);
  });
  if (!newer) return undefined;
  return readStamps(root)[name] === digestOf(root, state)
    ? undefined
    : "sources changed since the last build";
}

/** After a successful build: remembers the sources `name` was built from. */
export function recordBuild(root, name) {
  const stamps = readStamps(root);
  stamps[name] = digestOf(root, inspect(root, name));
  mkdirSync(dirname(stampFile(root)), { recursive: true });
  writeFileSync(stampFile(root), `${JSON.stringify(stamps, null, 2)}\n`);
}
