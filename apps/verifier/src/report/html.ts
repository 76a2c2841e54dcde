import type { CheckResult, VerifyReport } from "../results.ts";
import { shardText } from "./console.ts";
import { failureLines, runsText, seconds, statusGrid, verdictLine } from "./format.ts";

const esc = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #d8dee4;padding:.3rem .5rem;text-align:left;vertical-align:top}
.passed{color:#1a7f37}.failed{color:#cf222e;font-weight:600}.incomplete,.error{color:#9a6700;font-weight:600}
pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.num{text-align:right;font-variant-numeric:tabular-nums}.undoc{background:#ffebe9;font-weight:600}
.banner{padding:.6rem 1rem;border-radius:6px;font-weight:600}.ok{background:#dafbe1}.bad{background:#ffebe9}.warn{background:#fff8c5}`;

function row(r: CheckResult): string {
  const details: string[] = [];
  if (r.status === "failed" && r.failure)
    details.push(`<pre>${esc(failureLines(r.failure).join("\n"))}</pre>`);
  if (r.reason) details.push(esc(r.reason));
  for (const w of r.warnings) details.push(`<div>⚠ ${esc(w.message)} (${w.count}×)</div>`);
  return `<tr id="${esc(r.id)}"><td class="${r.status}">${r.status}</td><td><code>${esc(r.id)}</code><br><small>${esc(r.title)}</small></td><td class="num">${esc(runsText(r))}</td><td>${details.join("")}</td></tr>`;
}

/** One self-contained HTML page (inline CSS, no scripts, no external resources). */
export function renderHtml(report: VerifyReport): string {
  const banner = report.exitCode === 0 ? "ok" : report.exitCode === 1 ? "bad" : "warn";
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
  const left =
    report.leftOut.length === 0
      ? ""
      : `<h2>Not checked</h2><ul>${report.leftOut.map((l) => `<li><code>${esc(l.id)}</code>: ${esc(l.reason)}</li>`).join("")}</ul>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>idp-verify report</title><style>${STYLE}</style></head><body>
<h1>idp-verify report</h1>
<p class="banner ${banner}">${esc(verdictLine(report))}</p>
<p>${esc(shardText(report))}Provider <code>${esc(report.providerUrl)}</code>${report.embedded ? " (embedded reference provider)" : ""} · idp-verify ${esc(report.tool.version)} · seed <code>${report.seed}</code> · ${report.runs} runs per check · profile ${esc(report.profile.name)} · ${report.requests.sent} requests, ${report.requests.answered} answered · ${seconds(report.durationMs)} · started ${esc(report.startedAt)}</p>
${report.warnings.map((w) => `<p class="banner warn">${esc(w)}</p>`).join("")}
${report.providerStopped ? `<p class="banner bad">The provider stopped answering; the run ended early: ${esc(report.providerStopped)}</p>` : ""}
${section(
  "Pact interactions",
  report.checks.filter((c) => c.kind === "pact"),
)}
${section(
  "Conformance checks",
  report.checks.filter((c) => c.kind === "conformance"),
)}
${left}
<h2>Statuses seen (operation × status)</h2>${gridHtml}
</body></html>
`;
}
