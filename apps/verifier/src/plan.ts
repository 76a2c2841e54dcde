import type { Config } from "./config/parse.ts";
import { type StateUse, stateParams } from "./engine/states.ts";
import { VerifyError } from "./errors.ts";
import type { PactFile, PactInteraction } from "./pact/files.ts";
import { PACT_PREFIX, pactCheckId } from "./pact/ids.ts";
import type { LeftOut } from "./results.ts";
import { CHECKS } from "./rules/index.ts";
import { type CheckDef, NEED_OPTION } from "./rules/types.ts";
import { unitsOfShard } from "./shard.ts";

/** Rules whose checks run only when `--checks` names them. */
export const OPT_IN: ReadonlySet<string> = new Set(["R9", "R10"]);

/** True when `selector` (an id or a dotted prefix such as `R1` or `R1.auth`) selects `id`. */
export const selects = (selector: string, id: string): boolean =>
  id === selector || id.startsWith(`${selector}.`);

export interface Plan {
  /** The conformance checks this run executes (selected, allowed, in this shard). */
  readonly checks: readonly CheckDef[];
  /** Whether Pact's verifier runs at all. */
  readonly pacts: boolean;
  /** Which pact interactions it verifies (files; from a broker, all of them). */
  readonly pactSelected: (file: PactFile, interaction: PactInteraction) => boolean;
  readonly pactIds: readonly string[];
  /** Selected checks the options do not allow: named in every report, never counted as passed. */
  readonly leftOut: readonly LeftOut[];
  /** Every state the run will use, to probe before the first request. */
  readonly stateUses: readonly StateUse[];
  /** `--shard`: how many units this shard runs of how many. */
  readonly shardUnits?: { readonly units: number; readonly of: number };
}

/** The id of an interaction in this run: qualified by consumer when several consumers' pacts run. */
export function interactionId(
  files: readonly PactFile[],
  file: PactFile,
  interaction: PactInteraction,
): string {
  const consumers = new Set(files.map((f) => f.consumer));
  return pactCheckId(interaction.description, consumers.size > 1 ? file.consumer : undefined);
}

/**
 * Selection (conformance.md §5): without --checks, every check the options allow; the others are
 * left out, named with the option that enables them. A check named in --checks that cannot run is
 * exit 2 before anything starts.
 */
export function makePlan(
  config: Config,
  files: readonly PactFile[],
  options: {
    readonly statesGiven: boolean;
    readonly runId: string;
    readonly noPactsReason?: string;
  },
): Plan {
  const named = (id: string) => config.checks.some((s) => selects(s, id));
  const selected = (id: string) => config.checks.length === 0 || named(id);
  const leftOut: LeftOut[] = [];
  const unavailable = (id: string, reason: string, enabledBy?: string) => {
    if (config.checks.length > 0)
      throw new VerifyError(
        "E_CHECK_UNAVAILABLE",
        `check ${id} was asked for (--checks ${config.checks.join(",")}) but cannot run: ${reason}`,
      );
    leftOut.push({
      id,
      kind: id.startsWith(`${PACT_PREFIX}.`) || id === PACT_PREFIX ? "pact" : "conformance",
      reason,
      ...(enabledBy ? { enabledBy } : {}),
    });
  };

  const checks: CheckDef[] = [];
  for (const def of CHECKS) {
    // R9 and R10 are opt-in (conformance.md §8, §10): only when --checks names them, never by default.
    if (OPT_IN.has(def.info.rule) ? !named(def.info.id) : !selected(def.info.id)) continue;
    const missing = def.info.needs.filter((n) => n === "provider-states" && !options.statesGiven);
    if (missing.length > 0)
      unavailable(
        def.info.id,
        `needs ${missing.map((n) => NEED_OPTION[n]).join(", ")} (conformance.md §4)`,
        NEED_OPTION[missing[0] as "provider-states"],
      );
    else checks.push(def);
  }

  // Pacts.
  const pactWanted =
    config.checks.length === 0 ||
    config.checks.some((s) => selects(s, PACT_PREFIX) || s.startsWith(`${PACT_PREFIX}.`));
  const pactIds: string[] = [];
  const allowed = new Set<PactInteraction>();
  if (pactWanted && config.broker) pactIds.push(PACT_PREFIX);
  else if (pactWanted && options.noPactsReason)
    unavailable(PACT_PREFIX, options.noPactsReason, "--pacts PATH|URL");
  else if (pactWanted) {
    for (const file of files)
      for (const interaction of file.interactions) {
        const id = interactionId(files, file, interaction);
        if (!selected(id)) continue;
        const state = interaction.providerStates[0];
        if (state && !options.statesGiven)
          unavailable(
            id,
            `needs provider state "${state.name}": give --provider-states-url`,
            "--provider-states-url",
          );
        else {
          allowed.add(interaction);
          pactIds.push(id);
        }
      }
    const unknown = config.checks.filter(
      (s) =>
        s.startsWith(`${PACT_PREFIX}.`) &&
        !files.some((f) => f.interactions.some((i) => selects(s, interactionId(files, f, i)))),
    );
    if (unknown.length > 0)
      throw new VerifyError(
        "E_CONFIG",
        `unknown check id "${unknown[0]}" in --checks: no pact interaction has that description`,
      );
  }

  // --shard: units are split from their ids alone, before anything starts.
  const units = [...checks.map((c) => c.info.id), ...pactIds];
  const inShard = unitsOfShard(units, config.shard);
  const shardChecks = checks.filter((c) => inShard.has(c.info.id));
  const pactInShard = (file: PactFile, interaction: PactInteraction) =>
    allowed.has(interaction) && inShard.has(interactionId(files, file, interaction));
  const pacts = config.broker ? inShard.has(PACT_PREFIX) : pactIds.some((id) => inShard.has(id));

  // States to probe: the checks' (one per name) and the selected interactions'.
  const stateUses: StateUse[] = [];
  for (const def of shardChecks) {
    const need = def.state?.({ statesAvailable: options.statesGiven });
    if (need)
      stateUses.push({
        name: need.name,
        params: stateParams(need.name, `idpv-${options.runId}-probe`),
      });
  }
  for (const file of files)
    for (const interaction of file.interactions)
      if (pactInShard(file, interaction)) stateUses.push(...interaction.providerStates);

  return {
    checks: shardChecks,
    pacts,
    pactSelected: pactInShard,
    pactIds: pactIds.filter((id) => inShard.has(id)),
    leftOut,
    stateUses,
    ...(config.shard ? { shardUnits: { units: inShard.size, of: units.length } } : {}),
  };
}
