import type { Plan } from "../plan.ts";
import type { RunContext } from "./context.ts";
import type { ProviderUnderTest } from "./provider.ts";
import type { Sources } from "./sources.ts";
import type { Transport } from "./transport.ts";

/**
 * The run once its provider is reached: what the phases from the preflight on read (the options,
 * the pacts, the plan, the provider and the one transport to it). Each phase takes the record and
 * what the phases before it gave.
 */
export interface RunRecord extends RunContext {
  readonly sources: Sources;
  readonly plan: Plan;
  readonly provider: ProviderUnderTest;
  readonly transport: Transport;
}
