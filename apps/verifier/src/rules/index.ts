export { AUTH_VARIANTS, type AuthVariant } from "./auth.ts";
export {
  mergeObservations,
  OBSERVED_CHECKS,
  type Observations,
  observeRules,
  observeWire,
  withObservations,
} from "./observed.ts";
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
