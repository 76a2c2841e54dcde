import type { RuleId, RuleSource } from "@idp/contracts";
import type { Exchange } from "./http/exchange.ts";
import type { LearnReport } from "./learn/types.ts";

/**
 * passed: every run asked for ran and passed; failed: the provider broke the rule; incomplete: a time
 * limit stopped the check before its runs were done (exit 2); error: the check could not be carried
 * out (a provider-state setup failed, the provider stopped answering, Pact's verifier could not run).
 */
export type CheckStatus = "passed" | "failed" | "incomplete" | "error";

/** Why a check failed: the rule, expected and received, the exchange, curl and replay commands. */
export interface Failure {
  /** One line: the rule, expected vs received. */
  readonly message: string;
  readonly rule?: RuleId;
  /** What went wrong (a judge's problem kind, or "pact-mismatch"), for grouping root causes. */
  readonly kind?: string;
  /** Where the broken rule comes from: spec, pinned or profile (with the section or key), or a pact. */
  readonly source?: RuleSource | { readonly source: "pact"; readonly ref: string };
  readonly expected?: string;
  readonly received?: string;
  readonly exchange?: Exchange;
  readonly curl?: string;
  /** R9: the read that gave back something else than the write (`exchange`) acknowledged. */
  readonly readBack?: Exchange;
  readonly readBackCurl?: string;
  /** A curl command that sets up the provider state the request needs (run it first). */
  readonly setup?: string;
  /**
   * The run's seed (`--seed`, what the replay command repeats), this check's fast-check seed (the
   * run's mixed with the check id) and the path of the (shrunk) counterexample under it, and how
   * often it shrank: `fc.check(property, { seed: checkSeed, path })` replays it in fast-check.
   */
  readonly seed?: number;
  readonly checkSeed?: number;
  readonly counterexamplePath?: string;
  readonly shrinks?: number;
  /** What the failing body is (a violation, a stress kind). */
  readonly body?: string;
  /** When the violation was seen while another check ran (then not shrunk). */
  readonly observedDuring?: string;
  /** A command line that re-runs this check with the same seed. */
  readonly replay?: string;
  /** Anything else a reader needs (e.g. the counterexample did not fail again when replayed). */
  readonly note?: string;
  /** Pact only: the mismatches, by path. */
  readonly mismatches?: readonly PactMismatch[];
  /** The whole body sent, when the exchange keeps only its start (over 64 KiB): replays need it. */
  readonly sentBody?: string;
  /** With `--replay-dir`: the vitest file that replays this failure (absolute path). */
  readonly replayFile?: string;
}

/**
 * One behaviour of the provider and every check it broke: an error body whose `errors` hold
 * objects fails every R1 variant, R2 and a pact per error answer; a report leads with the one
 * behaviour instead of a wall of equal failures. Grouping never changes a check's status.
 */
export interface Finding {
  /** What the provider does, in one line (the first failure's message). */
  readonly summary: string;
  readonly rule?: string;
  readonly source?: Failure["source"];
  /** The failing checks it explains, in report order. */
  readonly checks: readonly string[];
  /** The check whose failure stands for all (its exchange, curl and replay). */
  readonly example: string;
}

/** One mismatch Pact's verifier found in an answer: type, path, expected and actual. */
export interface PactMismatch {
  /** status, header or body, and where (`$.errors[0]`). */
  readonly type: string;
  readonly path?: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly message: string;
}

/** A warning of a check: its message, how often, and one exchange. */
export interface Warning {
  readonly message: string;
  readonly count: number;
  readonly exchange?: Exchange;
}

/** The result of one check (conformance or pact): status, runs, failure, warnings. */
export interface CheckResult {
  /** Stable id: `R1.auth.no-header`, ..., or `pact.<interaction description>`. */
  readonly id: string;
  readonly kind: "conformance" | "pact";
  readonly rule?: RuleId;
  readonly title: string;
  /** Where the check's rule comes from (conformance.md §1's source column, or the pact). */
  readonly source: { readonly source: string; readonly ref: string };
  readonly status: CheckStatus;
  /** Why a check is incomplete or could not be carried out. */
  readonly reason?: string;
  /** Property runs done of those asked (shrinking not counted); a pact interaction is 1 run. */
  readonly runs: { readonly done: number; readonly asked: number };
  /** Requests this check sent (shrinking and retries included). */
  readonly requests: number;
  /** Wall time from the check's first request to its result. */
  readonly durationMs: number;
  readonly warnings: readonly Warning[];
  readonly failure?: Failure;
  /** Pact: whose pact this interaction is, and whether the broker marked it pending. */
  readonly consumer?: {
    readonly name: string;
    readonly version?: string;
    readonly branch?: string;
    /** A pending pact's failure does not fail the run (--enable-pending, WIP pacts). */
    readonly pending?: boolean;
  };
}

/** A check the options did not allow: never counted as passed, named with what would enable it. */
export interface LeftOut {
  readonly id: string;
  readonly kind: "conformance" | "pact";
  readonly reason: string;
  /** The option that would enable it, e.g. `--provider-states-url`. */
  readonly enabledBy?: string;
}

