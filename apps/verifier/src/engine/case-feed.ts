import { Buffer } from "node:buffer";
import type { Worker } from "node:worker_threads";
import type { DetailedOperationId } from "@idp/contracts";
import type { AuthSpec } from "../rules/auth.ts";
import type { Case, SentBody } from "../rules/types.ts";
import { giveBack, takeThread } from "./case-threads.ts";
import type { ConformanceSetup } from "./setup.ts";

// Generating a case (a stressed body is up to 1 MiB of text) and encoding it cost idp-verify more
// than sending and judging it: done in the thread that owns the sockets, they held up every answer
// waiting to be read and every request waiting to go, and the provider sat idle. The case thread
// generates ahead, in each check's own order, while this thread sends and judges.

/** What the case thread is given. */
export interface CaseFeedJob {
  readonly setup: ConformanceSetup;
  readonly checkIds: readonly string[];
  readonly slot: number;
}
/** To the case thread (several in one message): `count` more cases of a check. */
export interface FeedRequest {
  readonly checkId: string;
  readonly count: number;
}
/**
 * To the case thread: a run's job (`no` numbers the thread's jobs; a reply carries the `no` of the
 * job it belongs to), or more cases for job `no`.
 */
export type FeedMessage =
  | {
      readonly type: "job";
      readonly no: number;
      readonly job: CaseFeedJob & { readonly first: number };
    }
  | { readonly type: "requests"; readonly no: number; readonly requests: readonly FeedRequest[] };
/** One case on the wire: its body is `length` bytes at `offset` of the batch's buffer. */
export interface WireCase {
  readonly operation: DetailedOperationId;
  readonly pathId?: string;
  readonly auth: AuthSpec;
  readonly kind: SentBody["kind"];
  readonly note: string;
  readonly offset: number;
  readonly length: number;
  readonly prepared?: { readonly value: unknown };
}
export type FeedReply = { readonly no: number } & (
  | {
      readonly type: "ready";
      /** How many examples each check's stream begins with (they come before its cases). */
      readonly examples: Readonly<Record<string, number>>;
    }
  | {
      readonly type: "cases";
      readonly checkId: string;
      /** The count asked for: fewer come when the bodies reach the batch's byte cap. */
      readonly requested: number;
      readonly items: readonly WireCase[];
      readonly buffer: ArrayBuffer;
    }
  | { readonly type: "error"; readonly checkId?: string; readonly message: string }
);

/** Jobs handed to case threads by this process (numbers each job). */
let jobs = 0;

/**
 * Cases asked for at once (fewer come when their bodies reach 2 MiB); a check keeps up to twice
 * this many ready or asked for. Each request wakes the case thread. 128 at once (a quarter of the
 * requests) was no faster in bench:verifier and held 60 MiB more.
 */
const BATCH = 32;
/**
 * Cases of each check made before the thread says it is ready (the run's first request waits for
 * them); the rest follow in batches of BATCH. The first batches of every check (stressed bodies of
 * up to 1 MiB among them) were a third of a second of the embedded run's start at 32.
 */
const FIRST = 4;

/** A body already encoded: the bytes are sent as they are; the text is decoded only if read. */
export function encodedBody(kind: SentBody["kind"], note: string, bytes: Buffer): SentBody {
  let text: string | undefined;
  return {
    kind,
    note,
    bytes,
    get text() {
      text ??= bytes.toString("utf8");
      return text;
    },
  };
}

interface Stream {
  cases: Case[];
  asked: number;
  /** Cases handed to the check so far. */
  taken: number;
  /** Cases the case thread has sent for the check. */
  received: number;
  waiting: { resolve: (c: Case) => void; reject: (e: Error) => void } | undefined;
  error?: Error;
}

/**
 * The cases of a run's checks, generated in a thread of their own: `next(id)` gives check `id`'s
 * examples (`def.examples(ctx)`), then its cases in exactly the order
 * `casesOf(def.cases(ctx), checkSeed(seed, id))` would (pinned by
 * test/case-feed.test.ts), each check a bounded number ahead of what it has taken.
 */
export class CaseFeed {
  readonly #worker: Worker;
  readonly #streams = new Map<string, Stream>();
  readonly ready: Promise<void>;
  #failed: Error | undefined;
  #closed = false;
  #pending: FeedRequest[] = [];
  #examples: Readonly<Record<string, number>> = {};
  readonly #runs: number;
  /** This run's job number on its thread. */
  readonly #no: number;
  /** The thread itself failed or ended: it is not handed to another run. */
  #threadFailed = false;
  #onExit: ((code: number) => void) | undefined;

