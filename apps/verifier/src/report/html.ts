import type { CheckResult, VerifyReport } from "../results.ts";
import { shardText } from "./console.ts";
import { exchangeLines, seconds, statusGrid } from "./format.ts";

const esc = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #d8dee4;padding:.3rem .5rem;text-align:left;vertical-align:top}
.passed{color:#1a7f37}.failed{color:#cf222e;font-weight:600}.skipped{color:#6e7781}.error{color:#9a6700;font-weight:600}
pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.num{text-align:right;font-variant-numeric:tabular-nums}.undoc{background:#ffebe9;font-weight:600}
.banner{padding:.6rem 1rem;border-radius:6px;font-weight:600}.ok{background:#dafbe1}.bad{background:#ffebe9}.warn{background:#fff8c5}`;

function row(r: CheckResult): string {
  const f = r.failure;
  const details: string[] = [];
  if (r.status === "failed" && f) {
    const lines = [f.message, ...(f.exchange ? exchangeLines(f.exchange) : [])];
    if (f.setup) lines.push(`state: ${f.setup}`);
    if (f.curl) lines.push(`curl: ${f.curl}`);
    if (f.seed !== undefined)
      lines.push(
        `seed: ${f.seed}${f.counterexamplePath ? `, path ${f.counterexamplePath}` : ""}, shrunk ${f.shrinks ?? 0} times`,
      );
    if (f.observedDuring) lines.push(`seen while check ${f.observedDuring} ran (not shrunk)`);
    if (f.replay) lines.push(`replay: ${f.replay}`);
    details.push(`<pre>${esc(lines.join("\n"))}</pre>`);
  }
  if (r.reason) details.push(esc(r.reason));
  for (const w of r.warnings) details.push(`<div>⚠ ${esc(w.message)} (${w.count}×)</div>`);
  return `<tr><td class="${r.status}">${r.status}</td><td><code>${esc(r.id)}</code><br><small>${esc(r.title)}</small></td><td class="num">${r.runs}</td><td>${details.join("")}</td></tr>`;
}

/** One self-contained HTML page (inline CSS, no scripts, no external resources). */
export function renderHtml(report: VerifyReport): string {
  const s = report.summary;
  const banner = report.exitCode === 0 ? "ok" : report.exitCode === 1 ? "bad" : "warn";
  const verdict =
    report.exitCode === 0
      ? "Passed"
      : report.exitCode === 1
        ? "Failed: the provider broke a rule or pact"
        : "Could not verify";
  const grid = statusGrid(report);
  const gridHtml = `<table><tr><th>operation</th>${grid.columns.map((c) => `<th class="num">${c}</th>`).join("")}</tr>${grid.rows
    .map(
      (r) =>
        `<tr><td><code>${r.operation}</code></td>${r.cells
          .map(
            (c) =>
              `<td class="num${c.count > 0 && !c.documented ? " undoc" : ""}">${c.count > 0 ? c.count : c.documented ? "·" : ""}</td>`,
          )
          .join("")}</tr>`,
    )
    .join(
      "",
    )}</table><p><small>Highlighted: a status the operation does not document. · documented, not seen.</small></p>`;
  const section = (title: string, rows: CheckResult[]) =>
    rows.length === 0
      ? ""
      : `<h2>${title}</h2><table><tr><th>status</th><th>check</th><th class="num">runs</th><th>details</th></tr>${rows.map(row).join("")}</table>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>idp-verify report</title><style>${STYLE}</style></head><body>
<h1>idp-verify report</h1>
<p class="banner ${banner}">${verdict} — ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.error} could not run, ${s.warnings} warnings (exit ${report.exitCode})</p>
<p>${esc(shardText(report))}Provider <code>${esc(report.providerUrl)}</code>${report.embedded ? " (embedded reference provider)" : ""} · seed <code>${report.seed}</code> · ${report.runs} runs per check · profile ${esc(report.profile)} · ${report.requests.sent} requests, ${report.requests.answered} answered · ${seconds(report.durationMs)} · started ${esc(report.startedAt)}</p>
${report.providerStopped ? `<p class="banner bad">The provider stopped answering; the run ended early: ${esc(report.providerStopped)}</p>` : ""}
${section(
  "Pact interactions",
  report.checks.filter((c) => c.kind === "pact"),
)}
${section(
  "Conformance checks",
  report.checks.filter((c) => c.kind === "conformance"),
)}
<h2>Statuses seen (operation × status)</h2>${gridHtml}
</body></html>
`;
}
