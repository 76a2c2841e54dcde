import { DETAILED_OPERATION_IDS, type DetailedOperationId } from "@idp/contracts";

/** The Basic-auth matrix of R1: every way a request can lack acceptable credentials. */
export const AUTH_VARIANTS = [
  "no-header",
  "other-scheme",
  "bad-base64",
  "no-colon",
  "wrong-user",
  "wrong-password",
] as const;
export type AuthVariant = (typeof AUTH_VARIANTS)[number];

export type RuleId = "R1" | "R2" | "R3" | "R4" | "R5" | "R6" | "R7" | "R8";

export interface CheckInfo {
  readonly id: string;
  readonly rule: RuleId;
  readonly title: string;
  /** The check needs `--provider-states-url` (conformance.md §4). */
  readonly needsProviderStates: boolean;
}

const perOperation = (
  prefix: string,
  rule: RuleId,
  title: (op: DetailedOperationId) => string,
  needsStates: (op: DetailedOperationId) => boolean = () => false,
): CheckInfo[] =>
  DETAILED_OPERATION_IDS.map((op) => ({
    id: `${prefix}.${op}`,
    rule,
    title: title(op),
    needsProviderStates: needsStates(op),
  }));

/** Every conformance check, in report order. Ids are stable: scripts select them with `--checks`. */
export const CONFORMANCE_CHECKS: readonly CheckInfo[] = [
  ...AUTH_VARIANTS.map((variant) => ({
    id: `R1.auth.${variant}`,
    rule: "R1" as const,
    title: `401 with error "authentication_failed" when credentials are ${variant.replaceAll("-", " ")}`,
    needsProviderStates: false,
  })),
  {
    id: "R2.error-body",
    rule: "R2",
    title: "every >= 400 answer is application/json with error, error_description, errors",
    needsProviderStates: false,
  },
  {
    id: "R3.documented-status",
    rule: "R3",
    title: "every status is one the operation documents",
    needsProviderStates: false,
  },
  ...perOperation(
    "R4.valid-accepted",
    "R4",
    (op) => `a valid ${op} payload gets the success status`,
    (op) => op === "pushToUserDevices",
  ),
  ...perOperation(
    "R5.invalid-rejected",
    "R5",
    (op) => `an invalid ${op} payload gets a documented 4xx (the pinned one, §3)`,
  ),
  {
    id: "R6.no-5xx",
    rule: "R6",
    title: "no generated request, valid or invalid, gets a 5xx",
    needsProviderStates: false,
  },
  {
    id: "R7.push-404",
    rule: "R7",
    title: "push to an id no login user has gets 404",
    needsProviderStates: true,
  },
  {
    id: "R7.push-403",
    rule: "R7",
    title: "push to a login user of another login app gets 403",
    needsProviderStates: true,
  },
  {
    id: "R8.no-success-body",
    rule: "R8",
    title: "success answers (200, 201) carry no body",
    needsProviderStates: false,
  },
];

export const PACT_CHECK_PREFIX = "pact";

/** True when `selector` (an id or a dotted prefix such as `R1` or `R1.auth`) selects `id`. */
export function selects(selector: string, id: string): boolean {
  return id === selector || id.startsWith(`${selector}.`);
}

/** A selector is known when it selects a conformance check, or names pact interactions. */
export function isKnownSelector(selector: string): boolean {
  if (selector === PACT_CHECK_PREFIX || selector.startsWith(`${PACT_CHECK_PREFIX}.`)) return true;
  return CONFORMANCE_CHECKS.some((c) => selects(selector, c.id));
}
