// The case thread of a run (engine/case-feed.ts): generates each check's cases from its seed, in
// exactly the order the check would, and sends them to the thread that sends and judges them with
// their bodies already encoded as UTF-8 (one transferred buffer per batch: nothing is copied).
import { Buffer } from "node:buffer";
import { parentPort } from "node:worker_threads";
import { loadProfile } from "@idp/contracts";
import { firstLineOf } from "../errors.ts";
import { writePieces } from "../rules/body-bytes.ts";
import { checkSeed } from "../rules/check-seed.ts";
import { CHECKS } from "../rules/index.ts";
import type { Case } from "../rules/types.ts";
import { Secrets } from "../secrets.ts";
import type { CaseFeedJob, FeedMessage, FeedReply, FeedRequest, WireCase } from "./case-feed.ts";
import { casesOf } from "./cases.ts";
import { ruleContext } from "./rule-context.ts";

const port = parentPort;
if (!port) throw new Error("case-worker: not a worker thread");

/** The most body bytes of one batch (at least one case). */
const BATCH_BYTES = 2 * 1024 * 1024;

/**
 * Where a batch's bodies are written as each case is made (kept from batch to batch, grown when a
 * batch needs more): a case's text and pieces are dropped at once instead of living until the
 * whole batch is made, so the young generation's collections find little alive to copy.
 */
let scratch = Buffer.allocUnsafeSlow(BATCH_BYTES * 2);

/**
 * The job in hand: the thread is kept between the runs of a process (case-feed.ts), one job at a
 * time; each reply carries its job's number, and requests for another job are not answered.
 */
let no = -1;
let streams = new Map<string, { cases: Iterator<Case>; prepare?: (c: Case) => unknown }>();
let counts: Record<string, number> = {};
const post = (m: FeedReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

/** A check's examples (sent first, every run the same), then its generated cases. */
function* withExamples(examples: readonly Case[], cases: Iterator<Case>): Generator<Case> {
  yield* examples;
  for (;;) yield cases.next().value as Case;
}

/** Starts job `jobNo`: every check's stream from the seed, each one's first batch, then ready. */
function start(jobNo: number, job: CaseFeedJob & { readonly first: number }): void {
  no = jobNo;
  streams = new Map();
  counts = {};
  try {
    const profile = loadProfile(job.setup.profileArg, { cwd: job.setup.cwd });
    // The arbitraries register what they send of the credentials here too; the sending thread
    // builds its own (for shrinking), so its scrubbing never depends on this thread.
    const secrets = new Secrets();
    for (const v of job.setup.secretValues) secrets.add(v, undefined);
    const ctx = ruleContext(job.setup, profile, secrets, job.slot);
    for (const id of job.checkIds) {
      const def = CHECKS.find((c) => c.info.id === id);
      if (!def) throw new Error(`unknown check ${id}`);
      const prepare = def.prepare;
      const examples = def.examples?.(ctx) ?? [];
      counts[id] = examples.length;
      streams.set(id, {
        cases: withExamples(examples, casesOf(def.cases(ctx), checkSeed(job.setup.seed, id))),
        ...(prepare ? { prepare: (c: Case) => prepare(c, ctx) } : {}),
      });
    }
    // Every check's first batch, unasked (the feed counts on it), then ready.
    for (const id of job.checkIds)
      generate(
        { checkId: id, count: job.first },
        // No more than the check can take; the feed counts the batch as `first` asked.
        Math.min(job.first, (counts[id] ?? 0) + job.setup.runs),
      );
    post({ no, type: "ready", examples: counts });
  } catch (e) {
    post({ no, type: "error", message: firstLineOf(e) });
  }
}

port.on("message", (m: FeedMessage) => {
  if (m.type === "job") start(m.no, m.job);
  else if (m.no === no) for (const r of m.requests) generate(r);
});

/** Generates a batch of a check's cases and sends them, encoded. */
function generate(m: FeedRequest, count = m.count): void {
  const stream = streams.get(m.checkId);
  if (!stream) return;
  try {
    // Up to `count` cases, or fewer once their bodies reach BATCH_BYTES (stressed bodies are up to
    // 1 MiB): what waits in the sending thread stays small whatever the check sends.
    const items: WireCase[] = [];
    let total = 0;
    while (items.length < count && total < BATCH_BYTES) {
      const c = stream.cases.next().value as Case;
      // A stressed body's length was counted as it was built: not read again here.
      const length = c.body.byteLength ?? Buffer.byteLength(c.body.text, "utf8");
      if (total + length > scratch.length) {
        const grown = Buffer.allocUnsafeSlow(Math.max(scratch.length * 2, total + length));
        scratch.copy(grown, 0, 0, total);
        scratch = grown;
      }
      writePieces(c.body.pieces ?? [c.body.text], scratch, total);
      items.push({
        operation: c.operation,
        ...(c.pathId === undefined ? {} : { pathId: c.pathId }),
        auth: c.auth,
        kind: c.body.kind,
        note: c.body.note,
        offset: total,
        length,
        ...(stream.prepare ? { prepared: { value: stream.prepare(c) } } : {}),
      });
      total += length;
    }
    // One buffer for the batch, each body at its offset: the sender sends views of it.
    const buffer = new ArrayBuffer(total);
    new Uint8Array(buffer).set(scratch.subarray(0, total));
    post({ no, type: "cases", checkId: m.checkId, requested: m.count, items, buffer }, [buffer]);
  } catch (e) {
    post({ no, type: "error", checkId: m.checkId, message: firstLineOf(e) });
  }
}
