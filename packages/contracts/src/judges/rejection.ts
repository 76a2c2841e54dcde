import { type BodyViolation, classifyRequestBody } from "../classify-body.ts";
import type { DetailedOperationId } from "../operations.ts";
import { type ContractProfile, defaultProfile } from "../profiles.ts";
import type { RuleSource } from "../rules.ts";
import type { ClientErrorStatus, ViolationKind } from "../violations.ts";
import { oneLine, type Problem } from "./problem.ts";

/** The status a profile pins for an invalid body (R5), why, and where the pin comes from. */
export interface ExpectedRejection {
  readonly status: ClientErrorStatus;
  /** The first violation the profile asserts. */
  readonly violation: BodyViolation;
  /** The source of `statusMapping.<operation>.<violation kind>`, or of the bound it breaks. */
  readonly source: RuleSource;
}

/**
 * What R5 expects for the exact text of a request body: the pinned status, violation and source;
 * `undefined` when the body is valid, or breaks only rules the profile does not assert (R5 then
 * asserts nothing; R3, R4 and R6 still apply).
 */
export function expectedRejection(
  operation: DetailedOperationId,
  rawBodyText: string,
  profile: ContractProfile = defaultProfile,
): ExpectedRejection | undefined {
  const c = classifyRequestBody(operation, rawBodyText, profile);
  if (c.outcome !== "invalid") return undefined;
  return {
    status: c.status,
    violation: c.violation,
    source: c.violation.bound
      ? profile.sourceOf(`bounds.${c.violation.bound.key}`)
      : profile.sourceOf(`statusMapping.${operation}.${c.violation.kind as ViolationKind}`),
  };
}

/**
 * R5: an invalid body gets exactly the status the profile pins for its operation and violation;
 * any other status, documented or not, is a problem (conformance.md §1 R5). Undefined when the
 * status is the pinned one, or when R5 asserts nothing for this body (see {@link expectedRejection}).
 */
export function rejectionProblem(
  operation: DetailedOperationId,
  rawBodyText: string,
  status: number,
  profile: ContractProfile = defaultProfile,
): Problem | undefined {
  return rejectionProblemOf(operation, expectedRejection(operation, rawBodyText, profile), status);
}

/**
 * {@link rejectionProblem} from an {@link expectedRejection} already read (a verifier reads the
 * body where it generates it, and judges the status where the answer arrives).
 */
export function rejectionProblemOf(
  operation: DetailedOperationId,
  expected: ExpectedRejection | undefined,
  status: number,
): Problem | undefined {
  if (expected === undefined || status === expected.status) return undefined;
  const { violation } = expected;
  return {
    rule: "R5",
    kind: "status",
    message: `R5: a ${operation} payload with ${violation.kind} (${oneLine(violation.message)}) must get ${expected.status}, got ${status}`,
    source: expected.source,
    expected: String(expected.status),
    received: String(status),
  };
}
