import { detailedOperations, operationPath } from "@idp/contracts";
import { probeStates } from "../engine/state-schedule.ts";
import { ProviderStates } from "../engine/states.ts";
import { VerifyError } from "../errors.ts";
import type { Client } from "../http/client.ts";
import { E_CONTENT_CODING } from "../http/decode.ts";
import { targetOf } from "../restore/probe.ts";
import type { StatesSchedule } from "../results.ts";
import type { RunRecord } from "./record.ts";
import { type SavedRules, saveRules } from "./restore.ts";

/**
 * One request per operation, without credentials, before any check: a provider that never
 * answers, or answers 404 everywhere (the base address misses /v1), is exit 2, not a failure list.
 * Then every provider state the run will use is set up and torn down once: a state without a
 * handler is one setup problem (exit 2), never a broken rule; and the run learns whether setups are
 * additive (engine/state-schedule.ts). Returns the states client and how states are scheduled.
 */
export async function preflightAndStates(run: RunRecord): Promise<{
  readonly states?: ProviderStates;
  readonly schedule?: StatesSchedule;
  readonly savedRules: SavedRules;
}> {
  const { provider, plan } = run;
  const client = run.transport.client;
  const profile = run.config.profile;
  await preflight(client, provider.url);
  // Before the first update of the clustering rules: what to put back after the last request (§8).
  const savedRules = await saveRules(client, targetOf(provider.url, provider.credentials, profile));
  const states = provider.states
    ? new ProviderStates(provider.states.url, client, run.secrets, provider.states.authorization)
    : undefined;
  let schedule: StatesSchedule | undefined;
  if (states && plan.stateUses.length > 0) {
    const probed = await probeStates(
      states,
      client,
      targetOf(provider.url, provider.credentials, profile),
      plan.stateUses,
      run.runId,
    );
    const missing = probed.missing;
    schedule = probed.schedule;
    if (missing.size > 0) {
      const [name, reason] = [...missing][0] as [string, string];
      throw new VerifyError(
        "E_STATE_HANDLER",
        `the provider has no working handler for provider state "${name}" at ${states.url}${missing.size > 1 ? ` (and ${missing.size - 1} more)` : ""}: ${reason}`,
      );
    }
  }
  return { ...(states ? { states } : {}), ...(schedule ? { schedule } : {}), savedRules };
}

async function preflight(client: Client, providerUrl: string): Promise<void> {
  const base = new URL(providerUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  const answers = await Promise.all(
    Object.values(detailedOperations).map((op) =>
      client.send(
        {
          method: op.method,
          origin: base.origin,
          path: `${basePath}${operationPath(op, { id: "idp-verify-preflight" })}`,
          headers: { "content-type": "application/json", accept: "application/json" },
          body: "{}",
          credentials: "no Authorization header",
          curlAuth: [],
        },
        "preflight",
      ),
    ),
  );
  // An answer that is HTTP but malformed is an answer (R6 judges it, conformance.md §9); bytes
  // that are not HTTP at all, or none, are not.
  const failures = answers.flatMap((a) =>
    a.raw.kind === "transport-error" &&
    (a.raw.code === "HPE_INVALID_CONSTANT" || !wireKindIsAnswer(a.raw.code))
      ? [a.raw]
      : [],
  );
  if (failures.length === answers.length) {
    const f = failures[0] as (typeof failures)[number];
    if (f.code === "E_THROTTLED")
      throw new VerifyError(
        "E_THROTTLED",
        `the provider at ${providerUrl} was throttled (429/503 with Retry-After) until the time limit: nothing could be verified (${f.message})`,
      );
    const what = f.code.startsWith("HPE_")
      ? "answered something that is not HTTP"
      : "did not answer";
    throw new VerifyError(
      "E_PROVIDER_UNREACHABLE",
      `the provider at ${providerUrl} ${what} (${f.code}: ${f.message})`,
    );
  }
  if (answers.every((a) => a.raw.kind === "response" && a.raw.status === 404))
    throw new VerifyError(
      "E_PROVIDER_NOT_FOUND",
      `the provider at ${providerUrl} answers 404 to all three operations: is /v1 the end of the base address? (e.g. --provider-url http://host:8080/v1)`,
    );
}

/** A transport failure that is an answer all the same: malformed, or not what its coding says. */
const wireKindIsAnswer = (code: string): boolean =>
  code.startsWith("HPE_") || code === E_CONTENT_CODING;
