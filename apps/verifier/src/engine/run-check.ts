import { type NeighbourName, RULES } from "@idp/contracts";
import fc from "fast-check";
import { firstLineOf } from "../errors.ts";
import { type Answer, type Client, THROTTLED_OUT } from "../http/client.ts";
import { curlCommand } from "../http/exchange.ts";
import type { CheckResult, Failure, Warning } from "../results.ts";
import { checkSeed } from "../rules/check-seed.ts";
import { neighbourRequest, toRequest } from "../rules/requests.ts";
import type { Case, CheckDef, RuleContext, Verdict } from "../rules/types.ts";
import type { Batch, Batches } from "./batches.ts";
import { Batches as BatchesOf } from "./batches.ts";
import type { Budget } from "./budget.ts";
import type { CaseFeed } from "./case-feed.ts";
import { casesOf } from "./cases.ts";
import { EarlierCreates } from "./created-names.ts";
import type { StateLock } from "./state-lock.ts";
import type { ProviderStates } from "./states.ts";

/** Cases per provider-state batch. */
const BATCH_SIZE = 64;

export interface EngineContext {
  readonly client: Client;
  readonly budget: Budget;
  readonly states?: ProviderStates;
  readonly rules: RuleContext;
  readonly seed: number;
  readonly runs: number;
  /** performance.now() by which every check must end (`--max-duration`). */
  readonly deadline: number;
  readonly maxDurationText: string;
  /** False with `--no-shrink`: the first failing case is cited as it was found. */
  readonly shrink: boolean;
  /** How to re-run one check with the same seed. */
  readonly replayCommand: (checkId: string) => string;
  /** Told each time a case of a check has been judged (live progress). */
  readonly onCaseDone?: (checkId: string) => void;
  /** The case thread: each check's cases generated ahead (else generated here, one at a time). */
  readonly feed?: CaseFeed;
  /** One provider state at a time (setups not additive): every batch holds this while it runs. */
  readonly stateLock?: StateLock;
}

interface Outcome {
  readonly case: Case;
  readonly verdict?: Verdict;
  readonly answer?: Answer;
  readonly batch?: Batch;
  /** The provider had stopped answering: not sent, not judged. */
  readonly notRun?: true;
  readonly stateFailure?: string;
  /** Still throttled when the time was up: not judged (conformance.md §7). */
  readonly throttled?: string;
  /**
   * A failure judged without waiting to see whether its answer may be another request's (a
   * shrinking step's): the outcome once that is known.
   */
  readonly confirm?: () => Promise<Outcome>;
}

/** A request still throttled at the time limit: the case ends unjudged, wherever it was sent. */
class ThrottledOut extends Error {}

/** The source column of conformance.md §1 for a rule. */
export const ruleSource = (rule: keyof typeof RULES): { source: string; ref: string } => ({
  source: RULES[rule].source,
  ref: RULES[rule].ref,
});

class CheckRun {
  readonly def: CheckDef;
  readonly e: EngineContext;
  #arb: fc.Arbitrary<Case> | undefined;
  readonly batches: Batches | undefined;
  /** The names the check's cases created, for a judge that asks (`recordsCreates`). */
  readonly creates: EarlierCreates | undefined;
  requests = 0;
  done = 0;
  /** Cases sent after the run's own (shrinking, explaining) are numbered from here on. */
  #later = 2 ** 40;
  readonly warnings = new Map<
    string,
    { message: string; count: number; exchange?: Warning["exchange"] }
  >();

  constructor(def: CheckDef, e: EngineContext, checkNo: number) {
    this.def = def;
    this.e = e;
    this.creates = def.recordsCreates ? new EarlierCreates() : undefined;
    const need = def.state?.(e.rules);
    if (need && !e.states)
      throw new Error(`check ${def.info.id} needs provider states but none were given`);
    this.batches =
      need && e.states
        ? new BatchesOf(
            e.states,
            need.name,
            `idpv-${e.rules.runId}-c${checkNo}`,
            BATCH_SIZE,
            e.stateLock,
          )
        : undefined;
  }

  /**
   * The check's arbitrary, built when first needed: with the case thread, only to shrink (the
   * case thread builds its own to generate).
   */
  get arb(): fc.Arbitrary<Case> {
    this.#arb ??= this.def.cases(this.e.rules);
    return this.#arb;
  }

