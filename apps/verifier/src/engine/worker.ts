// A conformance worker thread: runs its share of the checks with a client of its own and posts
// each result as it finishes, case counts for live progress, then its observations and tally.
import { parentPort, workerData } from "node:worker_threads";
import { firstLineOf } from "../errors.ts";
import { CHECKS } from "../rules/index.ts";
import { runChecksHere, type WorkerJob, type WorkerMessage } from "./conformance.ts";

const job = workerData as WorkerJob;
const post = (m: WorkerMessage) => parentPort?.postMessage(m);

// Case counts are sent in batches: one message per judged case would cost more than the case.
const pending = new Map<string, number>();
const flush = () => {
  for (const [checkId, count] of pending) post({ type: "cases", checkId, count });
  pending.clear();
};
// HAR entries likewise, in batches: the parent thread owns the file.
let harEntries: string[] = [];
const flushHar = () => {
  if (harEntries.length === 0) return;
  post({ type: "har", entries: harEntries });
  harEntries = [];
};
const ticker = setInterval(() => {
  flush();
  flushHar();
}, 100);

try {
  const checks = CHECKS.filter((c) => job.checkIds.includes(c.info.id));
  const outcome = await runChecksHere(
    checks,
    job.setup,
    {
      onResult: (result) => {
        flush();
        post({ type: "result", result });
      },
      onCaseDone: (id) => pending.set(id, (pending.get(id) ?? 0) + 1),
      ...(job.har ? { har: (entry: string) => harEntries.push(entry) } : {}),
    },
    { concurrency: job.concurrency, slot: job.slot },
  );
  flush();
  flushHar();
  post({
    type: "done",
    observations: [...outcome.observations.first],
    observationsBySource: [...(outcome.observations.bySource ?? [])],
    tally: [...outcome.tally].map(([op, row]) => [op, [...row]]),
    sent: outcome.sent,
    answered: outcome.answered,
    throttled: outcome.throttled,
    resent: outcome.resent,
    created: outcome.created,
    ...(outcome.stoppedReason ? { stoppedReason: outcome.stoppedReason } : {}),
  });
} catch (e) {
  post({ type: "error", message: firstLineOf(e) });
} finally {
  clearInterval(ticker);
}
