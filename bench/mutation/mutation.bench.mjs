#!/usr/bin/env node
// `pnpm bench:mutation [--checks R1,...,R8] [--mutate GLOB] [--runs N] [--report FILE]`: Stryker mutates
// apps/provider/src and idp-verify judges each mutant (bench/mutation/run-mutant.mjs): killed when
// it fails the verification, survived when it passes. Prints killed/survived per file, then every
// survivor that equivalent.json (the reviewed list: mutants no rule of the spec can tell apart from
// the original, each with its reason) does not explain. Not in CI: about a second per mutant.
// Exit 0 when done (whatever the score), 1 when Stryker could not run.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { values } = parseArgs({
  options: {
    checks: { type: "string", default: "R1,R2,R3,R4,R5,R6,R7,R8,R9" },
    mutate: { type: "string" },
    runs: { type: "string", default: "20" },
    // Summarise a finished run's JSON report (e.g. a copy kept from an earlier run) without running.
    report: { type: "string" },
  },
});
const env = { ...process.env, MUTATION_CHECKS: values.checks, MUTATION_RUNS: values.runs };
if (values.report === undefined) {
  const build = spawnSync(
    "pnpm",
    ["exec", "turbo", "run", "build", "--filter=@idp/verifier...", "--output-logs=errors-only"],
    { cwd: root, stdio: "inherit", env },
  );
  if (build.status !== 0) process.exit(1);
  const stryker = spawnSync(
    "pnpm",
    [
      "exec",
      "stryker",
      "run",
      "bench/mutation/stryker.config.mjs",
      ...(values.mutate ? ["--mutate", values.mutate] : []),
    ],
    { cwd: root, stdio: "inherit", env },
  );
  if (stryker.status !== 0) process.exit(1);
}

const report = JSON.parse(
  readFileSync(values.report ?? join(root, "reports/mutation/mutation.json"), "utf8"),
);
const equivalent = JSON.parse(readFileSync(join(root, "bench/mutation/equivalent.json"), "utf8"));
/** A mutant as the reviewed list names it: file, mutator, the original code and its replacement. */
const keyOf = (file, m, source) => {
  const lines = source.split("\n");
  const { start, end } = m.location;
  const text =
    start.line === end.line
      ? lines[start.line - 1].slice(start.column - 1, end.column - 1)
      : lines.slice(start.line - 1, end.line).join("\n");
  return JSON.stringify([file, m.mutatorName, text.trim(), (m.replacement ?? "").trim()]);
};
const reviewed = new Map(
  equivalent.map((e) => [JSON.stringify([e.file, e.mutator, e.original, e.replacement]), e.reason]),
);
let killed = 0;
let survived = 0;
let explained = 0;
const unexplained = [];
console.log(`\nchecks ${values.checks}, ${values.runs} runs each, pacts included`);
console.log("| file | killed | survived | of them equivalent (reviewed) |");
console.log("|---|---|---|---|");
for (const [file, f] of Object.entries(report.files)) {
  let k = 0;
  let s = 0;
  let e = 0;
  for (const m of f.mutants) {
    if (m.status === "Killed" || m.status === "Timeout") k++;
    else if (m.status === "Survived" || m.status === "NoCoverage") {
      s++;
      if (reviewed.has(keyOf(file, m, f.source))) e++;
      else
        unexplained.push({
          file,
          line: m.location.start.line,
          mutator: m.mutatorName,
          key: keyOf(file, m, f.source),
        });
    }
  }
  killed += k;
  survived += s;
  explained += e;
  console.log(`| ${file.replace("apps/provider/src/", "")} | ${k} | ${s} | ${e} |`);
}
console.log(`| **all** | **${killed}** | **${survived}** | **${explained}** |`);
console.log(
  `\nmutation score ${((100 * killed) / (killed + survived)).toFixed(1)}%; ${survived - explained} survivors not judged equivalent:`,
);
for (const u of unexplained) console.log(`  ${u.file}:${u.line} ${u.mutator} ${u.key}`);
