import type { LearnedSource, ProfileKey } from "@idp/contracts";

/** One exchange of the learning phase, safe to write into a profile file. */
export interface Evidence {
  /** The check whose rule the learned key concerns. */
  readonly check: string;
  /** `METHOD path body` (the path under the base address, the body cut at 600 characters). */
  readonly request: string;
  /** `status body` (scrubbed of every secret, cut at 300 characters), or why there was none. */
  readonly answer: string;
}

/** One key the run learned: its value in the file and its evidence (`sources`). */
export interface LearnedKey {
  readonly key: ProfileKey;
  readonly value: unknown;
  readonly source: LearnedSource;
}

/**
 * What was not learned, and why:
 * - `refused`: what the provider did is never learned (a 5xx, a success status other than the
 *   spec's, a broken error body, what a rule the spec states says; conformance.md §6);
 * - `inconsistent`: the run saw it both ways (one exchange of each kind);
 * - `not-surveyed`: the run could not ask (no provider states, the time was up);
 * - `dropped`: a key of the profile in use that the provider no longer keeps (left out of the file).
 */
export interface NotLearned {
  readonly kind: "refused" | "inconsistent" | "not-surveyed" | "dropped";
  /** A profile key, or the check whose failure it is. */
  readonly subject: string;
  readonly why: string;
  readonly exchanges: readonly Evidence[];
}

/** What `--learn` did: in the JSON report (`learn`) and the console. */
export interface LearnReport {
  /** The profile file written, as given on the command line. */
  readonly path: string;
  /** The profile it extends: a built-in name or the profile file in use. */
  readonly extends: string;
  readonly learned: readonly LearnedKey[];
  readonly notLearned: readonly NotLearned[];
  /** Requests the learning phase sent (never judged, never in the status grid). */
  readonly requests: number;
}
