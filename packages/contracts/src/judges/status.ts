import { type DetailedOperationId, detailedOperations } from "../operations.ts";
import type { LoginUserKind } from "../profile-keys.ts";
import { type ContractProfile, defaultProfile } from "../profiles.ts";
import { FIXED_SOURCES } from "../rules.ts";
import type { Problem } from "./problem.ts";

/** R3: the status is one the operation documents under the profile (`documentedStatuses`). */
export function undocumentedStatusProblem(
  operation: DetailedOperationId,
  status: number,
  profile: ContractProfile = defaultProfile,
): Problem | undefined {
  const documented = profile.documentedStatuses[operation];
  if (documented.includes(status)) return undefined;
  const list = documented.join(", ");
  return {
    rule: "R3",
    kind: "status",
    message: `R3: ${status} is not a documented status of ${operation} (documented: ${list})`,
    source: profile.sourceOf(`documentedStatuses.${operation}`),
    expected: `one of ${list}`,
    received: String(status),
  };
}

/** R4: a valid payload with good credentials gets the operation's success status. */
export function acceptanceProblem(
  operation: DetailedOperationId,
  status: number,
): Problem | undefined {
  const expected = detailedOperations[operation].successStatus;
  if (status === expected) return undefined;
  return {
    rule: "R4",
    kind: "status",
    message: `R4: a valid ${operation} payload must get ${expected}, got ${status}`,
    source: FIXED_SOURCES.successStatus,
    expected: String(expected),
    received: String(status),
  };
}

/** R6: no generated request, valid or invalid, gets a 5xx. */
export function serverErrorProblem(status: number): Problem | undefined {
  if (status < 500) return undefined;
  return {
    rule: "R6",
    kind: "status",
    message: `R6: a generated request must never get a 5xx, got ${status}`,
    source: FIXED_SOURCES.serverError,
    expected: "a status below 500",
    received: String(status),
  };
}

const LOGIN_USER_CASES: { readonly [K in LoginUserKind]: string } = {
  unknown: "to an id no login user has",
  otherLoginApp: "to a login user of another login app",
};

/**
 * R7: push to an id that no login user has (`unknown`) or to a login user of another login app
 * (`otherLoginApp`) gets the profile's `loginUserStatuses` (404 and 403 by default).
 */
export function loginUserProblem(
  kind: LoginUserKind,
  status: number,
  profile: ContractProfile = defaultProfile,
): Problem | undefined {
  const expected = profile.loginUserStatuses[kind];
  if (status === expected) return undefined;
  return {
    rule: "R7",
    kind: "status",
    message: `R7: push ${LOGIN_USER_CASES[kind]} must get ${expected}, got ${status}`,
    source: profile.sourceOf(`loginUserStatuses.${kind}`),
    expected: String(expected),
    received: String(status),
  };
}
