import type { Exchange } from "./client.ts";

export type CheckStatus = "passed" | "failed" | "skipped" | "error";

export interface Failure {
  /** What rule was broken, expected vs received, in one line. */
  readonly message: string;
  readonly exchange?: Exchange;
  readonly curl?: string;
  /** A curl command that sets up the provider state the request needs (run it first). */
  readonly setup?: string;
  /** fast-check seed and path of the shrunk counterexample. */
  readonly seed?: number;
  readonly counterexamplePath?: string;
  readonly shrinks?: number;
  /** When the violation was seen while another check ran (not shrunk). */
  readonly observedDuring?: string;
  /** A command line that re-runs this check with the same seed. */
  readonly replay?: string;
}

export interface Warning {
  readonly message: string;
  readonly count: number;
  readonly exchange?: Exchange;
}

export interface CheckResult {
  /** Stable id: `R1.auth.no-header`, ..., or `pact.<interaction description>`. */
  readonly id: string;
  readonly kind: "conformance" | "pact";
  readonly rule?: string;
  readonly title: string;
  readonly status: CheckStatus;
  /** Why a check was skipped, or could not be carried out. */
  readonly reason?: string;
  /** Requests judged (property runs, shrinking included). */
  readonly runs: number;
  readonly durationMs: number;
  readonly warnings: readonly Warning[];
  readonly failure?: Failure;
}

export interface VerifyReport {
  readonly tool: "idp-verify";
  readonly startedAt: string;
  readonly durationMs: number;
  readonly providerUrl: string;
  readonly embedded: boolean;
  readonly providerStatesUrl?: string;
  readonly seed: number;
  readonly runs: number;
  readonly profile: string;
  readonly runId: string;
  /** `--shard i/n`: which part this run is, and how many of the selected units it ran. */
  readonly shard?: {
    readonly index: number;
    readonly total: number;
    readonly units: number;
    readonly of: number;
  };
  readonly pactSources: readonly string[];
  readonly checks: readonly CheckResult[];
  /** operation -> status -> count, over every request sent. */
  readonly grid: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly requests: { readonly sent: number; readonly answered: number };
  /** Set when the provider stopped answering and the run ended early. */
  readonly providerStopped?: string;
  readonly summary: Readonly<Record<CheckStatus, number>> & { readonly warnings: number };
  /** 0 passed, 1 the provider broke a rule or pact, 2 could not verify. */
  readonly exitCode: 0 | 1 | 2;
}
