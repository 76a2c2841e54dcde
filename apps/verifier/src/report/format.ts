import { DETAILED_OPERATION_IDS, detailedOperations } from "@idp/contracts";
import { cutAtCodePoint, type Exchange } from "../http/exchange.ts";
import { shown } from "./shown.ts";

/** What a console line shows of a sent body, and the longest curl line printed whole. */
const BODY_SHOWN = 400;
const CURL_SHOWN = 1500;

import type { CheckResult, Failure, VerifyReport } from "../results.ts";

/** Lines describing an exchange: request (Authorization redacted), response or transport error. */
export function exchangeLines(exchange: Exchange): string[] {
  const { request, result } = exchange;
  const lines = [`request:  ${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers))
    lines.push(
      `          ${name}: ${value}${name.toLowerCase() === "authorization" ? `   (${request.credentials})` : ""}`,
    );
  if (!Object.keys(request.headers).some((h) => h.toLowerCase() === "authorization"))
    lines.push(`          (${request.credentials})`);
  if (request.body !== undefined)
    lines.push(
      `          body: ${request.body.length > BODY_SHOWN ? `${cutAtCodePoint(request.body, BODY_SHOWN)} …(${request.bodyBytes} bytes in all; the whole body is in the JSON report)` : request.body}`,
    );
  if (result.kind === "response") {
    lines.push(
      `response: ${result.status}, content-type ${result.contentType ?? "(none)"}, ${result.truncated ? "more than 1 MiB (cut)" : `${result.bodyBytes} bytes`}, ${result.durationMs} ms`,
    );
    if (result.bodyBytes > 0)
      lines.push(
        `          body: ${result.bodyPreview}${result.bodyBytes > Buffer.byteLength(result.bodyPreview) ? " ..." : ""}`,
      );
  } else lines.push(`response: none: ${result.code}: ${result.message} (${result.durationMs} ms)`);
  return lines.map(shown);
}

/** The R1 variants' requests, as the subject of a sentence. */
const AUTH_SUBJECTS: Readonly<Record<string, string>> = {
  "no-header": "A request without an Authorization header",
  "other-scheme": "A request whose Authorization uses a scheme other than Basic",
  "bad-base64": "A request whose Basic credentials are not base64",
  "no-colon": "A request whose Basic credentials have no colon between user and password",
  "wrong-user": "A request with a wrong username",
  "wrong-password": "A request with a wrong password",
};

const sentence = (s: string): string => {
  const t = s.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? "" : "."}`;
};

/**
 * What a check asserts, as one plain sentence: `A request with a wrong password gets 401 with error
 * "authentication_failed", whatever its body.`; for a pact, what its consumer expects.
 */
export function ruleSentence(
  check: Pick<CheckResult, "id" | "kind" | "title" | "consumer">,
): string {
  if (check.kind === "pact") {
    const who = check.consumer
      ? `${check.consumer.name}${check.consumer.version ? ` ${check.consumer.version}` : ""}`
      : "the consumer";
    return `The pact of ${who} expects: ${sentence(check.title)}`;
  }
  const variant = /^R1\.auth\.(.+)$/.exec(check.id)?.[1];
  const subject = variant ? AUTH_SUBJECTS[variant] : undefined;
  if (subject) return `${subject} gets 401 with error "authentication_failed", whatever its body.`;
  const login = /^R7\.push-(40[34])$/.exec(check.id)?.[1];
  if (login)
    return `A valid push ${login === "404" ? "to an id no login user has" : "to a login user of another login app"} gets ${login} (or the status a profile pins instead).`;
  return sentence(check.title.replace(/>= ?(\d+)/g, "with a status of $1 or more"));
}

/**
 * Whose pact an interaction is, as every report prints it (conformance.md §5):
 * `consumer shop-backend version 1f2e3d, branch main, not pending`.
 */
export function pactOriginText(c: NonNullable<CheckResult["consumer"]>): string {
  return `consumer ${c.name} version ${c.version ?? "(not named: a pact file)"}, branch ${c.branch ?? "(not named)"}, ${c.pending ? "pending" : "not pending"}`;
}

/** One line per pact of the run: its origin and how its interactions ended. */
export function pactOriginLines(report: VerifyReport): string[] {
  const byOrigin = new Map<string, CheckResult[]>();
  for (const c of report.checks)
    if (c.kind === "pact" && c.consumer) {
      const key = pactOriginText(c.consumer);
      byOrigin.set(key, [...(byOrigin.get(key) ?? []), c]);
    }
  return [...byOrigin].map(([origin, checks]) => {
    const counts = (["passed", "failed", "incomplete", "error"] as const)
      .map((status) => [status, checks.filter((c) => c.status === status).length] as const)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${n} ${status === "error" ? "could not run" : status}`);
    return `${origin}: ${checks.length} interaction${checks.length > 1 ? "s" : ""} (${counts.join(", ")})`;
  });
}

/** Where a failure's rule comes from, in words: `spec (service-interface.md: Errors)`. */
export const sourceText = (f: {
  readonly source?: { readonly source: string; readonly ref: string } | undefined;
}): string => (f.source ? `${f.source.source} (${f.source.ref})` : "");

/** Every line of a failure, as the console and the JUnit body print them. */
export function failureLines(f: Failure): string[] {
  const lines = [f.message];
  if (f.source) lines.push(`source:   ${sourceText(f)}`);
  if (f.body) lines.push(`payload:  ${f.body}`);
  for (const m of f.mismatches ?? [])
    lines.push(
      `mismatch: ${m.type}${m.path ? ` ${m.path}` : ""}: ${m.expected !== undefined || m.actual !== undefined ? `expected ${m.expected ?? "(none)"}, got ${m.actual ?? "(none)"}` : m.message}`,
    );
  if (f.exchange) lines.push(...exchangeLines(f.exchange));
  if (f.readBack) lines.push("then read back:", ...exchangeLines(f.readBack));
  if (f.setup) lines.push(`state:    ${f.setup}`);
  if (f.curl)
    lines.push(
      f.curl.length > CURL_SHOWN
        ? `curl:     (${f.curl.length} characters: see the JSON or HTML report)`
        : `curl:     ${f.curl}`,
    );
  if (f.readBackCurl) lines.push(`read:     ${f.readBackCurl}`);
  if (f.seed !== undefined)
    lines.push(
      `seed:     ${f.seed}${f.checkSeed !== undefined ? ` (this check's fast-check seed ${f.checkSeed})` : ""}${f.counterexamplePath ? `, path ${f.counterexamplePath}` : ""}, shrunk ${f.shrinks ?? 0} times`,
    );
  if (f.observedDuring) lines.push(`seen:     while check ${f.observedDuring} ran (not shrunk)`);
  if (f.note) lines.push(`note:     ${f.note}`);
  if (f.replay) lines.push(`replay:   ${f.replay}`);
  if (f.replayFile) lines.push(`test:     ${replayTestCommand(f.replayFile)}`);
  return lines.map(shown);
}

/**
 * How to run one replay file: vitest rooted at its folder (a project's own vitest config, e.g. this
 * repository's, would not pick up a file outside its projects), filtered to the file.
 */
export function replayTestCommand(file: string): string {
  const cut = Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\"));
  const q = (s: string) => (/^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
  return `npx vitest run --root ${q(file.slice(0, cut) || "/")} ${q(file.slice(cut + 1))}`;
}

/** `12/100 runs` for a conformance check. */
export const runsText = (r: CheckResult): string =>
  r.kind === "conformance"
    ? r.runs.done === r.runs.asked
      ? `${r.runs.done} run${r.runs.done === 1 ? "" : "s"}`
      : `${r.runs.done} of ${r.runs.asked} runs`
    : "";

export interface Grid {
  readonly columns: readonly string[];
  readonly rows: readonly {
    readonly operation: string;
    readonly cells: readonly { readonly count: number; readonly documented: boolean }[];
  }[];
}

/** The (operation x status) grid: every status the profile documents, plus any other status seen. */
export function statusGrid(report: VerifyReport): Grid {
  const documented = (op: string) =>
    report.documentedStatuses[op] ??
    detailedOperations[op as keyof typeof detailedOperations].documentedStatuses;
  const statuses = new Set<string>();
  for (const op of DETAILED_OPERATION_IDS) for (const s of documented(op)) statuses.add(String(s));
  for (const row of Object.values(report.grid)) for (const s of Object.keys(row)) statuses.add(s);
  const columns = [...statuses].sort((a, b) => Number(a) - Number(b));
  return {
    columns,
    rows: DETAILED_OPERATION_IDS.map((op) => ({
      operation: op,
      cells: columns.map((s) => ({
        count: report.grid[op]?.[s] ?? 0,
        documented: documented(op).includes(Number(s)),
      })),
    })),
  };
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The verdict line: what passed, what did not, and what was left out and how to enable it. */
export function verdictLine(report: VerifyReport): string {
  const s = report.summary;
  const word =
    report.exitCode === 0 ? "PASSED" : report.exitCode === 1 ? "FAILED" : "COULD NOT VERIFY";
  const parts = [`${s.passed} passed`, `${s.failed} failed`];
  const throttled = report.checks.filter(
    (c) => c.status === "incomplete" && c.reason?.startsWith("throttled"),
  ).length;
  if (s.incomplete)
    parts.push(`${s.incomplete} incomplete${throttled ? ` (${throttled} throttled)` : ""}`);
  if (s.error) parts.push(`${s.error} could not run`);
  if (s.warnings) parts.push(`${s.warnings} warnings`);
  let line = `${word}: ${parts.join(", ")} (exit ${report.exitCode})`;
  // Said where the verdict is read: what the run did not check about the connection itself.
  if (report.deployment.insecure) line += "; TLS certificates not checked (--insecure)";
  if (report.leftOut.length > 0) {
    const byOption = new Map<string, string[]>();
    for (const l of report.leftOut) {
      const key = l.enabledBy ?? "";
      byOption.set(key, [...(byOption.get(key) ?? []), l.id]);
    }
    const groups = [...byOption].map(
      ([opt, ids]) => `${ids.length} left out (${ids.join(", ")})${opt ? `: need ${opt}` : ""}`,
    );
    line += `; not checked: ${groups.join("; ")}`;
  }
  return line;
}

/** What the console, JUnit and HTML reports say of how the provider was reached (conformance.md §7). */
export function deploymentText(report: VerifyReport): string {
  const d = report.deployment;
  const { throttled, resent } = report.requests;
  const parts = [`${throttled} throttled answer${throttled === 1 ? "" : "s"} waited out`];
  // Sent again, never judged: said wherever the run's facts are.
  if (resent.gateway > 0)
    parts.push(
      `${resent.gateway} gateway error${resent.gateway === 1 ? "" : "s"} (502/504, not JSON) waited out and sent again`,
    );
  if (resent.connection > 0)
    parts.push(
      `${resent.connection} request${resent.connection === 1 ? "" : "s"} sent again on a new connection (a connection kept alive closed idle, or bytes nobody asked for)`,
    );
  if (d.rateLimitPerSecond !== undefined)
    parts.push(`--rate-limit ${rateText(d.rateLimitPerSecond)}`);
  if (d.headers.length > 0) parts.push(`headers ${d.headers.join(", ")} (values redacted)`);
  if (d.privateCa) parts.push("private CA");
  if (d.clientCertificate) parts.push("client certificate");
  if (d.insecure) parts.push("TLS certificates NOT checked (--insecure)");
  if (d.proxied) parts.push("through a proxy");
  if (d.har) parts.push(`HAR ${d.har}`);
  return parts.join(" · ");
}

/** How provider states were scheduled and why (conformance.md §4), for every report; undefined without states. */
export function statesText(report: VerifyReport): string | undefined {
  return report.states ? `provider states: ${report.states.detail}` : undefined;
}

const rateText = (perSecond: number) =>
  Number.isInteger(perSecond) ? `${perSecond}/s` : `${Math.round(perSecond * 60)}/m`;

/** A schema name as a report line shows it: whole up to 40 UTF-16 units, else cut, with its length. */
export function shownName(name: string): string {
  return name.length <= 40
    ? JSON.stringify(name)
    : `${JSON.stringify(cutAtCodePoint(name, 40))}… (${name.length} UTF-16 units)`;
}

/** What the run put back and removed (conformance.md §8), one line each, for every report. */
export function restoreLines(report: VerifyReport): string[] {
  const r = report.restore;
  const rules =
    r.rules.outcome === "not-restored"
      ? `clustering rules: left as the last ones this run sent (${r.rules.detail})`
      : r.rules.outcome === "restored"
        ? "clustering rules: put back as they were before the run"
        : "clustering rules: not changed by this run";
  const s = r.schemas;
  const schemas = !s.cleanup
    ? "schemas: the ones this run created were kept (--cleanup removes them)"
    : `schemas: ${s.removed.length} created by this run removed${
        s.failed.length > 0
          ? `; ${s.failed.length} could not be: ${s.failed
              .slice(0, 3)
              .map((f) => `${shownName(f.name)} (${f.reason})`)
              .join(", ")}${s.failed.length > 3 ? ", ..." : ""}`
          : ""
      }`;
  return [rules, schemas];
}
