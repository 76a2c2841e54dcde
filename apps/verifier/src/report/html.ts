import { dirname, relative, sep } from "node:path";
import { cutAtCodePoint, type Exchange } from "../http/exchange.ts";
import type { CheckResult, CheckStatus, Failure, PactMismatch, VerifyReport } from "../results.ts";
import { CELLS_CHECK_ID, cellsText, missingClientErrorCells } from "./cells.ts";
import { shardText } from "./console.ts";
import {
  deploymentText,
  pactOriginText,
  replayTestCommand,
  restoreLines,
  ruleSentence,
  runsText,
  seconds,
  statesText,
  statusGrid,
  verdictLine,
} from "./format.ts";
import { shownBlock } from "./shown.ts";

/** How much of a body the page shows (the JSON report and the replay file hold all of it). */
const BODY_SHOWN = 6000;
/** Response headers that say nothing about the provider's behaviour. */
const QUIET_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

const esc = (s: string) =>
  shownBlock(s)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

/** A valid, unique fragment id for a check id (ids hold spaces and colons). */
export const anchorOf = (checkId: string): string =>
  `check-${checkId.replace(/[^A-Za-z0-9._-]/g, (c) => `_${(c.codePointAt(0) ?? 0).toString(16)}`)}`;

const ICON: Record<CheckStatus, string> = { passed: "✓", failed: "✗", incomplete: "…", error: "!" };
const WORD: Record<CheckStatus, string> = {
  passed: "passed",
  failed: "failed",
  incomplete: "incomplete",
  error: "could not run",
};

const STYLE = `*{box-sizing:border-box}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:84rem;margin:0 auto;padding:1rem 1.5rem 3rem}
a{color:#0550ae}
h2{font-size:1.1rem;margin:1.1rem 0 .4rem;padding-bottom:.15rem;border-bottom:1px solid #d0d7de}
h3{font-size:1.05rem;margin:0 0 .3rem}
h4{font-size:.8rem;margin:0 0 .2rem;color:#59636e;text-transform:uppercase;letter-spacing:.04em}
code,pre{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
pre{margin:0;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.45rem .65rem}
pre.wrap{white-space:pre-wrap;overflow-wrap:anywhere}
pre.cmd{white-space:pre;overflow-x:auto}
.banner{padding:.6rem 1rem;border-radius:8px;margin:.2rem 0 .4rem}
.verdict{font-size:1.2rem;font-weight:700}
.meta{font-size:.85rem;color:#59636e}
.meta code{overflow-wrap:anywhere}
.ok{background:#dafbe1;border:1px solid #4ac26b}.bad{background:#ffebe9;border:1px solid #ff8182}.warn{background:#fff8c5;border:1px solid #d4a72c}
.findings{margin:.3rem 0;padding-left:1.6rem;line-height:1.4}.findings li{margin:.2rem 0}
.findings .summary{font-weight:600}
.small{font-size:.85rem;color:#59636e}
.src{display:inline-block;font-size:.75rem;font-weight:600;padding:0 .4rem;border-radius:1rem;background:#ddf4ff;color:#0550ae;margin-right:.3rem}
.src.pinned{background:#fbefff;color:#8250df}.src.profile{background:#fff1e5;color:#bc4c00}.src.pact{background:#eaeef2;color:#424a53}
.failure{border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:6px;padding:.7rem .9rem;margin:.8rem 0}
.failure.error,.failure.incomplete{border-left-color:#bf8700}
.failure>p{margin:.2rem 0}
.what{font-weight:600}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:.7rem;margin:.5rem 0}
@media (max-width:760px){.pair{grid-template-columns:minmax(0,1fr)}}
.cmds{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.3rem .7rem;margin:.5rem 0;align-items:start}
.cmds dt{font-size:.85rem;color:#59636e;padding-top:.35rem}.cmds dd{margin:0;min-width:0}
button.copy{font-size:.7rem;margin-left:.3rem;padding:0 .35rem;cursor:pointer}
table{border-collapse:collapse}
.diff{width:100%;margin:.5rem 0;table-layout:fixed}.diff th,.diff td{border:1px solid #d0d7de;padding:.3rem .5rem;vertical-align:top;text-align:left}
.diff th{background:#f6f8fa;font-size:.8rem}.diff td pre{border:0;padding:0;background:none}
.diff .exp{background:#f0fff4}.diff .act{background:#fff5f5}
.grid th,.grid td{border:1px solid #d0d7de;padding:.25rem .55rem;text-align:center;min-width:4.2rem}
.grid th:first-child,.grid td:first-child{text-align:left}
.grid td.doc{background:#dafbe1}.grid td.unseen{background:#fff;color:#59636e;font-style:italic;border-style:dashed;border-color:#8c959f}
.grid td.undoc{background:#ffcecb;font-weight:700}.grid td.none{background:#f6f8fa}
.legend span{display:inline-block;padding:0 .4rem;margin-right:.5rem;border:1px solid #d0d7de}
details>summary{cursor:pointer;font-weight:600;font-size:1.05rem;margin:1.5rem 0 .5rem}
.checks{width:100%}.checks td,.checks th{border-bottom:1px solid #eaeef2;padding:.2rem .5rem;text-align:left;vertical-align:top}
.checks{table-layout:fixed}.checks .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.checks .st{white-space:nowrap}.checks th.grp{background:#f6f8fa;font-size:.85rem;padding-top:.4rem}
.s-passed{color:#1a7f37}.s-failed{color:#cf222e;font-weight:600}.s-incomplete,.s-error{color:#9a6700;font-weight:600}`;

