export { AUTH_VARIANTS, type AuthVariant } from "./auth.ts";
export { OBSERVED_CHECKS, type Observations, observeRules, withObservations } from "./observed.ts";
export { CHECKS, CONFORMANCE_CHECKS, checkById, RULE_MODULES } from "./registry.ts";
export type {
  Case,
  CheckDef,
  CheckInfo,
  Credentials,
  RuleContext,
  Verdict,
  Violation,
} from "./types.ts";
