import type { CheckResult, LeftOut, VerifyReport } from "../results.ts";
import { CELLS_CHECK_ID } from "./cells.ts";
import { deploymentText, failureLines, restoreLines, statesText, verdictLine } from "./format.ts";
import { shownBlock } from "./shown.ts";

// XML 1.0 forbids lone surrogates and U+FFFE/U+FFFF: each becomes U+FFFD. Control characters the
// provider wrote are escaped (`\u001b`, `\r`) before that: shown, never obeyed (conformance.md §9).
const XML_FORBIDDEN =
  /[\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const xml = (s: string) =>
  shownBlock(s)
    .replace(XML_FORBIDDEN, "\ufffd")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

/** An attribute holds one line: reporters show `message` as a title. */
const firstLine = (s: string) => s.split(/\r?\n/, 1)[0] ?? "";
const secs = (ms: number) => (ms / 1000).toFixed(3);

type Kind = CheckResult["kind"];

/**
 * classname and name of a case. GitHub's and GitLab's reporters print `classname` and `name` side
 * by side, so the name never repeats the classname: pact cases are the interaction's description
 * (with the consumer when the run has several), conformance cases the check id under its rule.
 */
export function caseNames(
  r: Pick<CheckResult, "id" | "kind" | "rule" | "title" | "consumer">,
  severalConsumers: boolean,
): { readonly classname: string; readonly name: string } {
  if (r.kind === "pact") {
    const who = r.consumer
      ? ` (${r.consumer.name}${r.consumer.version ? ` ${r.consumer.version}` : ""})`
      : "";
    return { classname: "pact", name: `${r.title}${severalConsumers ? who : ""}` };
  }
  const group = r.id === CELLS_CHECK_ID ? "cells" : (r.rule ?? r.id.split(".")[0] ?? "");
  return { classname: `conformance.${group}`, name: r.id };
}

function testcase(r: CheckResult, severalConsumers: boolean): string {
  const { classname, name } = caseNames(r, severalConsumers);
  const attrs = `classname="${xml(classname)}" name="${xml(name)}" time="${secs(r.durationMs)}"`;
  const f = r.failure;
  const body: string[] = [];
  if (r.kind === "pact" && r.consumer) {
    const c = r.consumer;
    const property = (name: string, value: string) =>
      `<property name="${name}" value="${xml(value)}"/>`;
    body.push(
      `      <properties>${property("consumer", c.name)}${c.version ? property("consumer.version", c.version) : ""}${c.branch ? property("consumer.branch", c.branch) : ""}${property("pending", String(c.pending ?? false))}</properties>`,
    );
  }
  if (r.status === "failed")
    body.push(
      `      <failure message="${xml(firstLine(f?.message ?? "failed"))}" type="${xml(r.rule ?? (r.kind === "pact" ? "pact" : "cells"))}">${xml(f ? failureLines(f).join("\n") : "")}</failure>`,
    );
  else if (r.status === "incomplete")
    body.push(
      `      <error message="${xml(firstLine(`incomplete: ${r.reason ?? ""}`))}" type="incomplete">${xml(r.reason ?? "")}</error>`,
    );
  else if (r.status === "error")
    body.push(
      `      <error message="${xml(firstLine(`could not run: ${r.reason ?? ""}`))}" type="could-not-verify">${xml(r.reason ?? "")}</error>`,
    );
  if (r.warnings.length > 0)
    body.push(
      `      <system-out>${xml(r.warnings.map((w) => `warning: ${w.message}${w.count > 1 ? ` (${w.count} times)` : ""}`).join("\n"))}</system-out>`,
    );
  return body.length === 0
    ? `    <testcase ${attrs}/>`
    : [`    <testcase ${attrs}>`, ...body, "    </testcase>"].join("\n");
}

const skipped = (kind: Kind, l: LeftOut) =>
  `    <testcase classname="${kind === "pact" ? "pact" : `conformance.${xml(l.id.split(".")[0] ?? "")}`}" name="${xml(kind === "pact" ? l.id.replace(/^pact\./, "") : l.id)}" time="0.000">\n      <skipped message="${xml(firstLine(`not checked: ${l.reason}${l.enabledBy ? ` (needs ${l.enabledBy})` : ""}`))}"/>\n    </testcase>`;

/**
 * JUnit XML: a suite per kind (pact, conformance) that has a case, a case per check. A suite's time
 * is the kind's wall time (its checks run in parallel, so their times do not add up); a case's is
 * the check's own wall time. Left-out checks are skipped cases; incomplete ones and those that could
 * not run are errors.
 */
export function renderJunit(report: VerifyReport): string {
  const consumers = new Set(
    report.checks.flatMap((c) =>
      c.consumer ? [`${c.consumer.name}\u0000${c.consumer.version ?? ""}`] : [],
    ),
  );
  const started = Date.parse(report.startedAt);
  const states = statesText(report);
  const suites = (["pact", "conformance"] as const).flatMap((kind) => {
    const cases = report.checks.filter((c) => c.kind === kind);
    const left = report.leftOut.filter((l) => l.kind === kind);
    if (cases.length + left.length === 0) return [];
    const count = (...s: string[]) => cases.filter((c) => s.includes(c.status)).length;
    const phase = report.phases?.[kind];
    const wall = phase?.durationMs ?? cases.reduce((t, c) => Math.max(t, c.durationMs), 0);
    const at = new Date(started + (phase?.startedMs ?? 0)).toISOString().replace(/\.\d+Z$/, "");
    return [
      [
        `  <testsuite name="idp-verify ${kind}" tests="${cases.length + left.length}" failures="${count("failed")}" errors="${count("error", "incomplete")}" skipped="${left.length}" time="${secs(wall)}" timestamp="${at}">`,
        `    <properties><property name="tool" value="idp-verify ${xml(report.tool.version)}"/><property name="provider" value="${xml(report.providerUrl)}"/><property name="seed" value="${report.seed}"/><property name="runs" value="${report.runs}"/><property name="profile" value="${xml(report.profile.name)}"/><property name="requests.throttled" value="${report.requests.throttled}"/><property name="requests.resent.gateway" value="${report.requests.resent.gateway}"/><property name="requests.resent.connection" value="${report.requests.resent.connection}"/><property name="deployment" value="${xml(deploymentText(report))}"/><property name="restore" value="${xml(restoreLines(report).join("; "))}"/>${states ? `<property name="states" value="${xml(states)}"/>` : ""}${report.shard ? `<property name="shard" value="${report.shard.index}/${report.shard.total}"/>` : ""}</properties>`,
        ...cases.map((c) => testcase(c, consumers.size > 1)),
        ...left.map((l) => skipped(kind, l)),
        "  </testsuite>",
      ].join("\n"),
    ];
  });
  const s = report.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!-- ${xml(verdictLine(report)).replaceAll("--", "- -")} -->\n<testsuites name="idp-verify${report.shard ? ` shard ${report.shard.index}/${report.shard.total}` : ""}" tests="${report.checks.length + report.leftOut.length}" failures="${s.failed}" errors="${s.error + s.incomplete}" skipped="${s.leftOut}" time="${secs(report.durationMs)}">\n${suites.join("\n")}\n</testsuites>\n`;
}