// Copy buttons: the command's text to the clipboard, or selected when the clipboard is not allowed.
const SCRIPT = `document.addEventListener("click",(e)=>{const b=e.target.closest("button.copy");if(!b)return;
const pre=document.getElementById(b.dataset.for);const sel=()=>{const r=document.createRange();r.selectNodeContents(pre);getSelection().removeAllRanges();getSelection().addRange(r);};
if(navigator.clipboard)navigator.clipboard.writeText(pre.textContent).then(()=>{b.textContent="copied";},sel);else sel();});`;

const sourceBadge = (s: { readonly source: string; readonly ref: string } | undefined): string =>
  s
    ? `<span class="src ${esc(s.source)}">${esc(s.source)}</span><span class="small">${esc(s.ref)}</span>`
    : "";

const checkLink = (id: string) => `<a href="#${anchorOf(id)}">${esc(id)}</a>`;

/** A body as the page shows it: indented when it is compact JSON (the same value), else as sent. */
function bodyText(text: string, bytes: number): { label: string; text: string } {
  try {
    const parsed: unknown = JSON.parse(text);
    if (JSON.stringify(parsed) === text && typeof parsed === "object" && parsed !== null)
      return { label: "body (JSON, indented here)", text: JSON.stringify(parsed, null, 2) };
  } catch {
    // not JSON: shown as sent
  }
  if (text.length <= BODY_SHOWN) return { label: "body", text };
  return {
    label: `body (the first ${BODY_SHOWN} characters of ${bytes} bytes; all of it is in the JSON report)`,
    text: `${cutAtCodePoint(text, BODY_SHOWN)} …`,
  };
}

function requestBlock(ex: Exchange, f: Failure): string {
  const r = ex.request;
  // The path, not the whole URL: the provider's address is in the banner (and in the curl line).
  const url = URL.canParse(r.url) ? new URL(r.url) : undefined;
  const lines = [`${r.method} ${url ? `${url.pathname}${url.search}` : r.url}`];
  let auth = false;
  for (const [name, value] of Object.entries(r.headers)) {
    const isAuth = name.toLowerCase() === "authorization";
    auth ||= isAuth;
    lines.push(`${name}: ${value}${isAuth ? `   ← ${r.credentials}` : ""}`);
  }
  if (!auth) lines.push(`(${r.credentials})`);
  let label = "";
  if (r.body !== undefined) {
    const whole = r.bodyTruncated ? (f.sentBody ?? r.body) : r.body;
    const b = bodyText(whole, r.bodyBytes ?? Buffer.byteLength(whole));
    label = ` · ${b.label}`;
    lines.push("", b.text);
  }
  return `<div><h4>Request${esc(label)}</h4><pre class="wrap">${esc(lines.join("\n"))}</pre></div>`;
}

