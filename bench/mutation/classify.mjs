#!/usr/bin/env node
// Writes bench/mutation/equivalent.json from a Stryker JSON report: the surviving mutants of the
// reference provider that no rule of the spec can tell apart from the original, by reviewed
// category (each entry names its reason). Run after `pnpm bench:mutation`:
//   node bench/mutation/classify.mjs reports/mutation/mutation.json
// Categories, each checked by hand against the survivors it matches:
// - log output (log.ts, and everything inside a log(...) call);
// - human-readable text (a string literal with a space in it, emptied): error_description and
//   errors items, whose keys the spec fixes but not their words;
// - the provider's own command line (config.ts): not the service's interface, and the bench
//   passes every flag;
// - malformed HTTP, Host checks and transport time-outs (server.ts below the app): the spec's
//   requests are well-formed HTTP/1.1 and no rule covers framing errors or time-outs.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const report = JSON.parse(
  readFileSync(process.argv[2] ?? "reports/mutation/mutation.json", "utf8"),
);
const out = fileURLToPath(new URL("./equivalent.json", import.meta.url));

/** The text a mutant replaces, exactly as mutation.bench.mjs keys it. */
const textOf = (lines, m) => {
  const { start, end } = m.location;
  return start.line === end.line
    ? lines[start.line - 1].slice(start.column - 1, end.column - 1)
    : lines.slice(start.line - 1, end.line).join("\n");
};

/** Line ranges [from, to] of every `log(` / `logAnswer(` call (to its closing parenthesis). */
function logRanges(source) {
  const ranges = [];
  const re = /\b(log|logAnswer)\(/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (; i < source.length; i++) {
      if (source[i] === "(") depth++;
      else if (source[i] === ")" && --depth === 0) break;
    }
    const line = (at) => source.slice(0, at).split("\n").length;
    ranges.push([line(m.index), line(i)]);
  }
  return ranges;
}

// server.ts, below the app: malformed HTTP, Host, time-outs (by function, read from the source).
const TRANSPORT_FUNCTIONS =
  /^(export )?(function|const) (rawErrorAnswer|checkHost|requestErrorDescription|clientErrorAnswer|parserReason)\b/;

function transportRanges(lines) {
  const ranges = [];
  let open;
  lines.forEach((l, i) => {
    const top = /^(export |async |function |const |interface |type )/.test(l);
    if (top && open !== undefined) {
      ranges.push([open, i]);
      open = undefined;
    }
    if (TRANSPORT_FUNCTIONS.test(l)) open = i + 1;
  });
  if (open !== undefined) ranges.push([open, lines.length]);
  // createServer's time-outs and header limits, and getRequestListener's errorHandler.
  const from = lines.findIndex((l) => l.includes("getRequestListener(options.fetch"));
  const to = lines.findIndex((l, i) => i > from && l.includes("requireHostHeader"));
  if (from >= 0 && to > from) ranges.push([from + 1, to + 2]);
  return ranges;
}

const within = (ranges, m) =>
  ranges.some(([a, b]) => m.location.start.line >= a && m.location.end.line <= b);

const entries = new Map();
for (const [file, f] of Object.entries(report.files)) {
  const lines = f.source.split("\n");
  const logs = logRanges(f.source);
  const transport = file.endsWith("/server.ts") ? transportRanges(lines) : [];
  for (const m of f.mutants) {
    if (m.status !== "Survived" && m.status !== "NoCoverage") continue;
    const original = textOf(lines, m).trim();
    const replacement = (m.replacement ?? "").trim();
    let reason;
    if (file.endsWith("/log.ts") || within(logs, m))
      reason = "log output: the provider's own log, not part of the service's interface";
    else if (file.endsWith("/config.ts"))
      reason =
        "the provider's command line: not the service's interface (the bench passes every flag)";
    else if (within(transport, m))
      reason =
        "malformed HTTP, Host checks and transport time-outs: the spec's requests are well-formed HTTP/1.1 and no rule covers framing errors or time-outs";
    else if (m.mutatorName === "StringLiteral" && /realm=/.test(original))
      reason =
        "a header the spec does not ask for: WWW-Authenticate on a 401 (R1 asks for the status and the error body)";
    else if (m.mutatorName === "StringLiteral" && /^[`"']PRAGMA /.test(original))
      reason =
        "SQLite tuning (journal mode, synchronous, busy time-out, foreign keys, user_version): not observable through the interface";
    else if (
      m.mutatorName === "StringLiteral" &&
      /^[`"'].* .*[`"']$/s.test(original) &&
      !/^[`"'](SELECT|UPDATE|INSERT|DELETE|CREATE)\b/.test(original) &&
      !/application\/json|=>|^`@/.test(original) &&
      (replacement === '""' || replacement === "``")
    )
      reason =
        "human-readable text (an error_description, an errors item or a log line): the spec fixes the error body's keys, not its words";
    if (!reason) continue;
    const entry = { file, mutator: m.mutatorName, original, replacement, reason };
    entries.set(JSON.stringify([file, m.mutatorName, original, replacement]), entry);
  }
}
writeFileSync(out, `${JSON.stringify([...entries.values()], null, 2)}\n`);
console.log(`${entries.size} reviewed equivalents written to ${out}`);
