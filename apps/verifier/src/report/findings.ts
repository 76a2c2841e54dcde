import {
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  detailedOperations,
} from "@idp/contracts";
import type { CheckResult, Failure, Finding } from "../results.ts";

const BODY_KINDS = new Set([
  "content-type",
  "truncated",
  "not-json",
  "not-utf8",
  "body-shape",
  "errors-item",
  "error-code",
  "success-body",
]);

/** The detailed operation of a request, from its method and path. */
export function operationOfRequest(method: string, url: string): DetailedOperationId | undefined {
  const path = new URL(url, "http://x").pathname;
  return DETAILED_OPERATION_IDS.find((op) => {
    const o = detailedOperations[op];
    const pattern = new RegExp(`${o.path.replace(/\{\w+\}/g, "[^/]+")}$`);
    return o.method === method.toUpperCase() && pattern.test(path);
  });
}

/** What a failure says about the provider, independent of which check saw it. */
export function signatureOf(f: Failure): string {
  const op = f.exchange
    ? (f.exchange.operation ??
      operationOfRequest(f.exchange.request.method, f.exchange.request.url))
    : undefined;
  const status = f.exchange?.result.kind === "response" ? f.exchange.result.status : undefined;
  if (f.kind === "pact-mismatch" && f.mismatches) {
    const st = f.mismatches.find((m) => m.type === "status");
    if (st) return `status:${op ?? "?"}:${st.actual ?? status ?? "?"}`;
    const header = f.mismatches.find(
      (m) => m.type === "header" && /content-type/i.test(m.path ?? ""),
    );
    if (header) return "body:content-type";
    const body = f.mismatches.find((m) => m.type === "body" || m.type === "bodytype");
    if (body && /^\$\.errors\b/.test(body.path ?? "")) return "body:errors-item";
    if (body && /^\$\.error\b/.test(body.path ?? "")) return "body:error-code";
    return `pact:${op ?? "?"}:${body?.path ?? f.mismatches[0]?.type ?? "?"}`;
  }
  if (f.kind && BODY_KINDS.has(f.kind)) return `body:${f.kind}`;
  if (f.kind === "no-answer") return `no-answer:${op ?? "?"}:${f.received ?? ""}`;
  return `status:${op ?? "?"}:${status ?? f.received ?? "?"}`;
}

/**
 * Groups the failed checks by what they say about the provider, then merges the groups whose
 * title is the same (one title, one root cause: "R1: ... must get 401, got 429" seen on three
 * operations is one finding); biggest group first.
 */
export function findingsOf(results: readonly CheckResult[]): Finding[] {
  const groups = new Map<string, CheckResult[]>();
  for (const r of results) {
    if (r.status !== "failed" || !r.failure) continue;
    const key = signatureOf(r.failure);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const byTitle = new Map<string, CheckResult[]>();
  for (const rs of groups.values()) {
    const title = exampleOf(rs).failure?.message ?? "";
    byTitle.set(title, [...(byTitle.get(title) ?? []), ...rs]);
  }
  return [...byTitle.values()]
    .map((rs) => {
      const example = exampleOf(rs);
      const f = example.failure as Failure;
      return {
        summary: f.message,
        ...(f.rule ? { rule: f.rule } : {}),
        ...(f.source ? { source: f.source } : {}),
        checks: rs.map((r) => r.id),
        example: example.id,
      };
    })
    .sort((a, b) => b.checks.length - a.checks.length);
}

/** A conformance check's failure is the best example: it is shrunk and has a replay. */
const exampleOf = (rs: readonly CheckResult[]): CheckResult =>
  rs.find((r) => r.kind === "conformance") ?? (rs[0] as CheckResult);