function responseBlock(ex: Exchange): string {
  const res = ex.result;
  if (res.kind === "transport-error")
    return `<div><h4>Response</h4><pre class="wrap">${esc(`no answer: ${res.code}: ${res.message} (${res.durationMs} ms)`)}</pre></div>`;
  const lines = [
    `${res.status} · ${res.truncated ? "more than 1 MiB (cut)" : `${res.bodyBytes} bytes`} · ${res.durationMs} ms`,
  ];
  for (const [name, value] of Object.entries(res.headers))
    if (!QUIET_HEADERS.has(name.toLowerCase())) lines.push(`${name}: ${value}`);
  if (!Object.keys(res.headers).some((h) => h.toLowerCase() === "content-type"))
    lines.push("(no Content-Type)");
  let label = "";
  if (res.bodyBytes > 0) {
    const shown = Buffer.byteLength(res.bodyPreview);
    const b = bodyText(res.bodyPreview, res.bodyBytes);
    label = ` · ${shown < res.bodyBytes ? `the first ${shown} of ${res.bodyBytes} bytes` : b.label}`;
    lines.push("", b.text);
  } else lines.push("", "(no body)");
  return `<div><h4>Response${esc(label)}</h4><pre class="wrap">${esc(lines.join("\n"))}</pre></div>`;
}

/** A pact value as the diff shows it: JSON indented, a JSON string unquoted, missing said so. */
function diffValue(v: string | undefined): string {
  if (v === undefined || v === "") return '<span class="small">(none)</span>';
  try {
    const parsed: unknown = JSON.parse(v);
    const text = typeof parsed === "string" ? parsed : JSON.stringify(parsed, null, 2);
    return `<pre class="wrap">${esc(text)}</pre>`;
  } catch {
    return `<pre class="wrap">${esc(v)}</pre>`;
  }
}

const MISMATCH_ORDER = ["status", "header", "bodytype", "body"];

/** The pact's mismatches as a table: where, expected, actual, Pact's words. */
function pactDiff(mismatches: readonly PactMismatch[]): string {
  const rank = (m: PactMismatch) => {
    const i = MISMATCH_ORDER.indexOf(m.type);
    return i < 0 ? MISMATCH_ORDER.length : i;
  };
  const rows = [...mismatches]
    .sort((a, b) => rank(a) - rank(b))
    .map((m) => {
      const where =
        m.type === "status"
          ? "status"
          : m.type === "bodytype"
            ? "body type"
            : `${m.type} <code>${esc(m.path ?? "")}</code>`;
      return `<tr><td>${where}</td><td class="exp">${diffValue(m.expected)}</td><td class="act">${diffValue(m.actual)}</td><td class="small">${esc(m.message)}</td></tr>`;
    });
  return `<table class="diff"><colgroup><col style="width:14%"><col style="width:30%"><col style="width:26%"><col style="width:30%"></colgroup><tr><th>where</th><th>the pact expects</th><th>the provider answered</th><th>Pact says</th></tr>${rows.join("")}</table>`;
}

function command(label: string, id: string, text: string, hint = ""): string {
  return `<dt>${esc(label)}<button class="copy" type="button" data-for="${id}">copy</button></dt><dd><pre class="cmd" id="${id}">${esc(text)}</pre>${hint}</dd>`;
}

const linkTo = (file: string, from: string | undefined): string => {
  const rel = from ? relative(dirname(from), file).split(sep).join("/") : file;
  return encodeURI(rel.startsWith(".") || rel.startsWith("/") ? rel : `./${rel}`);
};

