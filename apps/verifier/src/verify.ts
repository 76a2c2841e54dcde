import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { defaultProfile, detailedOperations, operationPath, strictProfile } from "@idp/contracts";
import { CONFORMANCE_CHECKS, PACT_CHECK_PREFIX, selects } from "./check-ids.ts";
import {
  type ConformanceContext,
  type Observations,
  observeRules,
  runConformanceCheck,
  withObservations,
} from "./checks.ts";
import { Client, curlCommand } from "./client.ts";
import type { Config, Credentials } from "./config.ts";
import { type EmbeddedProvider, startEmbeddedProvider } from "./embedded.ts";
import { VerifyError } from "./errors.ts";
import { mapBounded } from "./limiter.ts";
import { loadPactFiles, type PactFile, pactCheckId, verifyPacts } from "./pact.ts";
import { Redactor } from "./redact.ts";
import type { CheckResult, CheckStatus, VerifyReport } from "./results.ts";
import { type Shard, shardLabel, unitsOfShard } from "./shard.ts";
import { ProviderStates, STATE } from "./states.ts";

export interface VerifyIo {
  /** Progress and warnings (the CLI writes them to stderr). */
  readonly progress?: (line: string) => void;
  /** Told every secret the run makes up (the embedded provider's credentials), for scrubbing. */
  readonly onSecret?: (secret: string) => void;
}

const ICON: Record<CheckStatus, string> = { passed: "✓", failed: "✗", skipped: "-", error: "!" };

/**
 * Verifies one provider: its pacts with Pact's verifier, then the property-based conformance checks
 * (R1-R8). Never throws for a provider's misbehaviour (that is in the report); throws VerifyError
 * when verification cannot be carried out.
 */
