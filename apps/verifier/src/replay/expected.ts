import type { ContractProfile, DetailedOperationId } from "@idp/contracts";
import { CELLS_CHECK_ID } from "../report/cells.ts";
import { operationOfRequest } from "../report/findings.ts";
import type { CheckResult, Failure, PactMismatch } from "../results.ts";
import { checkById } from "../rules/registry.ts";
import type { Expected, ValueAssertion } from "../rules/types.ts";

/** The operation of a failure's request. */
export function operationOf(f: Failure): DetailedOperationId | undefined {
  const ex = f.exchange;
  if (!ex) return undefined;
  return ex.operation ?? operationOfRequest(ex.request.method, ex.request.url);
}

/**
 * The expected answer for a failed check, or why there is none: a pact's failure as its mismatches;
 * a conformance check's as its own definition says (`expects`).
 */
export function expectedOf(
  check: CheckResult,
  profile: ContractProfile,
  body: string | undefined,
): Expected | { readonly none: string } {
  const f = check.failure;
  if (!f) return { none: "no failure recorded" };
  if (check.kind === "pact") return pactExpected(f.mismatches ?? []);
  if (check.id === CELLS_CHECK_ID) return { none: "not a request's failure" };
  const def = checkById(check.id);
  if (!def) throw new Error(`no conformance check has the id ${check.id}`);
  return def.expects({ failure: f, operation: operationOf(f), profile, body });
}

const parseJson = (text: string | undefined): { ok: true; value: unknown } | { ok: false } => {
  if (text === undefined) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

/** `application/json` from `"application/json"`, `application/json` or `application/json; charset=x`. */
function mediaType(text: string | undefined): string | undefined {
  const parsed = parseJson(text);
  const value = parsed.ok && typeof parsed.value === "string" ? parsed.value : text;
  const type = value?.split(";")[0]?.trim().toLowerCase();
  return type ? type : undefined;
}

const TYPE_WORDS: Record<string, string> = {
  String: "string",
  Number: "number",
  Integer: "number",
  Decimal: "number",
  Boolean: "boolean",
  Array: "array",
  Object: "object",
  Map: "object",
  Null: "null",
};

/** A pact's failure: what its mismatches say the answer must be, by path. */
export function pactExpected(mismatches: readonly PactMismatch[]): Expected {
  let status: number[] | undefined;
  let contentType: string | undefined;
  let bodyLike: unknown;
  const values: ValueAssertion[] = [];
  for (const m of mismatches) {
    if (m.type === "status" && /^\d{3}$/.test(m.expected ?? "")) status = [Number(m.expected)];
    else if (m.type === "header" && /^content-type$/i.test(m.path ?? ""))
      contentType = mediaType(m.expected) ?? contentType;
    else if (m.type === "bodytype") contentType = mediaType(m.expected) ?? contentType;
    else if (m.type === "body" && m.path !== undefined) {
      const expected = parseJson(m.expected);
      if (m.path === "/" || m.path === "$") {
        if (expected.ok) bodyLike = expected.value;
        continue;
      }
      const regex = /to match '(.*)'$/.exec(m.message)?.[1];
      const sameType = /to be the same type as .*\((\w+)\)$/.exec(m.message)?.[1];
      if (regex !== undefined) values.push({ path: m.path, matches: regex });
      else if (sameType !== undefined && TYPE_WORDS[sameType])
        values.push({ path: m.path, type: TYPE_WORDS[sameType] as string });
      else if (expected.ok) values.push({ path: m.path, equals: expected.value });
    }
  }
  return {
    ...(status ? { status } : {}),
    ...(contentType ? { contentType } : {}),
    ...(values.length > 0 ? { values } : {}),
    ...(bodyLike !== undefined ? { bodyLike } : {}),
  };
}
