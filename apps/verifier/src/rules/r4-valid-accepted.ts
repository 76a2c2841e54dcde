import {
  acceptanceProblem,
  classifyRequestBody,
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  detailedOperations,
  formatPath,
  PROVIDER_STATES,
  UNIT_WORDS,
} from "@idp/contracts";
import fc from "fast-check";
import { findLengthLimit, outcomeOf, profileBoundNote } from "./length-limit.ts";
import { caseArb, goodAuth, stressedValidBody, validBodyAtEverySize } from "./requests.ts";
import type { Case, CheckDef, JudgeIo, RuleModule, Verdict } from "./types.ts";
import { fromProblem, noAnswer, PASS } from "./verdict.ts";

/**
 * The same body under another schema name (the only change R4's retry makes): a name never sent,
 * as long as the original in code points where it can be (the fresh name, then the original's own
 * tail), so a provider that refuses long names still refuses the retry.
 */
function renamed(c: Case, fresh: string): Case {
  const body = JSON.parse(c.body.text) as { schema: Record<string, unknown> };
  const original = [...String(body.schema.name ?? "")];
  const head = [...fresh];
  const name =
    original.length > head.length ? [...head, ...original.slice(head.length)].join("") : fresh;
  const text = JSON.stringify({ ...body, schema: { ...body.schema, name } });
  // A new body whole: the case's may carry its bytes as encoded where it was generated.
  return {
    ...c,
    body: {
      text,
      kind: c.body.kind,
      note: `the same valid body, renamed to ${JSON.stringify(name)}`,
    },
  };
}

const HOLDS_NAMES = "the provider refuses names it already holds (allowed, conformance.md §1)";

/**
 * A provider may refuse a schema name it already holds (conformance.md §1): a valid create answered
 * 422 passes when an earlier case of this check created that name (a 201 for it, `""` included:
 * no other name is as long), and else when the same schema under a name this run never sent gets
 * 201 (names another check or run created). Either is a warning, not a failure. Generated names
 * are never changed beforehand.
 */
async function judgeCreate(c: Case, status: number, io: JudgeIo): Promise<Verdict | undefined> {
  if (c.operation !== "createSchema" || status !== 422) return undefined;
  const name = (JSON.parse(c.body.text) as { schema: { name?: unknown } }).schema.name;
  if (typeof name === "string" && (await io.createdBefore(name)))
    return {
      ok: true,
      warning: `createSchema answered 422 to a valid schema whose name an earlier case had created (201): ${HOLDS_NAMES}`,
    };
  const retry = await io.resend(renamed(c, io.ctx.freshSchemaName()));
  if (retry.raw.kind === "response" && retry.raw.status === 201)
    return {
      ok: true,
      warning: `createSchema answered 422 to a valid schema and 201 to the same schema under a name never sent before: ${HOLDS_NAMES}`,
    };
  return undefined;
}

type Path = (string | number)[];
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const codePoints = (s: string) => [...s].length;

/**
 * The longest string value and the container with the most items or keys, with their paths;
 * walked with a stack (a stressed body may nest thousands of levels).
 */
function largestParts(body: unknown) {
  let text: { path: Path; n: number } | undefined;
  let container: { path: Path; n: number; array: boolean } | undefined;
  const stack: [unknown, Path][] = [[body, []]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, path] = item;
    if (typeof v === "string") {
      const n = codePoints(v);
      if (!text || n > text.n) text = { path, n };
    } else if (Array.isArray(v) || isObject(v)) {
      const entries: [string | number, unknown][] = Array.isArray(v)
        ? [...v.entries()]
        : Object.entries(v);
      if (path.length > 1 && (!container || entries.length > container.n))
        container = { path, n: entries.length, array: Array.isArray(v) };
      for (const [k, child] of entries.reverse()) stack.push([child, [...path, k]]);
    }
  }
  return { text, container };
}

/** `body` with the value at `path` replaced by `f(value)`. */
function change(body: unknown, path: Path, f: (v: unknown) => unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return f(body);
  if (Array.isArray(body)) return body.map((v, i) => (i === head ? change(v, rest, f) : v));
  const o = body as Record<string, unknown>;
  return { ...o, [head]: change(o[head as string], rest, f) };
}

/**
 * Where a shrunk R4 failure starts: the same body with its longest string one code point shorter,
 * or its largest array or map one item shorter, sent once each; the first that is accepted names
 * the size at which the provider starts refusing.
 */
