#!/usr/bin/env node
// `pnpm test`'s typecheck of every package but the verifier: one tsc program over their sources
// instead of one per package. A package's own program checks again each sibling source it imports
// (through the @idp/source condition): the six programs took 22.5 CPU-s, one program over the same
// files 4.9 CPU-s (TypeScript 7, --singleThreaded, /usr/bin/time), on a CI that is CPU-bound.
// The verifier keeps its own program (its `typecheck` task): its browser test references the DOM
// library, which in a shared program would be global for every package (fetch's body types change
// with it). The program is read from the packages' own tsconfig.json files, and refused when one of
// them sets options of its own: one program can only hold packages that are checked alike.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const TOGETHER = [
  "packages/contracts",
  "packages/generators",
  "packages/pact-consumer",
  "packages/fault-providers",
  "packages/test-utils",
  "apps/provider",
];

/** The shared program's tsconfig: the base options, each package's includes under its folder. */
export function togetherConfig(base = root) {
  const include = [];
  for (const dir of TOGETHER) {
    const file = join(base, dir, "tsconfig.json");
    const config = JSON.parse(readFileSync(file, "utf8"));
    const own = Object.keys(config).filter((k) => k !== "extends" && k !== "include");
    if (config.extends !== "../../tsconfig.base.json" || own.length > 0)
      throw new Error(
        `${relative(base, file)}: expected only "extends": "../../tsconfig.base.json" and "include" (found ${JSON.stringify(Object.keys(config))}); a package with options of its own needs its own program`,
      );
    for (const pattern of config.include) include.push(`${join(base, dir, pattern)}`);
  }
  return { extends: join(base, "tsconfig.base.json"), include };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let config;
  try {
    config = togetherConfig();
  } catch (e) {
    process.stderr.write(`typecheck-together: ${e.message}\n`);
    process.exit(2);
  }
  // Each README's example, written where its package's tsconfig includes it (as `typecheck` does).
  for (const dir of TOGETHER) {
    if (!config.include.includes(join(root, dir, ".readme-example/example.ts"))) continue;
    const r = spawnSync(
      process.execPath,
      [join(root, "scripts", "readme-example.mjs"), join(root, dir)],
      {
        stdio: "inherit",
      },
    );
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  const out = join(root, "node_modules", ".cache", "typecheck-together");
  mkdirSync(out, { recursive: true });
  const tsconfig = join(out, "tsconfig.json");
  writeFileSync(tsconfig, `${JSON.stringify(config, null, 2)}\n`);
  // The packages' TypeScript (the catalog's), not the root's.
  const tsc = join(root, "packages", "contracts", "node_modules", "typescript", "bin", "tsc");
  if (!existsSync(tsc)) {
    process.stderr.write(`typecheck-together: ${tsc} is missing: run pnpm install\n`);
    process.exit(2);
  }
  const r = spawnSync(process.execPath, [tsc, "-p", tsconfig, "--singleThreaded"], {
    stdio: "inherit",
  });
  process.exit(r.status ?? 1);
}
