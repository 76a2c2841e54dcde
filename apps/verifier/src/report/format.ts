import { DETAILED_OPERATION_IDS, detailedOperations } from "@idp/contracts";
import type { Exchange } from "../client.ts";
import type { VerifyReport } from "../results.ts";

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
    lines.push(`          body: ${request.body}${request.bodyTruncated ? " ...(cut)" : ""}`);
  if (result.kind === "response") {
    lines.push(
      `response: ${result.status}, content-type ${result.contentType ?? "(none)"}, ${result.truncated ? "more than 1 MiB (cut)" : `${result.bodyBytes} bytes`}, ${result.durationMs} ms`,
    );
    if (result.bodyBytes > 0)
      lines.push(
        `          body: ${result.bodyPreview}${result.bodyBytes > result.bodyPreview.length ? " ..." : ""}`,
      );
  } else lines.push(`response: none: ${result.code}: ${result.message} (${result.durationMs} ms)`);
  return lines;
}

export interface Grid {
  readonly columns: readonly string[];
  readonly rows: readonly {
    readonly operation: string;
    readonly cells: readonly { readonly count: number; readonly documented: boolean }[];
  }[];
}

/** The (operation x status) grid: every documented status, plus any other status seen. */
export function statusGrid(report: VerifyReport): Grid {
  const statuses = new Set<string>();
  for (const op of DETAILED_OPERATION_IDS)
    for (const s of detailedOperations[op].documentedStatuses) statuses.add(String(s));
  for (const row of Object.values(report.grid)) for (const s of Object.keys(row)) statuses.add(s);
  const columns = [...statuses].sort((a, b) => Number(a) - Number(b));
  return {
    columns,
    rows: DETAILED_OPERATION_IDS.map((op) => ({
      operation: op,
      cells: columns.map((s) => ({
        count: report.grid[op]?.[s] ?? 0,
        documented: detailedOperations[op].documentedStatuses.includes(Number(s)),
      })),
    })),
  };
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
