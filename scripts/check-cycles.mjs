#!/usr/bin/env node
// No import cycles in any package's src/ (conformance of the codebase, issue 32): madge reads every
// .ts file under apps/*/src and packages/*/src, type-only imports and `import()` included (a
// cycle of types is still two modules that cannot be read one without the other).
// `node scripts/check-cycles.mjs [ROOT]` exits 1 with one line per cycle, each module of it named
// (scripts/test/check-cycles.test.mjs plants one).
import { existsSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import madge from "madge";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Every `src/` folder of the workspace's packages under `root`. */
export function sourceDirs(root = ROOT) {
  return ["apps", "packages"].flatMap((top) =>
    (existsSync(join(root, top)) ? readdirSync(join(root, top)) : [])
      .map((name) => join(root, top, name, "src"))
      .filter((dir) => existsSync(dir)),
  );
}

/** The import cycles among the sources under `root`: each a list of paths relative to `root`. */
export async function cyclesOf(root = ROOT) {
  const dirs = sourceDirs(root);
  if (dirs.length === 0) return [];
  const graph = await madge(dirs, {
    baseDir: root,
    fileExtensions: ["ts", "mts"],
    excludeRegExp: [/\.d\.m?ts$/],
    detectiveOptions: {
      ts: { skipTypeImports: false, skipAsyncImports: false },
      tsx: { skipTypeImports: false, skipAsyncImports: false },
    },
  });
  return graph.circular().map((cycle) => cycle.map((f) => relative(root, resolve(root, f))));
}

/** One line of a cycle: `a.ts > b.ts > a.ts`. */
export const cycleLine = (cycle) => [...cycle, cycle[0]].join(" > ");

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? ROOT);
  const cycles = await cyclesOf(root);
  for (const cycle of cycles) process.stderr.write(`import cycle: ${cycleLine(cycle)}\n`);
  if (cycles.length > 0) {
    process.stderr.write(
      `${cycles.length} import cycle(s) among ${sourceDirs(root).length} src/ folders: move the type or function both sides need to the module that owns it\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`no import cycle among ${sourceDirs(root).length} src/ folders\n`);
}
