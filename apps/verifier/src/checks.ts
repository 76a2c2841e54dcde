import {
  type ContractProfile,
  classifyRequestBody,
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  detailedOperations,
  operationPath,
} from "@idp/contracts";
import fc from "fast-check";
import { type AuthSpec, authVariantArb, shq, validAuth } from "./auth.ts";
import {
  AUTH_VARIANTS,
  type AuthVariant,
  type CheckInfo,
  CONFORMANCE_CHECKS,
} from "./check-ids.ts";
import { type CallResult, type Client, curlCommand, type Exchange } from "./client.ts";
import type { Credentials } from "./config.ts";
import type { HttpResponse, HttpResult } from "./http.ts";
import {
  authRejectionProblem,
  errorBodyProblem,
  serverErrorProblem,
  successBodyProblem,
  undocumentedStatusProblem,
} from "./judge.ts";
import { bodyText, invalidBodyArb, validBodyArb } from "./payloads.ts";
import type { Redactor } from "./redact.ts";
import type { CheckResult, Failure, Warning } from "./results.ts";
import { type ProviderStates, STATE } from "./states.ts";

export interface ConformanceContext {
  readonly client: Client;
  /** Base address ending in /v1. */
  readonly baseUrl: string;
  readonly credentials: Credentials;
  readonly states?: ProviderStates;
  /** States without a handler (from the probe), with the reason. */
  readonly missingStates: ReadonlyMap<string, string>;
  readonly profile: ContractProfile;
  readonly runs: number;
  readonly seed: number;
  /** Salts generated schema names and state ids, so runs never collide on a provider. */
  readonly runId: string;
  readonly redactor: Redactor;
  /** How to re-run one check, e.g. `idp-verify --provider-url ... --checks ID --seed S`. */
  readonly replayCommand: (checkId: string) => string;
  /** Stop shrinking a failure after this long. */
  readonly shrinkTimeLimitMs?: number;
}

/** A request as generated: the operation, its path id, its body and its credentials. */
interface GeneratedRequest {
  readonly operation: DetailedOperationId;
  readonly id: string;
  readonly body: { readonly body: unknown; readonly raw: boolean };
  readonly auth: AuthSpec;
}

interface Judged {
  readonly exchange: Exchange;
  readonly verdict: Verdict;
  /** The provider state the request needs, as a curl command to set it up first. */
  readonly setup?: string;
}

type Verdict =
  | { readonly ok: true; readonly warning?: string }
  | { readonly ok: false; readonly message: string };

const idArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,16}$/);

let schemaNameCounter = 0;

/** Sends one generated request; valid schema names get the run's salt and a counter. */
/** A call with the exact request body text that was sent (what R5's oracle reads). */
type SentCall = CallResult & { readonly text: string };

async function sendGenerated(
  ctx: ConformanceContext,
  req: GeneratedRequest,
  source: string,
  idPrefix = "",
): Promise<SentCall> {
  const op = detailedOperations[req.operation];
  let { body } = req.body;
  if (req.operation === "createSchema" && !req.body.raw) body = saltSchemaName(body, ctx.runId);
  const text = bodyText({ body, raw: req.body.raw });
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
  };
  if (req.auth.header !== undefined) headers.authorization = req.auth.header;
  const path = operationPath(op, { id: `${idPrefix}${req.id}` });
  const result = await ctx.client.call(
    {
      operation: req.operation,
      method: op.method,
      url: `${ctx.baseUrl}${path}`,
      headers,
      credentials: req.auth.description,
      curlAuth: req.auth.curlAuth,
      body: text,
    },
    source,
  );
  return { ...result, text };
}

function saltSchemaName(body: unknown, runId: string): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const schema = (body as { schema?: unknown }).schema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return body;
  const name = (schema as { name?: unknown }).name;
  if (typeof name !== "string") return body;
  schemaNameCounter++;
  return { ...body, schema: { ...schema, name: `idpv-${runId}-${schemaNameCounter}-${name}` } };
}

