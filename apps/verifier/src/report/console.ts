import { renderLearn } from "../learn/render.ts";
import type { CheckResult, CheckStatus, VerifyReport } from "../results.ts";
import { type Paint, PLAIN } from "../terminal/colour.ts";
import {
  deploymentText,
  failureLines,
  pactOriginLines,
  restoreLines,
  runsText,
  seconds,
  sourceText,
  statesText,
  statusGrid,
  verdictLine,
} from "./format.ts";
import { shown } from "./shown.ts";

const ICON: Record<CheckStatus, string> = { passed: "✓", failed: "✗", incomplete: "…", error: "!" };
const TONE = {
  passed: "green",
  failed: "red",
  incomplete: "yellow",
  error: "yellow",
} as const satisfies Record<CheckStatus, keyof Paint>;

/** A status's icon, coloured when `paint` colours. */
export const icon = (status: CheckStatus, paint: Paint = PLAIN): string =>
  paint[TONE[status]](ICON[status]);

/** One line per finished check, for live progress on stderr. */
export function progressLine(r: CheckResult, paint: Paint = PLAIN): string {
  const runs = runsText(r);
  const detail =
    r.status === "failed"
      ? ` — ${r.failure?.message ?? ""}`
      : r.reason
        ? ` — ${r.reason}`
        : r.warnings.length
          ? ` — ${r.warnings.length} warning${r.warnings.length > 1 ? "s" : ""}`
          : "";
  return `${icon(r.status, paint)} ${shown(r.id)} (${runs ? `${runs}, ` : ""}${seconds(r.durationMs)})${shown(detail)}`;
}

/** `shard 2/3 (10 of 30 units) · `, or nothing for a whole run. */
export const shardText = (report: VerifyReport): string =>
  report.shard
    ? `shard ${report.shard.index}/${report.shard.total} (${report.shard.units} of ${report.shard.of} checks and interactions) · `
    : "";

const indent = (lines: readonly string[], pad = "      ") => lines.map((l) => `${pad}${l}`);

/**
 * The summary on stdout (each check's own line went to stderr as it finished): the findings, one
 * per root cause with one exchange and the checks it broke; what could not be verified; what was
 * not checked; warnings; the status grid; the verdict.
 */
export function renderConsole(report: VerifyReport, paint: Paint = PLAIN): string {
  const out: string[] = [];
  out.push(
    `idp-verify ${report.tool.version}: ${report.providerUrl}${report.embedded ? " (embedded reference provider)" : ""}`,
    `${shardText(report)}seed ${report.seed} · ${report.runs} runs per check · profile ${report.profile.name}${report.profile.file ? ` (${report.profile.file})` : ""} · ${report.checks.length} checks · ${report.requests.sent} requests, ${report.requests.answered} answered · ${seconds(report.durationMs)}`,
  );
  out.push(deploymentText(report));
  out.push(shown(`left as found: ${restoreLines(report).join("; ")}`));
  const states = statesText(report);
  if (states) out.push(shown(states));
  for (const line of pactOriginLines(report)) out.push(shown(`pact of ${line}`));
  for (const w of report.warnings) out.push(shown(w));
  const byId = new Map(report.checks.map((c) => [c.id, c]));
  const failed = report.checks.filter((c) => c.status === "failed");
  if (report.findings.length > 0) {
    out.push(
      "",
      `${paint.bold("Findings")}: ${report.findings.length} root cause${report.findings.length > 1 ? "s" : ""} behind ${failed.length} failing check${failed.length > 1 ? "s" : ""}`,
    );
    report.findings.forEach((f, i) => {
      const example = byId.get(f.example);
      out.push("", `${i + 1}. ${paint.red("✗")} ${shown(f.summary)}`);
      if (f.source) out.push(`      source:   ${sourceText(f)}`);
      out.push(
        shown(
          `      affects:  ${f.checks.length} check${f.checks.length > 1 ? "s" : ""}: ${f.checks.join(", ")}`,
        ),
      );
      out.push(shown(`      example:  ${f.example}`));
      if (example?.failure)
        out.push(
          ...indent(
            failureLines(example.failure)
              .slice(1)
              .filter((l) => !l.startsWith("source:")),
          ),
        );
    });
  }
  const broken = report.checks.filter((c) => c.status === "incomplete" || c.status === "error");
  if (broken.length > 0) {
    out.push("", paint.bold("Could not verify"));
    for (const r of broken)
      out.push(
        `  ${icon(r.status, paint)} ${shown(r.id)}  ${r.status === "incomplete" ? "incomplete" : "could not run"}: ${shown(r.reason ?? "")}`,
      );
  }
  const warned = report.checks.filter((c) => c.warnings.length > 0);
  if (warned.length > 0) {
    out.push("", paint.bold("Warnings"));
    for (const r of warned)
      for (const w of r.warnings)
        out.push(
          `  ${paint.yellow("⚠")} ${shown(r.id)}: ${shown(w.message)}${w.count > 1 ? ` (${w.count} times)` : ""}`,
        );
  }
  if (report.leftOut.length > 0) {
    out.push(
      "",
      `${paint.bold("Not checked")} (the options do not allow it; never counted as passed)`,
    );
    for (const l of report.leftOut) out.push(shown(`  - ${l.id}: ${l.reason}`));
  }
  if (report.providerStopped)
    out.push(
      "",
      `${paint.yellow("!")} the provider stopped answering, run ended early: ${shown(report.providerStopped)}`,
    );
  const grid = statusGrid(report);
  const width = Math.max(...grid.rows.map((r) => r.operation.length));
  out.push(
    "",
    `${paint.bold("Statuses seen")} (operation x status; * = not documented, . = documented, none seen)`,
  );
  out.push(`  ${"".padEnd(width)}${grid.columns.map((c) => c.padStart(7)).join("")}`);
  for (const row of grid.rows)
    out.push(
      `  ${row.operation.padEnd(width)}${row.cells
        .map((c) => {
          const cell = (
            c.count > 0 ? `${c.count}${c.documented ? "" : "*"}` : c.documented ? "." : ""
          ).padStart(7);
          // Coloured after padding: escape codes take no room on screen.
          return c.count > 0 && !c.documented ? paint.yellow(cell) : cell;
        })
        .join("")}`,
    );
  if (report.learn) out.push("", ...renderLearn(report.learn));
  out.push("", verdictText(report, paint));
  return `${out.join("\n")}\n`;
}

const VERDICT_TONE = ["green", "red", "yellow"] as const;

/** The verdict line with its first word (PASSED, FAILED, COULD NOT VERIFY) bold and coloured. */
export function verdictText(report: VerifyReport, paint: Paint = PLAIN): string {
  const line = verdictLine(report);
  const colon = line.indexOf(":");
  if (!paint.enabled || colon < 0) return line;
  const tone = VERDICT_TONE[report.exitCode] ?? "yellow";
  return `${paint.bold(paint[tone](line.slice(0, colon)))}${line.slice(colon)}`;
}