function failureSection(r: CheckResult, n: number, htmlPath: string | undefined): string {
  const f = r.failure;
  const a = anchorOf(r.id);
  const head = `<h3>${ICON[r.status]} ${esc(r.kind === "pact" ? r.title : r.id)}</h3>`;
  const rule = `<p><b>Rule:</b> ${esc(ruleSentence(r))} ${sourceBadge(f?.source ?? r.source)}</p>`;
  if (!f)
    return `<article class="failure ${r.status}" id="${a}">${head}<p class="what">${esc(r.status === "failed" ? "failed" : `${WORD[r.status]}: ${r.reason ?? ""}`)}</p>${rule}</article>`;
  const parts = [head, `<p class="what">${esc(f.message)}</p>`, rule];
  if (r.kind === "pact" && r.consumer)
    parts.push(
      `<p class="small">pact of ${esc(pactOriginText(r.consumer))} · check id <code>${esc(r.id)}</code></p>`,
    );
  if (!f.exchange && (f.expected || f.received))
    parts.push(
      `<p><b>Expected:</b> ${esc(f.expected ?? "")}<br><b>Received:</b> ${esc(f.received ?? "")}</p>`,
    );
  if (f.mismatches?.length) parts.push(pactDiff(f.mismatches));
  if (f.exchange)
    parts.push(
      `<div class="pair">${requestBlock(f.exchange, f)}${responseBlock(f.exchange)}</div>`,
    );
  if (f.readBack)
    parts.push(
      `<p class="small">then read back:</p><div class="pair">${requestBlock(f.readBack, f)}${responseBlock(f.readBack)}</div>`,
    );
  const cmds: string[] = [];
  if (f.setup) cmds.push(command("state setup (run first)", `setup-${n}`, f.setup));
  if (f.curl)
    cmds.push(
      command(
        "curl",
        `curl-${n}`,
        f.curl,
        f.exchange?.request.curlAuth.length
          ? '<span class="small">credentials from $IDP_USERNAME and $IDP_PASSWORD</span>'
          : "",
      ),
    );
  if (f.readBackCurl) cmds.push(command("curl (the read back)", `readback-${n}`, f.readBackCurl));
  if (f.replay) cmds.push(command("replay the check", `replay-${n}`, f.replay));
  if (f.replayFile)
    cmds.push(
      command(
        "replay test",
        `test-${n}`,
        replayTestCommand(f.replayFile),
        `<span class="small"><a href="${esc(linkTo(f.replayFile, htmlPath))}">${esc(f.replayFile.split(/[\\/]/).pop() ?? "")}</a>: fails until the provider is fixed</span>`,
      ),
    );
  if (cmds.length > 0) parts.push(`<dl class="cmds">${cmds.join("")}</dl>`);
  const facts = [
    f.seed !== undefined
      ? `seed ${f.seed}${f.counterexamplePath ? ` · path ${f.counterexamplePath}` : ""} · shrunk ${f.shrinks ?? 0} times`
      : "",
    f.body ? `payload: ${f.body}` : "",
    runsText(r),
    r.requests ? `${r.requests} request${r.requests === 1 ? "" : "s"}` : "",
    seconds(r.durationMs),
    f.observedDuring ? `seen while ${f.observedDuring} ran (not shrunk)` : "",
  ].filter(Boolean);
  parts.push(`<p class="small">${esc(facts.join(" · "))}</p>`);
  if (f.note) parts.push(`<p class="small">note: ${esc(f.note)}</p>`);
  return `<article class="failure" id="${a}">${parts.join("\n")}</article>`;
}

/** The failed checks in the order of the findings: each finding's example first, then its others. */
function inFindingOrder(report: VerifyReport): CheckResult[] {
  const failed = report.checks.filter((c) => c.status === "failed");
  const byId = new Map(failed.map((c) => [c.id, c]));
  const ids = new Set(
    report.findings.flatMap((f) => [f.example, ...f.checks.filter((id) => id !== f.example)]),
  );
  const ordered = [...ids].flatMap((id) => byId.get(id) ?? []);
  return [...ordered, ...failed.filter((c) => !ids.has(c.id))];
}

function findingsSection(report: VerifyReport, failed: readonly CheckResult[]): string {
  if (failed.length === 0) return "";
  const grouped = new Set(report.findings.flatMap((f) => f.checks));
  const items = report.findings.map((f) => {
    const example = failed.find((c) => c.id === f.example);
    return `<li><div class="summary"><a href="#${anchorOf(f.example)}">${esc(f.summary)}</a></div>
<div>${example ? `${esc(ruleSentence(example))} ` : ""}${sourceBadge(f.source)}</div>
<div class="small">${f.checks.length} check${f.checks.length > 1 ? "s" : ""}: ${f.checks.map(checkLink).join(", ")}</div></li>`;
  });
  const rest = failed.filter((c) => !grouped.has(c.id));
  if (rest.length > 0)
    items.push(
      `<li><div class="summary">Other failures</div><div class="small">${rest.map((c) => checkLink(c.id)).join(", ")}</div></li>`,
    );
  const n = report.findings.length;
  return `<section id="findings"><h2>Findings: ${n} root cause${n === 1 ? "" : "s"} behind ${failed.length} failing check${failed.length === 1 ? "" : "s"}</h2><ol class="findings">${items.join("\n")}</ol></section>`;
}