export async function verify(config: Config, io: VerifyIo = {}): Promise<VerifyReport> {
  const progress = io.progress ?? (() => {});
  const startedAt = new Date();
  const started = performance.now();
  const runId = randomBytes(4).toString("hex");
  const redactor = new Redactor();
  // Broker token or password and URL user-info: scrubbed from everything the run prints or writes.
  for (const secret of config.secrets.filter((x) => x.length >= 3)) {
    redactor.addSecret(secret);
    io.onSecret?.(secret);
  }
  const selected = (id: string) =>
    config.checks.length === 0 || config.checks.some((s) => selects(s, id));

  // Pact files are read before anything starts: an unreadable pact is exit 2 at once.
  const pactWanted =
    config.checks.length === 0 ||
    config.checks.some(
      (s) =>
        selects(s, PACT_CHECK_PREFIX) ||
        selects(PACT_CHECK_PREFIX, s) ||
        s.startsWith(`${PACT_CHECK_PREFIX}.`),
    );
  let pactFiles: PactFile[] = [];
  let noPactsReason: string | undefined;
  if (pactWanted && !config.broker) {
    const folderEmpty =
      config.defaultPacts &&
      (!existsSync(config.pacts[0] ?? "") ||
        readdirSync(config.pacts[0] ?? "").every((f) => !f.endsWith(".json")));
    if (folderEmpty)
      noPactsReason = `no pact files in ${config.pacts[0]} (write them with packages/pact-consumer, or pass --pacts)`;
    else pactFiles = loadPactFiles(config.pacts);
    const descriptions = pactFiles.flatMap((f) =>
      f.interactions.map((i) => pactCheckId(i.description)),
    );
    const unknown = config.checks.filter(
      (s) => s.startsWith(`${PACT_CHECK_PREFIX}.`) && !descriptions.some((d) => selects(s, d)),
    );
    // Pacts by URL are known only once Pact has fetched them.
    if (unknown.length > 0 && config.pactUrls.length === 0)
      throw new VerifyError(
        "E_CONFIG",
        `unknown check id "${unknown[0]}" in --checks: no pact interaction has that description`,
      );
  }

  // --shard: the units (check ids; pact interactions, or `pact` as a whole from a broker or when
  // there are none) are split before anything starts, from nothing but their ids.
  const conformanceUnits = CONFORMANCE_CHECKS.filter((c) => selected(c.id)).map((c) => c.id);
  const pactUnits = !pactWanted
    ? []
    : config.broker || config.pactUrls.length > 0 || noPactsReason
      ? [PACT_CHECK_PREFIX]
      : pactFiles.flatMap((f) =>
          f.interactions.map((i) => pactCheckId(i.description)).filter((id) => selected(id)),
        );
  const allUnits = [...conformanceUnits, ...pactUnits];
  const inShard = unitsOfShard(allUnits, config.shard);
  if (config.shard)
    progress(
      `shard ${shardLabel(config.shard)}: ${inShard.size} of ${allUnits.length} checks and pact interactions`,
    );

  let embedded: EmbeddedProvider | undefined;
  let providerUrl: string;
  let statesUrl: string | undefined;
  let credentials: Credentials;
  if (config.providerUrl === undefined) {
    progress("starting the embedded provider (apps/provider, in-memory database)");
    embedded = await startEmbeddedProvider(progress);
    providerUrl = embedded.baseUrl;
    statesUrl = embedded.providerStatesUrl;
    credentials = embedded.credentials;
  } else {
    providerUrl = config.providerUrl;
    statesUrl = config.providerStatesUrl;
    if (!config.credentials) throw new VerifyError("E_CONFIG", "--provider-url needs credentials");
    credentials = config.credentials;
  }
  redactor.addCredentials(credentials.username, credentials.password);
  io.onSecret?.(credentials.password);
  io.onSecret?.(Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64"));

  let client: Client | undefined;
  try {
    client = new Client({
      timeoutMs: config.timeoutMs,
      concurrency: config.concurrency,
      maxConsecutiveFailures: config.maxConsecutiveTransportFailures,
      redactor,
    });
    const observations = observeRules(client);
    await preflight(client, providerUrl);
    progress(`verifying ${providerUrl} (seed ${config.seed}, ${config.runs} runs per check)`);
    const states = statesUrl
      ? new ProviderStates(statesUrl, config.timeoutMs, config.providerStatesAuthorization)
      : undefined;
    const results: CheckResult[] = [];
    const report = (r: CheckResult) => {
      results.push(r);
      const detail =
        r.status === "failed" ? ` — ${r.failure?.message ?? ""}` : r.reason ? ` — ${r.reason}` : "";
      progress(
        `${ICON[r.status]} ${r.id} (${r.runs} runs, ${(r.durationMs / 1000).toFixed(1)} s)${detail}`,
      );
    };

    // 1. Pacts, with Pact's own verifier.
    if (pactUnits.some((id) => inShard.has(id))) {
      if (noPactsReason)
        report({
          id: PACT_CHECK_PREFIX,
          kind: "pact",
          title: "pact verification",
          status: "skipped",
          reason: noPactsReason,
          runs: 0,
          durationMs: 0,
          warnings: [],
        });
      else {
        progress(
          `verifying pacts: ${config.broker ? config.broker.url : [...pactFiles.map((f) => f.path), ...config.pactUrls].join(", ")}`,
        );
        const pactResults = await verifyPacts({
          providerUrl,
          credentials,
          files: pactFiles,
          pactUrls: config.pactUrls,
          ...(config.pactUrlAuth ? { pactUrlAuth: config.pactUrlAuth } : {}),
          ...(config.broker ? { broker: config.broker } : {}),
          ...(config.publish ? { publish: config.publish } : {}),
          ...(states ? { states } : {}),
          timeoutMs: config.timeoutMs,
          redactor,
          selected: (id) => selected(id) && inShard.has(id),
        });
        for (const r of pactResults) report(r);
      }
    }

    // 2. Property-based conformance checks.
    const checks = CONFORMANCE_CHECKS.filter((c) => selected(c.id) && inShard.has(c.id));
    const neededStates = [STATE.userExists, STATE.noUser, STATE.otherAppUser].filter((s) =>
      checks.some(
        (c) =>
          c.needsProviderStates &&
          (s === STATE.userExists
            ? c.id.startsWith("R4")
            : c.id === (s === STATE.noUser ? "R7.push-404" : "R7.push-403")),
      ),
    );
    const missingStates =
      states && neededStates.length > 0
        ? await states.probe(
            neededStates.map((name) => ({ name, params: { id: `idpv-${runId}-probe` } })),
          )
        : new Map<string, string>();
    const profile = config.profile === "strict" ? strictProfile : defaultProfile;
    const ctx: ConformanceContext = {
      client,
      baseUrl: providerUrl,
      credentials,
      ...(states ? { states } : {}),
      missingStates,
      profile,
      runs: config.runs,
      seed: config.seed,
      runId,
      redactor,
      replayCommand: (id) =>
        `idp-verify${config.providerUrl ? ` --provider-url ${config.providerUrl}` : ""}${config.providerStatesUrl ? ` --provider-states-url ${config.providerStatesUrl}` : ""} --checks ${id} --seed ${config.seed} --runs ${config.runs}${config.profile === "strict" ? " --profile strict" : ""}`,
    };
    const conformance = await mapBounded(checks, config.concurrency, async (info) => {
      const r = await runConformanceCheck(ctx, info);
      return r;
    });
    const foreign = new Set(conformanceUnits.filter((id) => !inShard.has(id)));
    for (const r of conformance)
      report(withForeignObservations(withObservations(r, observations), observations, foreign));

    const grid: Record<string, Record<string, number>> = {};
    for (const [op, row] of client.tally)
      grid[op] = Object.fromEntries([...row].sort(([a], [b]) => a.localeCompare(b)));
    const summary = { passed: 0, failed: 0, skipped: 0, error: 0, warnings: 0 };
    for (const r of results) {
      summary[r.status]++;
      summary.warnings += r.warnings.length;
    }
    const stopped = client.stoppedReason;
    const exitCode: 0 | 1 | 2 = summary.failed > 0 || stopped ? 1 : summary.error > 0 ? 2 : 0;
    return {
      tool: "idp-verify",
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      providerUrl: redactor.scrub(providerUrl),
      embedded: embedded !== undefined,
      ...(statesUrl ? { providerStatesUrl: statesUrl } : {}),
      seed: config.seed,
      runs: config.runs,
      profile: profile.name,
      runId,
      ...(config.shard ? { shard: shardInfo(config.shard, inShard.size, allUnits.length) } : {}),
      pactSources: config.broker
        ? [config.broker.url]
        : [...pactFiles.map((f) => f.path), ...config.pactUrls],
      checks: results,
      grid,
      requests: { sent: client.sent, answered: client.answered },
      ...(stopped ? { providerStopped: stopped } : {}),
      summary,
      exitCode,
    };
  } finally {
    client?.close();
    await embedded?.close();
  }
}

const shardInfo = (shard: Shard, units: number, of: number) => ({ ...shard, units, of });

/**
 * In a sharded run, the rules judged on every answer (R2, R3, R6, R8) also judge this shard's answers
 * when their own check runs in another shard: a violation fails the check whose request showed it
 * (the whole run would fail the rule's check instead), so green shards never hide what the whole run
 * catches. `foreign` holds the selected checks of the other shards.
 */
function withForeignObservations(
  result: CheckResult,
  obs: Observations,
  foreign: ReadonlySet<string>,
): CheckResult {
  if (result.status !== "passed") return result;
  for (const [ruleCheck, seen] of obs.first)
    if (foreign.has(ruleCheck) && seen.source === result.id)
      return {
        ...result,
        status: "failed",
        failure: {
          message: `${seen.message} (judged for ${ruleCheck}, which runs in another shard)`,
          exchange: seen.exchange,
          curl: curlCommand(seen.exchange),
        },
      };
  return result;
}

/** One request before anything else: a provider that never answers is exit 2, not a list of failures. */
async function preflight(client: Client, providerUrl: string): Promise<void> {
  const op = detailedOperations.createSchema;
  const { raw } = await client.call(
    {
      operation: op.id,
      method: op.method,
      url: `${providerUrl}${operationPath(op)}`,
      headers: { "content-type": "application/json", accept: "application/json" },
      credentials: "no Authorization header",
      curlAuth: [],
      body: "{}",
    },
    "preflight",
  );
  if (raw.kind === "transport-error") {
    const what = raw.code.startsWith("HPE_")
      ? "answered something that is not HTTP"
      : "did not answer";
    throw new VerifyError(
      "E_PROVIDER_UNREACHABLE",
      `the provider at ${providerUrl} ${what} (${raw.code}: ${raw.message})`,
    );
  }
}
