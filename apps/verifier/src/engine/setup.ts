import type { TransportSettings } from "../http/settings.ts";
import type { Credentials } from "../rules/auth.ts";

/** Everything the conformance checks need, as plain data (a worker thread gets a copy). */
export interface ConformanceSetup {
  /** Base address ending in /v1. */
  readonly providerUrl: string;
  readonly credentials: Credentials;
  readonly states?: { readonly url: string; readonly authorization?: string };
  /** `--profile` as given, and the directory it is read from (a worker loads it again). */
  readonly profileArg: string;
  readonly cwd: string;
  /** Every credential value to scrub from what the provider sends back. */
  readonly secretValues: readonly string[];
  readonly seed: number;
  readonly runs: number;
  readonly timeoutMs: number;
  /** Requests in flight at once, over all threads. */
  readonly concurrency: number;
  readonly maxConsecutiveTransportFailures: number;
  /** Date.now() by which every check must end (performance clocks differ between threads). */
  readonly deadlineEpochMs: number;
  readonly maxDurationText: string;
  readonly runId: string;
  /** What a replay command repeats of the command line. */
  readonly replay: {
    readonly providerUrl?: string;
    readonly statesUrl?: string;
    readonly profileArg: string;
  };
  /** Worker threads for the checks (1: in this thread). */
  readonly threads: number;
  /** Gateway settings: extra headers, TLS, proxies (conformance.md §7). */
  readonly transport: TransportSettings;
  /** `--rate-limit`'s shared state: one budget over every thread. */
  readonly rateLimit?: { readonly perSecond: number; readonly shared: SharedArrayBuffer };
  /** False with `--no-shrink`: a failing check cites its first failing case as found. */
  readonly shrink: boolean;
  /** `--cleanup`: record which schemas the run creates (conformance.md §8). */
  readonly cleanup: boolean;
  /** One provider state at a time (setups not additive, conformance.md §4): the shared lock. */
  readonly stateLock?: SharedArrayBuffer;
}