  /**
   * Sends case `index` (inside its batch's state, if any) and judges the answer. Shrinking numbers
   * its cases on from the run's last. A failure is confirmed as its own request's before it is
   * returned (conformance.md §9), unless `confirm` is false: then the outcome carries `confirm`,
   * for the one failure that is cited (a shrink's steps only choose the path).
   */
  async exec(c: Case, batch: Batch | undefined, index: number, confirm = true): Promise<Outcome> {
    if (batch) {
      const ready = await batch.ready;
      if (!ready.ok)
        return ready.throttled
          ? { case: c, batch, throttled: ready.reason }
          : { case: c, batch, stateFailure: ready.reason };
    }
    const send = async (x: Case) => {
      this.requests++;
      // Only the case itself, never a judge's resend, is one of the check's cases.
      const settle = x === c ? this.creates?.sending(index, x) : undefined;
      let a: Answer | undefined;
      try {
        a = await this.e.client.send(toRequest(this.e.rules, x, batch?.id), this.def.info.id);
      } finally {
        settle?.(a);
      }
      if (a.raw.kind === "transport-error" && a.raw.code === THROTTLED_OUT)
        throw new ThrottledOut(a.raw.message);
      return a;
    };
    const neighbour = async (name: NeighbourName, schemaName?: string) => {
      this.requests++;
      const ctx = this.e.rules;
      const a = await this.e.client.send(
        neighbourRequest(ctx, ctx.credentials, ctx.profile.neighbours[name], schemaName),
        this.def.info.id,
      );
      if (a.raw.kind === "transport-error" && a.raw.code === THROTTLED_OUT)
        throw new ThrottledOut(a.raw.message);
      return a;
    };
    try {
      const answer = await send(c);
      if (answer.raw.kind === "transport-error" && answer.raw.code === "E_PROVIDER_STOPPED")
        return { case: c, notRun: true };
      const io = {
        ctx: this.e.rules,
        resend: send,
        neighbour,
        createdBefore: (name: string) => this.createdBefore(name, index),
      };
      const verdict = await this.def.judge(c, answer, io);
      const judged: Outcome = { case: c, verdict, answer, ...(batch ? { batch } : {}) };
      if (verdict.ok) return judged;
      // A failure never cites an answer that may be another request's (conformance.md §9).
      const confirmed = async (): Promise<Outcome> => {
        const own = await this.e.client.confirm(judged.answer as Answer);
        if (own === judged.answer) return judged;
        return { ...judged, answer: own, verdict: await this.def.judge(c, own, io) };
      };
      return confirm ? await confirmed() : { ...judged, confirm: confirmed };
    } catch (e) {
      if (e instanceof ThrottledOut) return { case: c, throttled: e.message };
      throw e;
    }
  }

  /** The index of a case sent after the run's own, in the order they are sent. */
  laterIndex(): number {
    return this.#later++;
  }

  createdBefore(name: string, index: number): Promise<boolean> {
    return this.creates?.before(name, index) ?? Promise.resolve(false);
  }

  warn(message: string, answer: Answer | undefined): void {
    const w = this.warnings.get(message);
    if (w) w.count++;
    else
      this.warnings.set(message, {
        message,
        count: 1,
        ...(answer ? { exchange: answer.exchange() } : {}),
      });
  }
}

/**
 * Runs one check: its cases, generated from the seed in exactly the order `fc.check` would, are sent
 * with a bounded number in flight (the run's shared budget) and judged as they return. On a failure,
 * no case after it is dispatched; once every earlier case is judged, the first failing index (the one
 * a sequential run would have stopped at) is shrunk sequentially with `fc.check` replaying from the
 * seed and that index, so counterexample, seed, path and replay are exactly a sequential run's.
 */
