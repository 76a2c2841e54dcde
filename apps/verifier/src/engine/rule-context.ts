import type { ContractProfile } from "@idp/contracts";
import type { RuleContext } from "../rules/types.ts";
import type { Secrets } from "../secrets.ts";
import type { ConformanceSetup } from "./setup.ts";

/**
 * What the rules read about a run, from its setup. The thread that sends and the case thread build
 * it alike: a check's arbitrary depends on it, and both must draw the same cases from it.
 */
export function ruleContext(
  setup: ConformanceSetup,
  profile: ContractProfile,
  secrets: Secrets,
  slot: number,
): RuleContext {
  const base = new URL(setup.providerUrl);
  let names = 0;
  return {
    origin: base.origin,
    basePath: base.pathname.replace(/\/+$/, ""),
    credentials: setup.credentials,
    profile,
    secrets,
    statesAvailable: setup.states !== undefined,
    runId: setup.runId,
    seed: setup.seed,
    runs: setup.runs,
    freshSchemaName: () => `idpv-${setup.runId}-t${slot}-${++names}`,
  };
}
