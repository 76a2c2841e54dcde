#!/usr/bin/env node
// The "Exports" table of each published package's README, generated from its src/index.ts with the
// TypeScript compiler: every exported name, what it is (function, class, constant, type) and the
// first sentence of its doc comment. `node scripts/readme-exports.mjs --write` rewrites the tables
// (between <!-- exports:start --> and <!-- exports:end -->); without --write it checks them and
// exits 1 naming each README that is out of date (scripts/test/readme-exports.test.mjs runs that).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { PACKAGES, ROOT } from "./pack-packages.mjs";

const ts = createRequire(join(ROOT, "package.json"))("typescript");
const START = "<!-- exports:start -->";
const END = "<!-- exports:end -->";

/** The first sentence of a doc comment, on one line, with table pipes escaped. */
function firstSentence(text) {
  const one = text
    .replace(/\{@link\s+([^}\s]+)\s*\}/g, "`$1`")
    .replace(/\s+/g, " ")
    .trim();
  const end = one.search(/\.(\s|$)/);
  const sentence = end < 0 ? one : one.slice(0, end);
  return sentence.replaceAll("|", "\\|");
}

function kindOf(symbol, checker) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const f = target.flags;
  if (f & ts.SymbolFlags.Class) return "class";
  if (f & ts.SymbolFlags.Function) return "function";
  if (f & ts.SymbolFlags.Interface) return "interface";
  if (f & ts.SymbolFlags.TypeAlias) return "type";
  if (f & ts.SymbolFlags.Variable) {
    const init = target.valueDeclaration?.initializer;
    if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return "function";
    // A zod schema is a value and a type of the same name.
    return f & ts.SymbolFlags.TypeAlias || target.declarations?.some(ts.isTypeAliasDeclaration)
      ? "schema + type"
      : "constant";
  }
  return "other";
}

const OPTIONS = {
  allowImportingTsExtensions: true,
  noEmit: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2023,
  customConditions: ["@idp/source"],
  skipLibCheck: true,
};
let published;
/**
 * One program over every published package's src/index.ts, made once per process: the packages
 * import one another, so five programs parsed and bound @idp/contracts five times (and the check
 * asks for each package twice). A file outside them gets a program of its own.
 */
function programOf(index) {
  published ??= ts.createProgram(
    PACKAGES.map((p) => join(ROOT, p.dir, "src", "index.ts")),
    OPTIONS,
  );
  return published.getSourceFile(index) ? published : ts.createProgram([index], OPTIONS);
}

/** Rows `name | kind | what` for every export of a package's src/index.ts. */
export function exportRows(dir) {
  const index = join(ROOT, dir, "src", "index.ts");
  const program = programOf(index);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(index);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const rows = [];
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const hasType =
      target.flags & ts.SymbolFlags.Variable &&
      (target.flags & ts.SymbolFlags.TypeAlias || symbol.flags & ts.SymbolFlags.TypeAlias);
    const kind = hasType ? "schema + type" : kindOf(symbol, checker);
    const doc = firstSentence(ts.displayPartsToString(target.getDocumentationComment(checker)));
    rows.push({ name: symbol.getName(), kind, doc });
  }
  rows.sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }));
  return rows;
}

export function exportsTable(dir) {
  const rows = exportRows(dir);
  return [
    START,
    `${rows.length} exports, generated from \`src/index.ts\` by \`node scripts/readme-exports.mjs --write\`.`,
    "",
    "| export | kind | what |",
    "|---|---|---|",
    ...rows.map((r) => `| \`${r.name}\` | ${r.kind} | ${r.doc || "(undocumented)"} |`),
    END,
  ].join("\n");
}

/** Each README whose table differs from what the sources say, with the fresh text. */
export function staleReadmes() {
  const out = [];
  for (const { name, dir } of PACKAGES) {
    const file = join(ROOT, dir, "README.md");
    const text = readFileSync(file, "utf8");
    const a = text.indexOf(START);
    const b = text.indexOf(END);
    if (a < 0 || b < a) {
      out.push({ name, file, problem: `no ${START} ... ${END} block` });
      continue;
    }
    const fresh = `${text.slice(0, a)}${exportsTable(dir)}${text.slice(b + END.length)}`;
    if (fresh !== text)
      out.push({ name, file, fresh, problem: "the exports table is out of date" });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const write = process.argv.includes("--write");
  const stale = staleReadmes();
  for (const s of stale) {
    if (write && s.fresh) writeFileSync(s.file, s.fresh);
    else
      process.stderr.write(`${s.name}: ${s.problem} (node scripts/readme-exports.mjs --write)\n`);
  }
  if (!write && stale.length > 0) process.exitCode = 1;
}