export async function runCheck(
  def: CheckDef,
  e: EngineContext,
  checkNo: number,
): Promise<CheckResult> {
  const started = performance.now();
  const run = new CheckRun(def, e, checkNo);
  let first: { index: number; outcome: Outcome } | undefined;
  let stateFailure: string | undefined;
  let throttled: string | undefined;
  let notRun = false;
  let timedOut = false;
  let crash: unknown;
  const inflight = new Set<Promise<void>>();
  // Cases exist only a batch ahead (from the case thread) or one at a time (generated here).
  const seed = checkSeed(e.seed, def.info.id);
  const feed = e.feed;
  // Without the case thread, generated here, one at a time (the arbitrary is built now).
  const cases = feed ? undefined : casesOf(run.arb, seed);
  // Examples go first (every run the same), then `runs` generated cases; from the case thread,
  // the examples come with the cases.
  const examples = feed ? [] : (def.examples?.(e.rules) ?? []);
  const exampleCount = feed ? feed.examples(def.info.id) : examples.length;
  const total = exampleCount + e.runs;
  let next = 0;
  const stop = () =>
    first !== undefined ||
    stateFailure !== undefined ||
    throttled !== undefined ||
    notRun ||
    crash !== undefined;

  while (next < total && !stop()) {
    if (performance.now() >= e.deadline) {
      timedOut = true;
      break;
    }
    const index = next;
    // From the case thread, a case is fetched before a place in flight is taken: waiting for it
    // must not hold a place another check's ready case could use.
    let c: Case | undefined;
    if (feed) {
      try {
        const got = feed.next(def.info.id);
        c = got instanceof Promise ? await got : got;
      } catch (error) {
        crash ??= error;
        break;
      }
      if (stop()) break;
    }
    // A case's state is waited for before it takes a place in flight (as its case is): a batch's
    // first cases would otherwise hold every place while its setup makes its round trip. The next
    // batch is set up half a batch ahead, so its cases usually find it ready.
    const batch = run.batches?.enter(index);
    if (batch) {
      if (index % BATCH_SIZE === BATCH_SIZE / 2 && index + BATCH_SIZE / 2 < total)
        run.batches?.prepare(index + BATCH_SIZE / 2);
      await batch.ready;
      if (stop()) {
        run.batches?.leave(batch);
        break;
      }
    }
    const wait = e.budget.acquire();
    if (wait) await wait;
    if (stop()) {
      e.budget.release();
      if (batch) run.batches?.leave(batch);
      break;
    }
    next++;
    c ??= index < examples.length ? (examples[index] as Case) : cases?.next().value;
    if (c === undefined) throw new Error("no case to send (a bug)");
    const p: Promise<void> = run
      .exec(c, batch, index)
      .then((o) => {
        if (o.notRun) notRun = true;
        else if (o.throttled !== undefined) throttled ??= o.throttled;
        else if (o.stateFailure !== undefined) stateFailure ??= o.stateFailure;
        else if (o.verdict && !o.verdict.ok) {
          run.done++;
          if (!first || index < first.index) first = { index, outcome: o };
        } else {
          run.done++;
          if (o.verdict?.ok && o.verdict.warning) run.warn(o.verdict.warning, o.answer);
        }
        e.onCaseDone?.(def.info.id);
      })
      .catch((error: unknown) => {
        crash ??= error;
      })
      .finally(() => {
        e.budget.release();
        if (batch) run.batches?.leave(batch);
        inflight.delete(p);
      });
    inflight.add(p);
  }
  await Promise.all(inflight);
  await run.batches?.drain();

  const base = {
    id: def.info.id,
    kind: "conformance" as const,
    rule: def.info.rule,
    title: def.info.title,
    source: ruleSource(def.info.rule),
    warnings: [...run.warnings.values()] as Warning[],
  };
  const finish = (rest: Pick<CheckResult, "status"> & Partial<CheckResult>): CheckResult => ({
    ...base,
    runs: { done: run.done, asked: total },
    requests: run.requests,
    durationMs: Math.round(performance.now() - started),
    ...rest,
  });

  if (first)
    return finish({
      status: "failed",
      failure: await shrink(run, seed, first.index, first.outcome, exampleCount),
    });
  if (crash !== undefined)
    return finish({
      status: "error",
      reason: `the check itself failed: ${firstLineOf(crash)}`,
    });
  if (stateFailure !== undefined)
    return finish({ status: "error", reason: `provider state setup failed: ${stateFailure}` });
  if (throttled !== undefined)
    return finish({
      status: "incomplete",
      reason: `throttled: stopped by the time limit (--max-duration ${e.maxDurationText}) after ${run.done} of ${total} runs; ${throttled}`,
    });
  if (notRun)
    return finish({
      status: "error",
      reason: `not run to the end: the provider stopped answering (${e.client.stoppedReason ?? "no answers"})`,
    });
  if (timedOut)
    return finish({
      status: "incomplete",
      reason: `stopped by the time limit (--max-duration ${e.maxDurationText}) after ${run.done} of ${total} runs`,
    });
  return finish({ status: "passed" });
}

/** The check's own line on where a shrunk failure starts, if it has one (never fails the run). */
async function explain(run: CheckRun, last: Outcome): Promise<string | undefined> {
  const explainer = run.def.explain;
  if (!explainer) return undefined;
  // The probes' failures are confirmed together at the end (their settle times overlap): if one's
  // answer may have been another request's, the line is left out rather than built on it.
  const own: Promise<boolean>[] = [];
  try {
    const line = await explainer(last.case, {
      ctx: run.e.rules,
      resend: async (c) => {
        const o = await run.exec(c, last.batch, run.laterIndex(), false);
        const answer = o.answer;
        if (!answer) throw new Error("explain: no answer");
        if (o.confirm) own.push(o.confirm().then((confirmed) => confirmed.answer === answer));
        return answer;
      },
      neighbour: () => Promise.reject(new Error("explain: no neighbour calls")),
      createdBefore: () => Promise.resolve(false),
    });
    return (await Promise.all(own)).every(Boolean) ? line : undefined;
  } catch {
    return undefined;
  }
}