const transportMessage = (raw: HttpResult) =>
  raw.kind === "transport-error" ? `no answer: ${raw.code}: ${raw.message}` : "";

/**
 * Runs one property: fast-check generates, sends and shrinks; the last failing exchange is the shrunk
 * counterexample. Runs stop counting once the provider has stopped answering (circuit breaker).
 */
async function propertyCheck<T>(
  ctx: ConformanceContext,
  info: CheckInfo,
  arb: fc.Arbitrary<T>,
  exec: (input: T) => Promise<Judged>,
): Promise<CheckResult> {
  const started = performance.now();
  let last: { exchange: Exchange; message: string; setup?: string } | undefined;
  let runs = 0;
  const warnings = new Map<string, { message: string; count: number; exchange: Exchange }>();
  const property = fc.asyncProperty(arb, async (input) => {
    if (ctx.client.stoppedReason) return true;
    const { exchange, verdict, setup } = await exec(input);
    if (exchange.result.kind === "transport-error" && ctx.client.stoppedReason) return true;
    runs++;
    if (!verdict.ok) {
      last = { exchange, message: verdict.message, ...(setup ? { setup } : {}) };
      return false;
    }
    if (verdict.warning) {
      const w = warnings.get(verdict.warning);
      if (w) w.count++;
      else warnings.set(verdict.warning, { message: verdict.warning, count: 1, exchange });
    }
    return true;
  });
  const details = await fc.check(property, {
    seed: ctx.seed,
    numRuns: ctx.runs,
    interruptAfterTimeLimit: ctx.shrinkTimeLimitMs ?? 120_000,
    markInterruptAsFailure: false,
  });
  const base = {
    id: info.id,
    kind: "conformance" as const,
    rule: info.rule,
    title: info.title,
    runs,
    durationMs: Math.round(performance.now() - started),
    warnings: [...warnings.values()] as Warning[],
  };
  if (details.failed && last) {
    const failure: Failure = {
      message: last.message,
      exchange: last.exchange,
      curl: curlCommand(last.exchange),
      ...(last.setup ? { setup: last.setup } : {}),
      seed: details.seed,
      ...(details.counterexamplePath ? { counterexamplePath: details.counterexamplePath } : {}),
      shrinks: details.numShrinks,
      replay: ctx.replayCommand(info.id),
    };
    return { ...base, status: "failed", failure };
  }
  if (details.failed) {
    const error =
      details.errorInstance instanceof Error
        ? details.errorInstance.message
        : String(details.errorInstance);
    return { ...base, status: "error", reason: `the check itself failed: ${error.split("\n")[0]}` };
  }
  if (ctx.client.stoppedReason)
    return {
      ...base,
      status: "error",
      reason: `the provider stopped answering: ${ctx.client.stoppedReason}`,
    };
  return { ...base, status: "passed" };
}

const asResponse = (raw: HttpResult): HttpResponse | undefined =>
  raw.kind === "response" ? raw : undefined;

function validRequestArb(
  ctx: ConformanceContext,
  op: DetailedOperationId,
  auth: fc.Arbitrary<AuthSpec>,
) {
  return fc.record({
    operation: fc.constant(op),
    id: idArb,
    body: validBodyArb(op, { profile: ctx.profile, maxLength: 5 }).map((body) => ({
      body,
      raw: false,
    })),
    auth,
  });
}

function invalidRequestArb(ctx: ConformanceContext, op: DetailedOperationId) {
  return fc.record({
    operation: fc.constant(op),
    id: idArb,
    body: invalidBodyArb(op, { profile: ctx.profile }),
    auth: fc.constant(validAuth(ctx.credentials)),
  });
}

