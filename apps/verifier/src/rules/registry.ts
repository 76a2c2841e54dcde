import type { RuleId } from "@idp/contracts";
import { r1 } from "./r1-auth.ts";
import { r2 } from "./r2-error-body.ts";
import { r3 } from "./r3-documented-status.ts";
import { r4 } from "./r4-valid-accepted.ts";
import { r5 } from "./r5-invalid-rejected.ts";
import { r6 } from "./r6-no-server-error.ts";
import { r7 } from "./r7-login-user.ts";
import { r8 } from "./r8-no-success-body.ts";
import { r9 } from "./r9-read-back.ts";
import { r10 } from "./r10-names-field.ts";
import type { CheckDef, CheckInfo, RuleModule } from "./types.ts";

/** Every rule (conformance.md §1, §8, §10): a rule without its module here does not compile. */
export const RULE_MODULES: { readonly [R in RuleId]: RuleModule } = {
  R1: r1,
  R2: r2,
  R3: r3,
  R4: r4,
  R5: r5,
  R6: r6,
  R7: r7,
  R8: r8,
  R9: r9,
  R10: r10,
};

/** Every conformance check, in report order. */
export const CHECKS: readonly CheckDef[] = Object.values(RULE_MODULES).flatMap((m) => m.checks);

/** What `--help`, `--checks` and the reports know of each check. */
export const CONFORMANCE_CHECKS: readonly CheckInfo[] = CHECKS.map((c) => c.info);

/** The check of an id, if it is a conformance check's. */
export const checkById = (id: string): CheckDef | undefined => CHECKS.find((c) => c.info.id === id);
