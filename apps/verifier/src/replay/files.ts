import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ContractProfile } from "@idp/contracts";
import { ruleSentence, sourceText } from "../report/format.ts";
import type { CheckResult, VerifyReport } from "../results.ts";
import { asWriteError, makeDirs } from "../writable.ts";
import { expectedOf } from "./expected.ts";
import { type ReplaySpec, renderReplay } from "./render.ts";
import { replayAuthOf, shellWords } from "./shell-auth.ts";

/** Headers a replay never copies: the transport sets them (or they describe the old connection). */
const NOT_COPIED = new Set([
  "authorization",
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "accept-encoding",
  "upgrade",
  "te",
  "trailer",
]);

/** `R1.auth.no-header.replay.test.ts`: letters, digits, `.`, `_` and `-`, at most 120 of them. */
export function replayFileName(checkId: string, taken: ReadonlySet<string>): string {
  const stem =
    checkId
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^[.-]+|[.-]+$/g, "")
      .slice(0, 120) || "check";
  let name = `${stem}.replay.test.ts`;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}-${n}.replay.test.ts`;
  return name;
}

/** The provider-state setup of a failure, read back from its `setup` curl command. */
export function stateOf(setup: string | undefined): ReplaySpec["state"] | undefined {
  if (!setup) return undefined;
  const words = shellWords(setup, 9);
  // curl -sS -X POST URL -H 'content-type: application/json' --data-binary BODY (engine/states.ts),
  // then what every request carries (the `--header`s, TLS: the replay sends those itself).
  if (words?.length !== 9 || words[0] !== "curl" || words[7] !== "--data-binary") return undefined;
  return { url: words[4] as string, body: words[8] as string };
}

/**
 * Everything a failure's replay file needs, or why it cannot have one (no request, an
 * Authorization that was not recorded, a body cut without its whole text, no assertion).
 */
export function planReplay(
  check: CheckResult,
  report: Pick<VerifyReport, "providerUrl" | "tool">,
  profile: ContractProfile,
): { readonly spec: ReplaySpec } | { readonly none: string } {
  const f = check.failure;
  const ex = f?.exchange;
  if (!f || !ex) return { none: "the failure has no request to replay" };
  const body = ex.request.bodyTruncated ? f.sentBody : ex.request.body;
  if (ex.request.bodyTruncated && body === undefined)
    return { none: "the request body was cut in the report" };
  const auth = replayAuthOf(ex.request.curlAuth);
  if (auth.kind === "unknown") return { none: auth.reason };
  const expected = expectedOf(check, profile, body);
  if ("none" in expected) return { none: expected.none };
  if (Object.keys(expected).length === 0) return { none: "nothing to assert" };
  if (f.setup && !stateOf(f.setup)) return { none: "the provider-state setup cannot be read" };
  const base = report.providerUrl.replace(/\/+$/, "");
  const url = ex.request.url;
  const via = ex.request.via;
  // A `--header`'s value is read from its variable, never copied as the `<redacted>` recorded.
  const headers = Object.fromEntries(
    Object.entries(ex.request.headers).filter(
      ([name]) => !NOT_COPIED.has(name.toLowerCase()) && via?.headers?.[name] === undefined,
    ),
  );
  const state = stateOf(f.setup);
  return {
    spec: {
      check,
      rule: ruleSentence(check),
      source: sourceText(f) || sourceText(check),
      method: ex.request.method,
      providerUrl: base,
      path: url.startsWith(`${base}/`) || url === base ? url.slice(base.length) : url,
      headers,
      ...(auth.kind === "header" ? { authorization: auth.value } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(state ? { state } : {}),
      ...(via ? { via } : {}),
      expected,
      tool: `${report.tool.name} ${report.tool.version}`,
    },
  };
}

/**
 * The replay file of every failure that can have one, under `dir`; the paths go into the report
 * (`failure.replayFile`) before it is written, so every report links them.
 */
export function replayPaths(
  checks: readonly CheckResult[],
  report: Pick<VerifyReport, "providerUrl" | "tool">,
  profile: ContractProfile,
  dir: string,
): Map<string, string> {
  const taken = new Set<string>();
  const paths = new Map<string, string>();
  for (const c of checks) {
    if (c.status !== "failed" || "none" in planReplay(c, report, profile)) continue;
    const name = replayFileName(c.id, taken);
    taken.add(name.toLowerCase());
    paths.set(c.id, join(dir, name));
  }
  return paths;
}

/** Checks its replay directory can be written, before the first request. */
export function assertReplayDirWritable(dir: string): void {
  asWriteError("E_REPORT_WRITE", `cannot write replay files to ${dir} (--replay-dir)`, () =>
    makeDirs(dir),
  );
}

/** Writes the replay file of each failure that names one (`failure.replayFile`). */
export function writeReplays(report: VerifyReport, profile: ContractProfile): string[] {
  const written: string[] = [];
  for (const c of report.checks) {
    const file = c.failure?.replayFile;
    if (!file) continue;
    const plan = planReplay(c, report, profile);
    if ("none" in plan) continue;
    asWriteError("E_REPORT_WRITE", `cannot write the replay file ${file}`, () => {
      const fileName = file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
      writeFileSync(file, renderReplay({ ...plan.spec, fileName }, report));
    });
    written.push(file);
  }
  return written;
}
