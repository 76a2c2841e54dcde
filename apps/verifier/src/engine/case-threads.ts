import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { Kept } from "../kept.ts";
import { startWorker } from "./worker-file.ts";

/**
 * From this many cases, they are generated in a thread of their own (engine/case-feed.ts): its
 * start (loading the modules, building every arbitrary again, ~70 MiB) is then repaid. Fewer are
 * generated where they are sent.
 */
export const CASE_THREAD_FROM = 1_000;

/**
 * How many conformance checks there are (rules/registry.ts; a test holds the two equal). Here so
 * that the CLI's early start can tell, before it loads the registry, that `--runs N` leaves every
 * selection below CASE_THREAD_FROM.
 */
export const CONFORMANCE_CHECK_COUNT = 23;

/**
 * Whether a run of `cases` cases generates them in the case thread: enough of them to repay its
 * start, and a core for it beside the sending thread's and, with the embedded provider, the
 * provider thread's (each of them keeps one busy). With three busy threads on two cores the case
 * thread only took CPU from the other two: `pnpm verify` here ran 2.84 s / 4.48 CPU-s without it
 * against 3.10 s / 4.94 with it (means of six interleaved pairs, bench/README.md).
 */
export function caseThreadPays(
  cases: number,
  embedded: boolean,
  cores: number = availableParallelism(),
): boolean {
  return cases >= CASE_THREAD_FROM && cores >= (embedded ? 3 : 2);
}

/**
 * Case threads between the runs of this process, kept for the next run (a test file, a library
 * user verifying more than once): no thread is started while another is being terminated, which
 * can crash Node (nodejs/node#56312: a test worker ended with SIGSEGV in a file of back-to-back
 * runs), and a run skips loading the thread's modules. At most two idle (runs of one process at
 * the same time are few). A module of its own, light to import: the CLI starts one before it loads
 * the rest (early-start.ts).
 */
const threads = new Kept<Worker>(2, () => startWorker("case-worker", "case-worker", undefined));

/** How many case threads this process has started, and how many wait idle (tests). */
export const caseThreads = (): { readonly started: number; readonly idle: number } => ({
  started: threads.started,
  idle: threads.idle.length,
});

/** An idle thread, or a new one. */
export const takeThread = (): Worker => threads.take();

/** Keeps `w` for the next run (idle, unreferenced), or ends it when enough are kept. */
export async function giveBack(w: Worker): Promise<void> {
  w.removeAllListeners("message");
  w.removeAllListeners("error");
  if (!threads.keep(w)) await w.terminate();
}

/**
 * Starts a case thread now, idle, for the run to come: its modules load while the caller loads
 * its own (a new thread spends most of its first half second loading them).
 */
export const startCaseThreadEarly = (): void => threads.warm();