/** Valid, invalid, and unauthenticated requests to every operation: the R2/R3/R6 population. */
function mixedRequestArb(ctx: ConformanceContext): fc.Arbitrary<GeneratedRequest> {
  const badAuth = fc.oneof(
    ...AUTH_VARIANTS.map((v) => authVariantArb(v, ctx.credentials, ctx.redactor)),
  );
  return fc.oneof(
    ...DETAILED_OPERATION_IDS.flatMap((op) => [
      validRequestArb(ctx, op, fc.constant(validAuth(ctx.credentials))),
      invalidRequestArb(ctx, op),
      validRequestArb(ctx, op, badAuth),
    ]),
  );
}

/** Judges an answer with `rule`; a transport failure always fails (the provider must answer). */
function judged(
  call: CallResult,
  rule: (res: HttpResponse) => string | undefined,
): { exchange: Exchange; verdict: Verdict } {
  const res = asResponse(call.raw);
  if (!res)
    return { exchange: call.exchange, verdict: { ok: false, message: transportMessage(call.raw) } };
  const problem = rule(res);
  return {
    exchange: call.exchange,
    verdict: problem ? { ok: false, message: problem } : { ok: true },
  };
}

function skipped(info: CheckInfo, reason: string): CheckResult {
  return {
    id: info.id,
    kind: "conformance",
    rule: info.rule,
    title: info.title,
    status: "skipped",
    reason,
    runs: 0,
    durationMs: 0,
    warnings: [],
  };
}

/** Pushes inside a provider state: setup, send, teardown; a failed setup fails the run with the reason. */
async function pushInState(
  ctx: ConformanceContext,
  states: ProviderStates,
  state: string,
  req: GeneratedRequest,
  source: string,
  idPrefix: string,
  judge: (call: SentCall) => { exchange: Exchange; verdict: Verdict },
): Promise<Judged> {
  const id = `${idPrefix}${req.id}`;
  const body = JSON.stringify({ state, params: { id }, action: "setup" });
  const setup = `curl -sS -X POST ${shq(states.url)} -H 'content-type: application/json' --data-binary ${shq(body)}`;
  const r = await states.within(state, { id }, () => sendGenerated(ctx, req, source, idPrefix));
  if (!r.ok) {
    const exchange: Exchange = {
      operation: req.operation,
      request: {
        method: "POST",
        url: states.url,
        headers: { "content-type": "application/json" },
        credentials: "none",
        curlAuth: [],
        body,
      },
      result: { kind: "transport-error", code: "E_STATE_SETUP", message: r.reason, durationMs: 0 },
    };
    return {
      exchange,
      setup,
      verdict: { ok: false, message: `provider state setup failed: ${r.reason}` },
    };
  }
  return { ...judge(r.value), setup };
}

type CheckRunner = (ctx: ConformanceContext, info: CheckInfo) => Promise<CheckResult>;

const needStates = (
  ctx: ConformanceContext,
  info: CheckInfo,
  state: string,
): CheckResult | ProviderStates => {
  if (!ctx.states) return skipped(info, "needs --provider-states-url (conformance.md §4)");
  const missing = ctx.missingStates.get(state);
  if (missing) return { ...skipped(info, missing), status: "error" };
  return ctx.states;
};

function authCheck(variant: AuthVariant): CheckRunner {
  return (ctx, info) => {
    const auth = authVariantArb(variant, ctx.credentials, ctx.redactor);
    const arb = fc.oneof(...DETAILED_OPERATION_IDS.map((op) => validRequestArb(ctx, op, auth)));
    return propertyCheck(ctx, info, arb, async (req) =>
      judged(await sendGenerated(ctx, req, info.id), authRejectionProblem),
    );
  };
}

function mixedCheck(
  rule: (op: DetailedOperationId, res: HttpResponse) => string | undefined,
): CheckRunner {
  return (ctx, info) =>
    propertyCheck(ctx, info, mixedRequestArb(ctx), async (req) =>
      judged(await sendGenerated(ctx, req, info.id), (res) => rule(req.operation, res)),
    );
}