/** A documented (operation, status) cell of the grid (`report.cells`). */
export interface Cell {
  readonly operation: string;
  readonly status: number;
  readonly seen: boolean;
}

/** When a kind of check ran, in ms from the run's start. */
export interface Phase {
  readonly startedMs: number;
  readonly durationMs: number;
}

export type Verdict = "passed" | "failed" | "could-not-verify";

/** What the run left of its writes (conformance.md §8): said in every report. */
export interface RestoreReport {
  /** The clustering rules: put back, never changed, or left as the last ones sent (and why). */
  readonly rules:
    | { readonly outcome: "restored" | "unchanged" }
    | { readonly outcome: "not-restored"; readonly detail: string };
  /** With --cleanup: the schemas this run created and removed, and those it could not remove. */
  readonly schemas:
    | {
        readonly cleanup: true;
        readonly removed: readonly string[];
        readonly failed: readonly { readonly name: string; readonly reason: string }[];
      }
    | { readonly cleanup: false };
  readonly warnings: readonly string[];
}

/**
 * How the run schedules provider states (conformance.md §4), and why: said in every report.
 * `overlapped`: each batch's state is set up while the batch before it is still in flight, and
 * checks and pacts set theirs up at once; `one-at-a-time`: a state is set up only once the one
 * before it is torn down, with no other state's requests in flight in between.
 */
export interface StatesSchedule {
  /** Whether other states' setups and teardowns left a login user set up first in place. */
  readonly additive: boolean | "unknown";
  readonly scheduling: "overlapped" | "one-at-a-time";
  /** What the probe saw, in words. */
  readonly detail: string;
}

/** Everything a run found: the JSON report's shape. */
export interface VerifyReport {
  readonly tool: { readonly name: "idp-verify"; readonly version: string };
  readonly startedAt: string;
  readonly durationMs: number;
  readonly providerUrl: string;
  readonly embedded: boolean;
  readonly providerStatesUrl?: string;
  readonly seed: number;
  readonly runs: number;
  readonly profile: { readonly name: string; readonly file?: string };
  readonly runId: string;
  readonly shard?: {
    readonly index: number;
    readonly total: number;
    readonly units: number;
    readonly of: number;
  };
  readonly pactSources: readonly string[];
  readonly checks: readonly CheckResult[];
  /** The failed checks grouped by what they say about the provider (one root cause each). */
  readonly findings: readonly Finding[];
  readonly leftOut: readonly LeftOut[];
  /** operation -> status -> count, over every request sent. */
  readonly grid: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** The statuses each operation documents under the run's profile (R3; the grid marks the rest). */
  readonly documentedStatuses: Readonly<Record<string, readonly number[]>>;
  /** Every documented (operation, status) cell, and whether any request of the run produced it. */
  readonly cells: readonly Cell[];
  /** Wall time of each kind of check: from its first start to its last end (ms from `startedAt`). */
  readonly phases: {
    readonly pact?: Phase;
    readonly conformance?: Phase;
  };
  /**
   * Requests sent (retries included), answered, and answers that were a gateway's "not now";
   * requests sent again (never judged): after a gateway's 502/504 whose body is not JSON
   * (conformance.md §7), and on a new connection after a connection kept alive closed idle before
   * the answer or bytes nobody asked for followed it (§9).
   */
  readonly requests: {
    readonly sent: number;
    readonly answered: number;
    readonly throttled: number;
    readonly resent: { readonly gateway: number; readonly connection: number };
  };
  /** How the provider was reached (conformance.md §7): said in every report. */
  readonly deployment: {
    /** `--insecure`: TLS certificates were not checked. */
    readonly insecure: boolean;
    readonly rateLimitPerSecond?: number;
    /** The names of the `--header`s sent (never their values). */
    readonly headers: readonly string[];
    readonly privateCa: boolean;
    readonly clientCertificate: boolean;
    readonly proxied?: true;
    /** `--har`: where every exchange was written. */
    readonly har?: string;
  };
  /** What the run put back and removed (conformance.md §8). */
  readonly restore: RestoreReport;
  /**
   * When the run used provider states: whether their setups were found additive, and so how they
   * were scheduled (conformance.md §4).
   */
  readonly states?: StatesSchedule;
  /** Set when the provider stopped answering and the run ended early. */
  readonly providerStopped?: string;
  /** Run-level warnings (e.g. a password too short to scrub). */
  readonly warnings: readonly string[];
  /** `--learn`: the profile written, what was learned with its evidence, and what was not. */
  readonly learn?: LearnReport;
  readonly summary: Readonly<Record<CheckStatus, number>> & {
    readonly leftOut: number;
    readonly warnings: number;
  };
  readonly verdict: Verdict;
  /** 0 every selected check ran to completion and passed, 1 a rule or pact broken, 2 could not verify. */
  readonly exitCode: 0 | 1 | 2;
}

/** The exit code of a set of results (conformance.md §5). */
export function exitCodeOf(results: readonly CheckResult[]): 0 | 1 | 2 {
  if (results.some((r) => r.status === "failed")) return 1;
  if (results.some((r) => r.status === "incomplete" || r.status === "error")) return 2;
  return 0;
}
