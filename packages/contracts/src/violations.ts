import type { DetailedOperationId } from "./operations.ts";

/**
 * The ways a request body can break a contract. The first five are stated by the spec and asserted
 * by default; the last three exist only under the strict profile's assumptions.
 */
export const VIOLATION_KINDS = [
  "not-json",
  "not-object",
  "wrapper-missing",
  "wrapper-not-object",
  "wrong-type",
  "missing-field",
  "unknown-key",
  "value-not-in-use",
] as const;
/** How a body breaks a contract: `not-json`, `not-object`, `wrapper-missing`, `wrapper-not-object`, `wrong-type` (and, under strict, `missing-field`, `unknown-key`, `value-not-in-use`). */
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

/** Kinds that follow from the spec itself (conformance.md §2-3); the default profile asserts these. */
export const SPEC_VIOLATION_KINDS: readonly ViolationKind[] = [
  "not-json",
  "not-object",
  "wrapper-missing",
  "wrapper-not-object",
  "wrong-type",
];

/**
 * The status of a rejected request body: 400 or 422, the two statuses the spec documents for a
 * bad request body. Profiles choose between them per operation and violation; they do not widen
 * the set (a provider's and the generators' types rely on it).
 */
export type ClientErrorStatus = 400 | 422;
/** Which 4xx each (operation, violation kind) gets: a profile's R5 mapping. */
export type StatusMapping = {
  readonly [O in DetailedOperationId]: { readonly [K in ViolationKind]: ClientErrorStatus };
};

/**
 * Which 4xx a conforming provider answers, per operation and violation: conformance.md §3 (pinned).
 * The strict-only kinds follow the row of `wrong-type` (our assumption, named here).
 * Override it by passing another mapping to `defineProfile`.
 */
export const PINNED_STATUS_MAPPING: StatusMapping = {
  createSchema: {
    "not-json": 400,
    "not-object": 400,
    "wrapper-missing": 400,
    "wrapper-not-object": 400,
    "wrong-type": 422,
    "missing-field": 422,
    "unknown-key": 422,
    "value-not-in-use": 422,
  },
  // Push documents no 422: every malformed body is a 400.
  pushToUserDevices: {
    "not-json": 400,
    "not-object": 400,
    "wrapper-missing": 400,
    "wrapper-not-object": 400,
    "wrong-type": 400,
    "missing-field": 400,
    "unknown-key": 400,
    "value-not-in-use": 400,
  },
  // Clustering rules documents no 400: every malformed body is a 422.
  updateClusteringRules: {
    "not-json": 422,
    "not-object": 422,
    "wrapper-missing": 422,
    "wrapper-not-object": 422,
    "wrong-type": 422,
    "missing-field": 422,
    "unknown-key": 422,
    "value-not-in-use": 422,
  },
};
