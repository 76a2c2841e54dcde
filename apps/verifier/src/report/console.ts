import type { CheckResult, CheckStatus, VerifyReport } from "../results.ts";
import { exchangeLines, seconds, statusGrid } from "./format.ts";

const ICON: Record<CheckStatus, string> = { passed: "✓", failed: "✗", skipped: "-", error: "!" };

function checkLines(r: CheckResult): string[] {
  const runs = r.kind === "conformance" ? `  (${r.runs} runs)` : "";
  const lines = [
    `  ${ICON[r.status]} ${r.id}${runs}${r.status === "skipped" ? `  skipped: ${r.reason}` : ""}${r.status === "error" ? `  could not verify: ${r.reason}` : ""}`,
  ];
  const f = r.failure;
  if (r.status === "failed" && f) {
    const pad = "      ";
    lines.push(`${pad}${f.message}`);
    if (f.exchange) for (const l of exchangeLines(f.exchange)) lines.push(`${pad}${l}`);
    if (f.setup) lines.push(`${pad}state:    ${f.setup}`);
    if (f.curl) lines.push(`${pad}curl:     ${f.curl}`);
    if (f.seed !== undefined)
      lines.push(
        `${pad}seed:     ${f.seed}${f.counterexamplePath ? `, path ${f.counterexamplePath}` : ""}, shrunk ${f.shrinks ?? 0} times`,
      );
    if (f.observedDuring)
      lines.push(`${pad}seen:     while check ${f.observedDuring} ran (not shrunk)`);
    if (f.replay) lines.push(`${pad}replay:   ${f.replay}`);
  }
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
    `idp-verify: ${report.providerUrl}${report.embedded ? " (embedded reference provider)" : ""}`,
  );
  out.push(
    `${shardText(report)}seed ${report.seed} · ${report.runs} runs per check · profile ${report.profile} · ${report.requests.sent} requests, ${report.requests.answered} answered · ${seconds(report.durationMs)}`,
  );
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
          (c.count > 0 ? `${c.count}${c.documented ? "" : "*"}` : c.documented ? "." : "").padStart(
            7,
          ),
        )
        .join("")}`,
    );
  const s = report.summary;
  const verdict =
    report.exitCode === 0 ? "PASSED" : report.exitCode === 1 ? "FAILED" : "COULD NOT VERIFY";
  out.push(
    "",
    `${verdict}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.error} could not run, ${s.warnings} warnings (exit ${report.exitCode})`,
  );
  return `${out.join("\n")}\n`;
}