function validAcceptedCheck(op: DetailedOperationId): CheckRunner {
  const expected = detailedOperations[op].successStatus;
  const rule = (res: HttpResponse) =>
    res.status === expected
      ? undefined
      : `R4: a valid ${op} payload must get ${expected}, got ${res.status}`;
  return (ctx, info) => {
    const arb = validRequestArb(ctx, op, fc.constant(validAuth(ctx.credentials)));
    if (op !== "pushToUserDevices")
      return propertyCheck(ctx, info, arb, async (req) =>
        judged(await sendGenerated(ctx, req, info.id), rule),
      );
    const states = needStates(ctx, info, STATE.userExists);
    if (!("within" in states)) return Promise.resolve(states);
    return propertyCheck(ctx, info, arb, (req) =>
      pushInState(ctx, states, STATE.userExists, req, info.id, `idpv-${ctx.runId}-r4-`, (call) =>
        judged(call, rule),
      ),
    );
  };
}

function invalidRejectedCheck(op: DetailedOperationId): CheckRunner {
  const documented = detailedOperations[op].documentedStatuses;
  const judge =
    (ctx: ConformanceContext) =>
    (call: SentCall): { exchange: Exchange; verdict: Verdict } => {
      const res = asResponse(call.raw);
      if (!res)
        return {
          exchange: call.exchange,
          verdict: { ok: false, message: transportMessage(call.raw) },
        };
      // The oracle is the contract's reading of the exact text sent.
      const c = classifyRequestBody(op, call.text, ctx.profile);
      if (c.outcome !== "invalid") return { exchange: call.exchange, verdict: { ok: true } };
      const what = `${c.violation.message} (${c.violation.kind})`;
      if (res.status === c.status) return { exchange: call.exchange, verdict: { ok: true } };
      if (res.status >= 400 && res.status < 500 && documented.includes(res.status))
        return {
          exchange: call.exchange,
          verdict: {
            ok: true,
            warning: `R5: ${op} answered ${res.status} to ${c.violation.kind}; the pinned status (§3) is ${c.status}`,
          },
        };
      return {
        exchange: call.exchange,
        verdict: {
          ok: false,
          message: `R5: an invalid ${op} payload (${what}) must get a documented 4xx, pinned ${c.status}; got ${res.status}`,
        },
      };
    };
  return (ctx, info) => {
    const arb = invalidRequestArb(ctx, op);
    // Push: with provider states, send invalid bodies to a login user that exists, so the answer
    // is about the body whatever order a provider checks body and user in. Without them, an
    // unknown id is used and the pinned order (body before user, §3) decides.
    const states = ctx.states && !ctx.missingStates.has(STATE.userExists) ? ctx.states : undefined;
    if (op === "pushToUserDevices" && states)
      return propertyCheck(ctx, info, arb, (req) =>
        pushInState(
          ctx,
          states,
          STATE.userExists,
          req,
          info.id,
          `idpv-${ctx.runId}-r5-`,
          judge(ctx),
        ),
      );
    return propertyCheck(ctx, info, arb, async (req) =>
      judge(ctx)(await sendGenerated(ctx, req, info.id)),
    );
  };
}

function pushStatusCheck(state: string, expected: 403 | 404, prefix: string): CheckRunner {
  const rule = (res: HttpResponse) =>
    res.status === expected
      ? undefined
      : `R7: push ${state === STATE.noUser ? "to an id no login user has" : "to a login user of another login app"} must get ${expected}, got ${res.status}`;
  return (ctx, info) => {
    const states = needStates(ctx, info, state);
    if (!("within" in states)) return Promise.resolve(states);
    const arb = validRequestArb(ctx, "pushToUserDevices", fc.constant(validAuth(ctx.credentials)));
    return propertyCheck(ctx, info, arb, (req) =>
      pushInState(ctx, states, state, req, info.id, `idpv-${ctx.runId}-${prefix}-`, (call) =>
        judged(call, rule),
      ),
    );
  };
}