/** Shrinks the first failing case sequentially, exactly as `fc.check` with that seed would. */
async function shrink(
  run: CheckRun,
  seed: number,
  at: number,
  original: Outcome,
  examples: number,
): Promise<Failure> {
  const { e } = run;
  let last = original;
  let note: string | undefined;
  // Generated cases are numbered after the examples; fast-check's path counts them from 0.
  const index = at - examples;
  let path = index < 0 ? `example ${at + 1} of ${examples}` : String(index);
  let shrinks = 0;
  let explained: string | undefined;
  const violation =
    original.verdict && !original.verdict.ok ? original.verdict.violation : undefined;
  if (violation?.kind === "no-answer") note = "not shrunk: the provider did not answer";
  else if (index < 0) note = "an example, sent as it is (the smallest body of its kind)";
  else if (!e.shrink) note = "not shrunk (--no-shrink): the first failing case, as it was found";
  else {
    const batch = run.batches?.dedicated("shrink");
    // What cases from the failing one on created depends on what was in flight: forgotten, so the
    // shrink is the one a run of one case at a time makes.
    run.creates?.forgetFrom(at);
    const property = fc.asyncProperty(run.arb, async (c) => {
      const wait = e.budget.acquire();
      if (wait) await wait;
      try {
        // Unconfirmed: waiting to see whether each step's answer is another request's would cost
        // every step the settle time (conformance.md §9); the step that is cited is confirmed below.
        const o = await run.exec(c, batch, run.laterIndex(), false);
        if (
          o.notRun ||
          o.throttled !== undefined ||
          o.stateFailure !== undefined ||
          !o.verdict ||
          o.verdict.ok
        )
          return true;
        last = o;
        return false;
      } finally {
        e.budget.release();
      }
    });
    last = { ...original, verdict: { ok: true } };
    const details = await fc.check(property, {
      seed,
      path: String(index),
      numRuns: 1,
      interruptAfterTimeLimit: Math.max(1_000, e.deadline - performance.now()),
      markInterruptAsFailure: false,
    });
    // Before the shrink's state is closed (a resend and a probe of a push need its login user):
    // the cited step's answer confirmed as its own request's.
    const cited = details.failed && last.confirm ? await last.confirm() : last;
    // Its answer was another request's, and its own passes: the shrink's path is not to be trusted.
    const notOwn = cited !== last && (cited.verdict === undefined || cited.verdict.ok);
    last = cited;
    const shrunk = details.failed && last.verdict !== undefined && !last.verdict.ok;
    if (shrunk) explained = await explain(run, last);
    if (batch) {
      run.batches?.close(batch);
      await run.batches?.drain();
    }
    if (shrunk) {
      path = details.counterexamplePath ?? path;
      shrinks = details.numShrinks;
      if (details.interrupted) note = "shrinking stopped by the time limit";
    } else {
      // The first failure (confirmed) is cited as it was found.
      last = original;
      note = notOwn
        ? "not shrunk: a shrinking step's answer may have been another request's"
        : details.failed
          ? `the check itself failed while shrinking: ${firstLineOf(details.errorInstance)}`
          : "not shrunk: the case did not fail again when sent once more (is the provider's answer stable?)";
    }
  }
  const v = last.verdict && !last.verdict.ok ? last.verdict : undefined;
  const answer = v?.answer ?? last.answer;
  const exchange = answer?.exchange();
  const readBack = v?.readBack?.exchange();
  const states = e.states;
  return {
    message: `${v?.violation.message ?? "failed"}${explained ? `; ${explained}` : ""}`,
    ...(v
      ? {
          rule: v.violation.rule,
          kind: v.violation.kind,
          source: v.violation.source,
          ...(v.violation.expected !== undefined ? { expected: v.violation.expected } : {}),
          ...(v.violation.received !== undefined ? { received: v.violation.received } : {}),
        }
      : {}),
    ...(exchange ? { exchange, curl: curlCommand(exchange) } : {}),
    ...(readBack ? { readBack, readBackCurl: curlCommand(readBack) } : {}),
    // A replay needs the exact bytes: a body cut in the exchange is kept whole here.
    ...(exchange?.request.bodyTruncated && answer?.request.body !== undefined
      ? { sentBody: answer.request.body }
      : {}),
    ...(last.batch && states && run.batches
      ? { setup: states.setupCommand(run.batches.name, last.batch.params) }
      : {}),
    body: last.case.body.note,
    seed: e.seed,
    checkSeed: seed,
    counterexamplePath: path,
    shrinks,
    replay: e.replayCommand(run.def.info.id),
    ...(note ? { note } : {}),
  };
}