function gridSection(report: VerifyReport): string {
  const grid = statusGrid(report);
  const rows = grid.rows.map((row) => {
    const cells = row.cells.map((c, i) => {
      const status = grid.columns[i] ?? "";
      if (c.documented && c.count > 0)
        return `<td class="doc" title="${row.operation} ${status}: documented, seen ${c.count} times">${c.count}</td>`;
      if (c.documented)
        return `<td class="unseen" title="${row.operation} ${status}: documented, no request got it">not seen</td>`;
      if (c.count > 0)
        return `<td class="undoc" title="${row.operation} ${status}: NOT documented, seen ${c.count} times">${c.count}</td>`;
      return '<td class="none"></td>';
    });
    return `<tr><td><code>${esc(row.operation)}</code></td>${cells.join("")}</tr>`;
  });
  const cells = report.cells ?? [];
  const seen = cells.filter((c) => c.seen).length;
  const missing = missingClientErrorCells(cells);
  const coverage =
    cells.length > 0
      ? `<p class="small">Documented cells seen: ${seen} of ${cells.length}.${missing.length > 0 ? ` Documented client errors no request got: ${esc(cellsText(missing))}${report.checks.some((c) => c.id === CELLS_CHECK_ID) ? "" : " (--require-cells fails on these)"}.` : ""}</p>`
      : "";
  return `<section id="statuses"><h2>Statuses (operation × status, every request of the run)</h2>
<table class="grid"><tr><th>operation</th>${grid.columns.map((c) => `<th>${c}</th>`).join("")}</tr>${rows.join("")}</table>
<p class="small legend"><span class="grid-doc" style="background:#dafbe1">n</span>documented, seen n times <span style="border-style:dashed;font-style:italic">not seen</span>documented, never seen <span style="background:#ffcecb;font-weight:700">n</span>not documented, seen n times</p>${coverage}</section>`;
}

/** The pact rows under one heading per pact: whose it is, its version and branch, pending or not. */
function pactGroups(
  pacts: readonly CheckResult[],
  single: string,
): (readonly [string, CheckResult[]])[] {
  const groups = new Map<string, CheckResult[]>();
  for (const c of pacts) {
    const title = c.consumer
      ? `Pact interactions of ${pactOriginText(c.consumer)}`
      : `Pact interactions${single}`;
    groups.set(title, [...(groups.get(title) ?? []), c]);
  }
  return [...groups];
}

/** One line of a message for the table (the failure section has all of it). */
const short = (s: string, max = 140): string =>
  s.length > max ? `${cutAtCodePoint(s, max - 1)}…` : s;

function allChecks(report: VerifyReport, open: boolean): string {
  const consumers = new Set(
    report.checks.flatMap((c) =>
      c.consumer ? [`${c.consumer.name} ${c.consumer.version ?? ""}`] : [],
    ),
  );
  const row = (r: CheckResult) => {
    const who =
      r.consumer && consumers.size > 1
        ? ` <span class="small">(${esc(r.consumer.name)}${r.consumer.version ? ` ${esc(r.consumer.version)}` : ""})</span>`
        : "";
    const name = r.kind === "pact" ? `${esc(r.title)}${who}` : `<code>${esc(r.id)}</code>`;
    const linked = r.status === "passed" ? name : `<a href="#${anchorOf(r.id)}">${name}</a>`;
    const detail =
      r.status === "passed"
        ? r.warnings.map((w) => `⚠ ${short(w.message)}`).join("; ")
        : short(r.failure?.message ?? r.reason ?? "");
    return `<tr><td class="st s-${r.status}">${ICON[r.status]} ${WORD[r.status]}</td><td>${linked}</td><td class="num">${esc(runsText(r))}</td><td class="num">${seconds(r.durationMs)}</td><td class="small">${esc(detail)}</td></tr>`;
  };
  const group = (title: string, rows: readonly CheckResult[]) =>
    rows.length === 0
      ? ""
      : `<tr><th colspan="5" class="grp">${esc(title)} (${rows.length})</th></tr>${rows.map(row).join("\n")}`;
  const pacts = report.checks.filter((c) => c.kind === "pact");
  const single = consumers.size === 1 ? ` of ${[...consumers][0]?.trim()}` : "";
  const s = report.summary;
  return `<details id="all-checks"${open ? " open" : ""}><summary>All checks (${report.checks.length}): ${s.passed} passed, ${s.failed} failed${s.incomplete ? `, ${s.incomplete} incomplete` : ""}${s.error ? `, ${s.error} could not run` : ""}</summary>
<table class="checks"><colgroup><col style="width:8.5rem"><col style="width:42%"><col style="width:7rem"><col style="width:4.5rem"><col></colgroup>
<tr><th>status</th><th>check</th><th class="num">runs</th><th class="num">time</th><th>details</th></tr>
${pactGroups(pacts, single)
  .map(([title, rows]) => group(title, rows))
  .join("\n")}
${group(
  "Conformance checks",
  report.checks.filter((c) => c.kind === "conformance"),
)}</table></details>`;
}

