#!/usr/bin/env node
// Dependencies as declared: what each built package imports at run time (dist/*.mjs, and the types
// it hands on, dist/*.d.mts) is node's own, the package itself, or in its dependencies or
// peerDependencies; and no dist carries another workspace package's code. tsdown bundles any import
// that is not a (peer) dependency, so a workspace package used only as a devDependency ends up
// copied into the dist: the copy shows as top-level declarations that the package's own src/ never
// declares and the other package's src/ does. `node scripts/check-dist-deps.mjs` exits 1 with one
// line per finding (scripts/test/check-dist-deps.test.mjs runs it against planted dists).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ts = createRequire(join(ROOT, "package.json"))("typescript");

/**
 * Imports a package makes on purpose without declaring them, each with why: loaded with `import()`
 * only when installed beside it (a static import of one is still a finding).
 */
export const OPTIONAL_IMPORTS = {
  "@idp/verifier": {
    "@idp/provider":
      "the embedded reference provider, used when installed beside idp-verify (docs/releasing.md)",
  },
};

/** Every file under `dir` whose name ends with one of `ends`. */
function filesUnder(dir, ends) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : filesUnder(path, ends);
    return ends.some((e) => name.endsWith(e)) ? [path] : [];
  });
}

/** `@scope/name` or `name` of a bare specifier; undefined for a relative or node's own one. */
export function packageOf(specifier) {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  if (specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]))
    return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

const parse = (file) =>
  ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);

/** The modules a file imports: `{ specifier, dynamic }`, static and `import()` / `require()` alike. */
export function importsOf(file) {
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push({ specifier: node.moduleSpecifier.text, dynamic: false });
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push({ specifier: node.arguments[0].text, dynamic: true });
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push({ specifier: node.argument.literal.text, dynamic: false });
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return found;
}

/** The names a file declares at its top level (functions, classes, variables). */
export function topLevelNames(file) {
  const names = new Set();
  const add = (name) => {
    if (name && ts.isIdentifier(name)) names.add(name.text);
    else if (name && ts.isObjectBindingPattern(name)) for (const e of name.elements) add(e.name);
    else if (name && ts.isArrayBindingPattern(name))
      for (const e of name.elements) if (!ts.isOmittedExpression(e)) add(e.name);
  };
  for (const statement of parse(file).statements) {
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement))
      add(statement.name);
    else if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations) add(d.name);
  }
  return names;
}

/** The workspace's packages: name, folder, manifest. */
export function workspacePackages(root = ROOT) {
  return ["packages", "apps"].flatMap((top) =>
    (existsSync(join(root, top)) ? readdirSync(join(root, top)) : [])
      .map((name) => join(root, top, name))
      .filter((dir) => existsSync(join(dir, "package.json")))
      .map((dir) => {
        const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
        return { name: manifest.name, dir, manifest };
      }),
  );
}

const sourceFiles = (dir) =>
  filesUnder(join(dir, "src"), [".ts", ".mts"]).filter((f) => !/\.(test|d)\.m?ts$/.test(f));

/** One line per finding over the built packages of `root` (those with a dist/). */
export function findings(root = ROOT) {
  const packages = workspacePackages(root);
  const declaredBy = new Map(
    packages.map((p) => [
      p.name,
      new Set(sourceFiles(p.dir).flatMap((f) => [...topLevelNames(f)])),
    ]),
  );
  const out = [];
  for (const p of packages) {
    const dist = join(p.dir, "dist");
    if (!existsSync(dist)) continue;
    const declared = new Set([
      ...Object.keys(p.manifest.dependencies ?? {}),
      ...Object.keys(p.manifest.peerDependencies ?? {}),
    ]);
    const optional = OPTIONAL_IMPORTS[p.name] ?? {};
    for (const file of filesUnder(dist, [".mjs", ".js", ".d.mts", ".d.ts"])) {
      const shown = relative(root, file);
      for (const { specifier, dynamic } of importsOf(file)) {
        if (specifier.startsWith(".") && !join(file, "..", specifier).startsWith(dist))
          out.push(`${shown} imports ${specifier}, outside its own dist/`);
        const name = packageOf(specifier);
        if (name === undefined || name === p.name || declared.has(name)) continue;
        if (optional[name] && dynamic) continue;
        out.push(
          `${shown} imports ${specifier}, but ${p.name} does not declare ${name} in dependencies or peerDependencies${optional[name] ? " (its optional import must be an import())" : ""}`,
        );
      }
      if (!/\.m?js$/.test(file)) continue;
      const own = declaredBy.get(p.name) ?? new Set();
      // Rolldown renames a clash `name$1`.
      const foreign = [...topLevelNames(file)]
        .map((n) => n.replace(/\$\d+$/, ""))
        .filter((n) => !own.has(n));
      for (const other of packages) {
        if (other.name === p.name) continue;
        const theirs = declaredBy.get(other.name) ?? new Set();
        const copied = [...new Set(foreign.filter((n) => theirs.has(n)))].sort();
        if (copied.length > 0)
          out.push(
            `${shown} carries code of ${other.name} (${copied.slice(0, 5).join(", ")}${copied.length > 5 ? `, and ${copied.length - 5} more` : ""}): import it as a declared dependency instead of bundling it`,
          );
      }
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = findings();
  for (const line of found) process.stderr.write(`${line}\n`);
  if (found.length > 0) process.exit(1);
  process.stdout.write(
    "every dist imports only what its package declares, and no other package's code\n",
  );
}
