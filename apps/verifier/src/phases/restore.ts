import { bodyText } from "@idp/contracts";
import type { ConformanceOutcome } from "../engine/conformance.ts";
import type { Client } from "../http/client.ts";
import { shownName } from "../report/format.ts";
import { type Created, mergeCreated, NONE_CREATED } from "../restore/ledger.ts";
import { type NeighbourTarget, targetOf } from "../restore/probe.ts";
import type { RestoreReport } from "../results.ts";
import { neighbourRequest } from "../rules/requests.ts";
import type { ProviderUnderTest } from "./provider.ts";
import type { RunRecord } from "./record.ts";

// Leave the provider as it was found (conformance.md §8): the clustering rules read before the
// first update are put back after the last request; with --cleanup, the schemas this run created
// (and only those) are removed. What happened is in every report.

/** The rules as read before the run: their JSON to put back, or why there is none. */
export type SavedRules =
  | { readonly kind: "saved"; readonly rules: unknown }
  | { readonly kind: "none"; readonly why: string };

/** Reads the clustering rules before the first update (`getClusteringRules`; bare or wrapped). */
export async function saveRules(client: Client, target: NeighbourTarget): Promise<SavedRules> {
  const a = await client.send(
    neighbourRequest(target, target.credentials, target.profile.neighbours.getClusteringRules),
    "restore",
  );
  if (a.raw.kind !== "response")
    return { kind: "none", why: `reading them before the run got no answer (${a.raw.code})` };
  if (a.raw.status === 404) return { kind: "none", why: "there were none before the run (404)" };
  if (a.raw.status !== 200)
    return { kind: "none", why: `reading them before the run was refused (${a.raw.status})` };
  try {
    const json = JSON.parse(bodyText(a.raw.body)) as Record<string, unknown> | null;
    const rules =
      json && typeof json === "object" && typeof json.rules === "object" && json.rules !== null
        ? json.rules
        : json;
    return { kind: "saved", rules };
  } catch {
    return { kind: "none", why: "what was read before the run is not JSON" };
  }
}

/**
 * Puts the rules back when this run changed them, and removes what it created with --cleanup.
 * Never throws: what could not be done is in the report, with warnings.
 */
export async function restore(
  client: Client,
  target: NeighbourTarget,
  provider: ProviderUnderTest,
  options: {
    readonly saved: SavedRules | undefined;
    /** Whether any update of the rules was acknowledged (200) during the run. */
    readonly rulesChanged: boolean;
    readonly cleanup: boolean;
    readonly created: Created;
  },
): Promise<RestoreReport> {
  const warnings: string[] = [];
  let rules: RestoreReport["rules"];
  if (!options.rulesChanged) rules = { outcome: "unchanged" };
  else if (options.saved?.kind === "saved") {
    const a = await client.send(
      {
        ...neighbourRequest(
          target,
          target.credentials,
          { method: "PUT", path: "/marketing/login/apps/clustering/rules" },
          undefined,
          JSON.stringify({ rules: options.saved.rules }),
        ),
        operation: "updateClusteringRules",
      },
      "restore",
    );
    const status = a.raw.kind === "response" ? String(a.raw.status) : a.raw.code;
    rules =
      status === "200"
        ? { outcome: "restored" }
        : { outcome: "not-restored", detail: `putting them back answered ${status}` };
  } else
    rules = {
      outcome: "not-restored",
      detail: options.saved?.why ?? "they were not read before the run",
    };
  if (rules.outcome === "not-restored" && !provider.embedded)
    warnings.push(
      `warning: the clustering rules were left as the last ones this run sent: ${rules.detail}`,
    );

  const removed: string[] = [];
  const failed: { name: string; reason: string }[] = [
    ...options.created.unremovable.map((name) => ({
      name,
      reason: "the name cannot be one path segment (conformance.md §8)",
    })),
    ...options.created.unconfirmed.map(({ name, reason }) => ({
      name,
      reason: `not removed: the provider did not answer whether it held the name before the run (${reason})`,
    })),
  ];
  if (options.cleanup)
    for (const name of options.created.names) {
      const a = await client.send(
        neighbourRequest(target, target.credentials, target.profile.neighbours.removeSchema, name),
        "cleanup",
      );
      if (a.raw.kind === "response" && a.raw.status === 200) removed.push(name);
      else
        failed.push({
          name,
          reason: `removing it answered ${a.raw.kind === "response" ? a.raw.status : a.raw.code}`,
        });
    }
  if (options.cleanup && failed.length > 0 && !provider.embedded)
    warnings.push(
      `warning: ${failed.length} schema${failed.length === 1 ? "" : "s"} this run created could not be removed (--cleanup): ${failed
        .slice(0, 3)
        .map((f) => shownName(f.name))
        .join(", ")}${failed.length > 3 ? ", ..." : ""}`,
    );
  return {
    rules,
    schemas: options.cleanup ? { cleanup: true, removed, failed } : { cleanup: false },
    warnings,
  };
}

/**
 * The restore phase of a run: the rules put back if any update of them was acknowledged (by this
 * thread's requests or the checks'), and with --cleanup the schemas every thread created removed.
 */
export function leaveAsFound(
  run: RunRecord,
  conformance: ConformanceOutcome,
  saved: SavedRules,
): Promise<RestoreReport> {
  const { config, provider, transport } = run;
  return restore(
    transport.client,
    targetOf(provider.url, provider.credentials, config.profile),
    provider,
    {
      saved,
      rulesChanged: [transport.client.tally, conformance.tally].some(
        (t) => (t.get("updateClusteringRules")?.get(200) ?? 0) > 0,
      ),
      cleanup: config.cleanup,
      created: mergeCreated([transport.ledger?.created ?? NONE_CREATED, conformance.created]),
    },
  );
}