/**
 * The HTML report: one self-contained page (inline CSS, a few lines of script for copy buttons).
 * Verdict first, then the findings (one per root cause) linking to each failure, each failure with
 * its rule in words, request and response side by side, copyable commands and the pact diff; then
 * the status grid and every check. `path` is where the page is written (relative links).
 */
export function renderHtml(report: VerifyReport, options: { readonly path?: string } = {}): string {
  const banner = report.exitCode === 0 ? "ok" : report.exitCode === 1 ? "bad" : "warn";
  const failed = inFindingOrder(report);
  const broken = report.checks.filter((c) => c.status === "incomplete" || c.status === "error");
  const states = statesText(report);
  const meta = [
    `${shardText(report)}provider <code>${esc(report.providerUrl)}</code>${report.embedded ? " (embedded reference provider)" : ""}`,
    `seed <code>${report.seed}</code>`,
    `${report.runs} runs per check`,
    `profile ${esc(report.profile.name)}${report.profile.file ? ` (<code>${esc(report.profile.file)}</code>)` : ""}`,
    `${report.requests.sent} requests, ${report.requests.answered} answered`,
    esc(deploymentText(report)),
    esc(`left as found: ${restoreLines(report).join("; ")}`),
    ...(states ? [esc(states)] : []),
    seconds(report.durationMs),
    `idp-verify ${esc(report.tool.version)}`,
    `started ${esc(report.startedAt)}`,
  ].join(" · ");
  const verdict = verdictLine(report);
  const left =
    report.leftOut.length === 0
      ? ""
      : `<section id="left-out"><h2>Not checked (never counted as passed)</h2><ul>${report.leftOut.map((l) => `<li><code>${esc(l.id)}</code>: ${esc(l.reason)}</li>`).join("")}</ul></section>`;
  const pactSources =
    report.pactSources.length > 0
      ? `<p class="small">Pacts: ${report.pactSources.map((p) => `<code>${esc(p)}</code>`).join(", ")}</p>`
      : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`idp-verify ${verdict.split(":")[0]}: ${report.summary.failed} failed · ${report.providerUrl}`)}</title>
<style>${STYLE}</style></head><body><main>
<header class="banner ${banner}"><div class="verdict">${esc(verdict)}</div><div class="meta">${meta}</div></header>
${report.warnings.map((w) => `<p class="banner warn">${esc(w)}</p>`).join("\n")}
${report.providerStopped ? `<p class="banner bad">The provider stopped answering; the run ended early: ${esc(report.providerStopped)}</p>` : ""}
${findingsSection(report, failed)}
${failed.length > 0 ? `<section id="failures"><h2>Failures (${failed.length})</h2>${failed.map((r, i) => failureSection(r, i, options.path)).join("\n")}</section>` : ""}
${broken.length > 0 ? `<section id="could-not-verify"><h2>Could not verify (${broken.length})</h2>${broken.map((r, i) => failureSection(r, failed.length + i, options.path)).join("\n")}</section>` : ""}
${gridSection(report)}
${left}
${allChecks(report, failed.length === 0 && broken.length === 0)}
${pactSources}
</main><script>${SCRIPT}</script></body></html>
`;
}