  constructor(job: CaseFeedJob) {
    // Each check's first batch is made before the thread says it is ready (so before the run's
    // first request): the checks start with cases waiting for them.
    this.#runs = job.setup.runs;
    this.#worker = takeThread();
    const no = ++jobs;
    this.#no = no;
    this.#worker.postMessage({
      type: "job",
      no,
      job: { ...job, first: FIRST },
    } satisfies FeedMessage);
    for (const id of job.checkIds)
      this.#streams.set(id, { cases: [], asked: FIRST, taken: 0, received: 0, waiting: undefined });
    this.ready = new Promise((resolve, reject) => {
      this.#worker.on("message", (m: FeedReply) => {
        // What the thread made for an earlier run is dropped.
        if (m.no !== no) return;
        if (m.type === "ready") {
          this.#examples = m.examples;
          for (const id of job.checkIds) this.#topUp(id);
          resolve();
        } else if (m.type === "cases") this.#receive(m.checkId, m.requested, m.items, m.buffer);
        else if (m.checkId !== undefined) this.#fail(m.checkId, new Error(m.message));
        else {
          const e = new Error(`the case thread failed: ${m.message}`);
          this.#threadFailed = true;
          reject(e);
          this.#failAll(e);
        }
      });
      const lost = (why: string) => {
        this.#threadFailed = true;
        const e = new Error(`the case thread ${why}`);
        reject(e);
        this.#failAll(e);
      };
      this.#worker.on("error", (e) => lost(`failed: ${e.message}`));
      this.#onExit = (code: number) => lost(`ended (exit ${code})`);
      this.#worker.on("exit", this.#onExit);
    });
    // Unawaited until a check asks; a failure reaches each check through `next`.
    this.ready.catch(() => undefined);
  }

  /** How many examples check `id`'s stream begins with (known once ready). */
  examples(id: string): number {
    return this.#examples[id] ?? 0;
  }

  /** How many cases the case thread has made for check `id` so far. */
  received(id: string): number {
    return this.#streams.get(id)?.received ?? 0;
  }

  /** The next case of check `id`: at once when one is ready, else when the case thread sends it. */
  next(id: string): Case | Promise<Case> {
    const s = this.#streams.get(id);
    if (!s) throw new Error(`the case thread does not generate ${id}`);
    const error = s.error ?? this.#failed;
    if (error) throw error;
    this.#topUp(id);
    if (s.cases.length > 0) return this.#take(s);
    // A check that takes more than its examples and runs (never in a run): asked for all the same.
    if (s.asked === 0) this.#ask(id, s, BATCH);
    return new Promise((resolve, reject) => {
      s.waiting = { resolve, reject };
    });
  }

  /** Ends the run's job (the cases the thread made ahead are dropped); the thread is kept. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#failed ??= new Error("the case feed is closed");
    if (this.#onExit) this.#worker.off("exit", this.#onExit);
    if (this.#threadFailed) await this.#worker.terminate();
    else await giveBack(this.#worker);
  }

  #take(s: Stream): Case {
    s.taken++;
    // At most twice BATCH are ready: shifting them is cheap, and a taken case is not kept.
    return s.cases.shift() as Case;
  }

  #topUp(id: string): void {
    const s = this.#streams.get(id) as Stream;
    if (this.#failed || s.error || s.cases.length + s.asked >= BATCH) return;
    // Never more than the check can take (its examples and --runs): at --runs 100 a batch ahead
    // of each check's last case was a third more cases than the run sent.
    const left = this.examples(id) + this.#runs - s.taken - s.cases.length - s.asked;
    if (left > 0) this.#ask(id, s, Math.min(BATCH, left));
  }

  #ask(id: string, s: Stream, count: number): void {
    s.asked += count;
    // The requests of one turn of the event loop go as one message: each message wakes the case
    // thread, and a woken thread can take the core this one was sending from.
    if (this.#pending.length === 0) queueMicrotask(() => this.#flush());
    this.#pending.push({ checkId: id, count });
  }

  #flush(): void {
    const requests = this.#pending;
    this.#pending = [];
    if (!this.#closed && requests.length > 0)
      this.#worker.postMessage({
        type: "requests",
        no: this.#no,
        requests,
      } satisfies FeedMessage);
  }

  #receive(id: string, requested: number, items: readonly WireCase[], buffer: ArrayBuffer): void {
    const s = this.#streams.get(id);
    if (!s) return;
    s.asked -= requested;
    s.received += items.length;
    for (const w of items)
      s.cases.push({
        operation: w.operation,
        ...(w.pathId === undefined ? {} : { pathId: w.pathId }),
        auth: w.auth,
        body: encodedBody(w.kind, w.note, Buffer.from(buffer, w.offset, w.length)),
        ...(w.prepared ? { prepared: w.prepared } : {}),
      });
    this.#topUp(id);
    const waiting = s.waiting;
    if (waiting && s.cases.length > 0) {
      s.waiting = undefined;
      waiting.resolve(this.#take(s));
    }
  }

  #fail(id: string, e: Error): void {
    const s = this.#streams.get(id);
    if (!s) return;
    s.error = e;
    const waiting = s.waiting;
    s.waiting = undefined;
    waiting?.reject(e);
  }

  #failAll(e: Error): void {
    this.#failed ??= e;
    for (const id of this.#streams.keys()) this.#fail(id, e);
  }
}
