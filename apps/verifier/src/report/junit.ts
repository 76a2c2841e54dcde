import type { CheckResult, VerifyReport } from "../results.ts";
import { failureLines, verdictLine } from "./format.ts";

// XML 1.0 forbids control characters and lone surrogates: each becomes U+FFFD.
const XML_FORBIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to replace
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const xml = (s: string) =>
  s
    .replace(XML_FORBIDDEN, "\ufffd")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

function testcase(r: CheckResult): string {
  const classname = r.kind === "pact" ? "pact" : `conformance.${r.rule ?? ""}`;
  const name = r.kind === "pact" ? r.title : r.id;
  const attrs = `classname="${xml(classname)}" name="${xml(name)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
  const f = r.failure;
  const out = [`    <testcase ${attrs}>`];
  if (r.status === "failed" && f)
    out.push(
      `      <failure message="${xml(f.message)}" type="${xml(r.rule ?? "pact")}">${xml(failureLines(f).join("\n"))}</failure>`,
    );
  else if (r.status === "incomplete")
    out.push(`      <error message="${xml(`incomplete: ${r.reason ?? ""}`)}" type="incomplete"/>`);
  else if (r.status === "error")
    out.push(`      <error message="${xml(r.reason ?? "")}" type="could-not-verify"/>`);
  if (r.warnings.length > 0)
    out.push(
      `      <system-out>${xml(r.warnings.map((w) => `warning: ${w.message} (${w.count}x)`).join("\n"))}</system-out>`,
    );
  out.push("    </testcase>");
  return out.join("\n");
}

/** JUnit XML: a suite per kind, a case per check and per pact interaction. */
export function renderJunit(report: VerifyReport): string {
  const suites = (["pact", "conformance"] as const).map((kind) => {
    const cases = report.checks.filter((c) => c.kind === kind);
    const count = (...s: string[]) => cases.filter((c) => s.includes(c.status)).length;
    const left = report.leftOut.filter((l) => l.kind === kind);
    const time = cases.reduce((t, c) => Math.max(t, c.durationMs), 0) / 1000;
    return [
      `  <testsuite name="idp-verify.${kind}" tests="${cases.length + left.length}" failures="${count("failed")}" errors="${count("error", "incomplete")}" skipped="${left.length}" time="${time.toFixed(3)}" timestamp="${report.startedAt}">`,
      `    <properties><property name="tool" value="idp-verify ${xml(report.tool.version)}"/><property name="seed" value="${report.seed}"/><property name="runs" value="${report.runs}"/><property name="provider" value="${xml(report.providerUrl)}"/>${report.shard ? `<property name="shard" value="${report.shard.index}/${report.shard.total}"/>` : ""}</properties>`,
      ...cases.map(testcase),
      ...left.map(
        (l) =>
          `    <testcase classname="${kind}" name="${xml(l.id)}" time="0.000">\n      <skipped message="${xml(`not checked: ${l.reason}`)}"/>\n    </testcase>`,
      ),
      "  </testsuite>",
    ].join("\n");
  });
  const s = report.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!-- ${xml(verdictLine(report)).replaceAll("--", "- -")} -->\n<testsuites name="idp-verify${report.shard ? ` shard ${report.shard.index}/${report.shard.total}` : ""}" tests="${report.checks.length + report.leftOut.length}" failures="${s.failed}" errors="${s.error + s.incomplete}" skipped="${s.leftOut}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join("\n")}\n</testsuites>\n`;
}
