import type { CheckResult, VerifyReport } from "../results.ts";
import { exchangeLines } from "./format.ts";

const xml = (s: string) =>
  s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

function testcase(r: CheckResult): string {
  const attrs = `classname="${xml(r.kind === "pact" ? "pact" : `conformance.${r.rule ?? ""}`)}" name="${xml(r.id)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
  const f = r.failure;
  const out = [`    <testcase ${attrs}>`];
  if (r.status === "failed" && f) {
    const detail = [
      f.message,
      ...(f.exchange ? exchangeLines(f.exchange) : []),
      ...(f.setup ? [`state: ${f.setup}`] : []),
      ...(f.curl ? [`curl: ${f.curl}`] : []),
      ...(f.seed !== undefined
        ? [`seed: ${f.seed}${f.counterexamplePath ? ` path ${f.counterexamplePath}` : ""}`]
        : []),
      ...(f.replay ? [`replay: ${f.replay}`] : []),
    ].join("\n");
    out.push(
      `      <failure message="${xml(f.message)}" type="${xml(r.rule ?? "pact")}">${xml(detail)}</failure>`,
    );
  } else if (r.status === "skipped") out.push(`      <skipped message="${xml(r.reason ?? "")}"/>`);
  else if (r.status === "error")
    out.push(`      <error message="${xml(r.reason ?? "")}" type="could-not-verify"/>`);
  if (r.warnings.length > 0)
    out.push(
      `      <system-out>${xml(r.warnings.map((w) => `warning: ${w.message} (${w.count}x)`).join("\n"))}</system-out>`,
    );
  out.push("    </testcase>");
  return out.join("\n");
}

/** JUnit XML: one test case per check and per pact interaction. */
export function renderJunit(report: VerifyReport): string {
  const suites = (["pact", "conformance"] as const).map((kind) => {
    const cases = report.checks.filter((c) => c.kind === kind);
    const count = (s: string) => cases.filter((c) => c.status === s).length;
    const time = cases.reduce((t, c) => t + c.durationMs, 0) / 1000;
    return [
      `  <testsuite name="idp-verify.${kind}" tests="${cases.length}" failures="${count("failed")}" errors="${count("error")}" skipped="${count("skipped")}" time="${time.toFixed(3)}" timestamp="${report.startedAt}">`,
      `    <properties><property name="seed" value="${report.seed}"/><property name="runs" value="${report.runs}"/><property name="provider" value="${xml(report.providerUrl)}"/>${report.shard ? `<property name="shard" value="${report.shard.index}/${report.shard.total}"/>` : ""}</properties>`,
      ...cases.map(testcase),
      "  </testsuite>",
    ].join("\n");
  });
  const s = report.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="idp-verify${report.shard ? ` shard ${report.shard.index}/${report.shard.total}` : ""}" tests="${report.checks.length}" failures="${s.failed}" errors="${s.error}" skipped="${s.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join("\n")}\n</testsuites>\n`;
}
