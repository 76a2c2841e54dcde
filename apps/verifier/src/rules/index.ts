export { AUTH_VARIANTS, type AuthVariant, type Credentials } from "./auth.ts";
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
  RuleContext,
  Verdict,
  Violation,
} from "./types.ts";
