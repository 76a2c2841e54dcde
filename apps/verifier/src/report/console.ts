import type { CheckResult, CheckStatus, VerifyReport } from "../results.ts";
import { failureLines, runsText, seconds, statusGrid, verdictLine } from "./format.ts";

const ICON: Record<CheckStatus, string> = { passed: "✓", failed: "✗", incomplete: "…", error: "!" };

/** One line per finished check, for live progress on stderr. */
export function progressLine(r: CheckResult): string {
  const runs = runsText(r);
  const detail =
    r.status === "failed"
      ? ` — ${r.failure?.message ?? ""}`
      : r.reason
        ? ` — ${r.reason}`
        : r.warnings.length
          ? ` — ${r.warnings.length} warning${r.warnings.length > 1 ? "s" : ""}`
          : "";
  return `${ICON[r.status]} ${r.id} (${runs ? `${runs}, ` : ""}${seconds(r.durationMs)})${detail}`;
}

function checkLines(r: CheckResult): string[] {
  const runs = runsText(r);
  const lines = [
    `  ${ICON[r.status]} ${r.id}${runs ? `  (${runs})` : ""}${r.status === "incomplete" ? `  incomplete: ${r.reason}` : ""}${r.status === "error" ? `  could not verify: ${r.reason}` : ""}`,
  ];
  if (r.status === "failed" && r.failure)
    for (const l of failureLines(r.failure)) lines.push(`      ${l}`);
  for (const w of r.warnings)
    lines.push(`      ⚠ ${w.message}${w.count > 1 ? ` (${w.count} times)` : ""}`);
  return lines;
}

/** `shard 2/3 (10 of 30 units) · `, or nothing for a whole run. */
export const shardText = (report: VerifyReport): string =>
  report.shard
    ? `shard ${report.shard.index}/${report.shard.total} (${report.shard.units} of ${report.shard.of} checks and interactions) · `
    : "";

/** The human report on stdout: results, failures with their reproduction, the status grid. */
export function renderConsole(report: VerifyReport): string {
  const out: string[] = [];
  out.push(
    `idp-verify ${report.tool.version}: ${report.providerUrl}${report.embedded ? " (embedded reference provider)" : ""}`,
  );
  out.push(
    `${shardText(report)}seed ${report.seed} · ${report.runs} runs per check · profile ${report.profile.name} · ${report.requests.sent} requests, ${report.requests.answered} answered · ${seconds(report.durationMs)}`,
  );
  for (const w of report.warnings) out.push(w);
  const pact = report.checks.filter((c) => c.kind === "pact");
  const conformance = report.checks.filter((c) => c.kind === "conformance");
  if (pact.length > 0) {
    out.push("", `Pact (${report.pactSources.join(", ") || "no pacts"})`);
    for (const r of pact) out.push(...checkLines(r));
  }
  if (conformance.length > 0) {
    out.push("", "Conformance (docs/spec/conformance.md)");
    for (const r of conformance) out.push(...checkLines(r));
  }
  if (report.leftOut.length > 0) {
    out.push("", "Not checked (the options do not allow it; never counted as passed)");
    for (const l of report.leftOut)
      out.push(`  - ${l.id}: ${l.reason}`);
  }
  if (report.providerStopped)
    out.push("", `! the provider stopped answering, run ended early: ${report.providerStopped}`);
  const grid = statusGrid(report);
  const width = Math.max(...grid.rows.map((r) => r.operation.length));
  out.push("", "Statuses seen (operation x status; * = not documented, . = documented, none seen)");
  out.push(`  ${"".padEnd(width)}${grid.columns.map((c) => c.padStart(7)).join("")}`);
  for (const row of grid.rows)
    out.push(
      `  ${row.operation.padEnd(width)}${row.cells
        .map((c) =>
          (c.count > 0 ? `${c.count}${c.documented ? "" : "*"}` : c.documented ? "." : "").padStart(7),
        )
        .join("")}`,
    );
  out.push("", verdictLine(report));
  return `${out.join("\n")}\n`;
}