async function explainSize(op: DetailedOperationId, c: Case, io: JudgeIo) {
  const body = JSON.parse(c.body.text) as unknown;
  const { text, container } = largestParts(body);
  const probes: { path: Path; n: number; cut: (v: unknown) => unknown; unit: string }[] = [];
  if (text && text.n > 1)
    probes.push({ ...text, unit: "code points", cut: (v) => [...String(v)].slice(0, -1).join("") });
  if (container && container.n > 1)
    probes.push({
      path: container.path,
      n: container.n,
      unit: container.array ? "items" : "keys",
      cut: (v) =>
        Array.isArray(v)
          ? v.slice(0, -1)
          : Object.fromEntries(Object.entries(v as object).slice(0, -1)),
    });
  for (const p of probes) {
    // A string: its exact limit and the unit it is counted in (code points, UTF-16 units, bytes),
    // even when it is far past it (a valid string at a profile's bound does not shrink).
    const limit =
      p.unit === "code points" ? await lengthLimitAt(op, c, body, p.path, io) : undefined;
    if (limit) {
      const bound = profileBoundNote(p.path, io.ctx.profile);
      return `a ${formatPath(p.path)} of ${limit.max + 1} ${UNIT_WORDS[limit.unit]} is refused; ${limit.max} is accepted${bound ? `, but ${bound}` : ""}`;
    }
    const smaller = change(body, p.path, p.cut);
    let probe: Case = {
      ...c,
      body: { text: JSON.stringify(smaller), kind: c.body.kind, note: c.body.note },
    };
    // A create under a name never sent: the same length, unless the name is what was cut.
    if (op === "createSchema") probe = renamed(probe, io.ctx.freshSchemaName());
    const answer = await io.resend(probe);
    if (answer.raw.kind !== "response" || acceptanceProblem(op, answer.raw.status)) continue;
    return `a ${formatPath(p.path)} of ${p.n} ${p.unit} is refused; ${p.n - 1} is accepted`;
  }
  return undefined;
}

/** The limit of the string at `path`, found with the same body sent again (renamed: a create). */
async function lengthLimitAt(
  op: DetailedOperationId,
  c: Case,
  body: unknown,
  path: Path,
  io: JudgeIo,
) {
  const isName = op === "createSchema" && path.join(".") === "schema.name";
  const found = await findLengthLimit(
    String(path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], body)),
    async (text) => {
      let probe: Case = {
        ...c,
        body: { ...c.body, text: JSON.stringify(change(body, path, () => text)) },
      };
      if (op === "createSchema" && !isName) probe = renamed(probe, io.ctx.freshSchemaName());
      const answer = await io.resend(probe);
      return { text, outcome: outcomeOf(op, answer), answer };
    },
    isName ? () => io.ctx.freshSchemaName() : undefined,
  );
  return "unit" in found ? found : undefined;
}

const acceptedCheck = (op: DetailedOperationId): CheckDef => ({
  info: {
    id: `R4.valid-accepted.${op}`,
    rule: "R4",
    title: `a valid ${op} payload with good credentials gets the success status`,
    needs: op === "pushToUserDevices" ? ["provider-states"] : [],
  },
  ...(op === "pushToUserDevices"
    ? { state: () => ({ name: PROVIDER_STATES.loginUserExists }) }
    : {}),
  // One case in ten is a stressed body whose expected outcome is valid (long strings, many keys
  // in a map, large arrays, unknown keys): R4 holds them to a success, R6 only to no 5xx.
  cases: (ctx) => {
    const stressed = stressedValidBody(op, ctx);
    const valid = validBodyAtEverySize(op, ctx);
    const body = stressed
      ? fc.oneof({ weight: 9, arbitrary: valid }, { weight: 1, arbitrary: stressed })
      : valid;
    return caseArb(op, body, goodAuth(ctx));
  },
  judge: async (c, answer, io) => {
    const none = noAnswer("R4", answer);
    if (none) return none;
    const status = answer.raw.kind === "response" ? answer.raw.status : 0;
    const problem = acceptanceProblem(op, status);
    if (!problem) return PASS;
    // A stressed body is R4's only when the contract, reading the exact text, calls it valid
    // (read only when refused: a stressed body is up to 1 MiB).
    if (
      c.body.kind === "stress" &&
      classifyRequestBody(op, c.body.text, io.ctx.profile).outcome !== "valid"
    )
      return PASS;
    return (await judgeCreate(c, status, io)) ?? fromProblem(problem, answer);
  },
  explain: (c, io) => explainSize(op, c, io),
  ...(op === "createSchema" ? { recordsCreates: true as const } : {}),
  weight: 1,
  expects: () => ({
    status: [detailedOperations[op].successStatus],
    ...(op === "createSchema" ? { renameOn422: true as const } : {}),
  }),
});

export const r4: RuleModule = { rule: "R4", checks: DETAILED_OPERATION_IDS.map(acceptedCheck) };