const noSuccessBodyCheck: CheckRunner = (ctx, info) => {
  const good = fc.constant(validAuth(ctx.credentials));
  const ops = DETAILED_OPERATION_IDS.filter(
    (op) => op !== "pushToUserDevices" || (ctx.states && !ctx.missingStates.has(STATE.userExists)),
  );
  const arb = fc.oneof(...ops.map((op) => validRequestArb(ctx, op, good)));
  return propertyCheck(ctx, info, arb, async (req) => {
    if (req.operation === "pushToUserDevices" && ctx.states)
      return pushInState(
        ctx,
        ctx.states,
        STATE.userExists,
        req,
        info.id,
        `idpv-${ctx.runId}-r8-`,
        (call) => judged(call, successBodyProblem),
      );
    return judged(await sendGenerated(ctx, req, info.id), successBodyProblem);
  });
};

const RUNNERS: Record<string, CheckRunner> = {
  ...Object.fromEntries(AUTH_VARIANTS.map((v) => [`R1.auth.${v}`, authCheck(v)])),
  "R2.error-body": mixedCheck((_op, res) =>
    res.status >= 400 ? errorBodyProblem(res) : undefined,
  ),
  "R3.documented-status": mixedCheck((op, res) => undocumentedStatusProblem(op, res.status)),
  ...Object.fromEntries(
    DETAILED_OPERATION_IDS.map((op) => [`R4.valid-accepted.${op}`, validAcceptedCheck(op)]),
  ),
  ...Object.fromEntries(
    DETAILED_OPERATION_IDS.map((op) => [`R5.invalid-rejected.${op}`, invalidRejectedCheck(op)]),
  ),
  "R6.no-5xx": mixedCheck((_op, res) => serverErrorProblem(res.status)),
  "R7.push-404": pushStatusCheck(STATE.noUser, 404, "r7n"),
  "R7.push-403": pushStatusCheck(STATE.otherAppUser, 403, "r7f"),
  "R8.no-success-body": noSuccessBodyCheck,
};

/**
 * Rules that hold for every answer, whichever check sent the request: each keeps the first
 * violation it observes, reported when its own property passed (then not shrunk).
 */
const OBSERVED_RULES: Record<
  string,
  (op: DetailedOperationId, res: HttpResponse) => string | undefined
> = {
  "R2.error-body": (_op, res) => (res.status >= 400 ? errorBodyProblem(res) : undefined),
  "R3.documented-status": (op, res) => undocumentedStatusProblem(op, res.status),
  "R6.no-5xx": (_op, res) => serverErrorProblem(res.status),
  "R8.no-success-body": (_op, res) => successBodyProblem(res),
};

export interface Observations {
  readonly first: Map<string, { exchange: Exchange; message: string; source: string }>;
}

export function observeRules(client: Client): Observations {
  const first = new Map<string, { exchange: Exchange; message: string; source: string }>();
  client.observe((exchange, raw, source) => {
    if (!exchange.operation || raw.kind !== "response") return;
    for (const [id, rule] of Object.entries(OBSERVED_RULES)) {
      if (first.has(id)) continue;
      const message = rule(exchange.operation, raw);
      if (message) first.set(id, { exchange, message, source });
    }
  });
  return { first };
}

/** Adds what the observers saw to checks that passed on their own. */
export function withObservations(result: CheckResult, obs: Observations): CheckResult {
  const seen = obs.first.get(result.id);
  if (
    !seen ||
    result.status === "failed" ||
    result.status === "skipped" ||
    seen.source === result.id
  )
    return result;
  return {
    ...result,
    status: "failed",
    failure: {
      message: seen.message,
      exchange: seen.exchange,
      curl: curlCommand(seen.exchange),
      observedDuring: seen.source,
    },
  };
}

export function runConformanceCheck(
  ctx: ConformanceContext,
  info: CheckInfo,
): Promise<CheckResult> {
  const runner = RUNNERS[info.id];
  if (!runner) throw new Error(`no runner for check ${info.id}`);
  return runner(ctx, info);
}

export { CONFORMANCE_CHECKS };
