import { randomBytes } from "node:crypto";
import { detailedOperations, operationPath } from "@idp/contracts";
import type { Config } from "./config/parse.ts";
import { startEmbeddedProvider } from "./embedded.ts";
import {
  type ConformanceSetup,
  DEFAULT_THREADS,
  defaultPactInstances,
  runConformance,
} from "./engine/conformance.ts";
import { ProviderStates } from "./engine/states.ts";
import { VerifyError } from "./errors.ts";
import { Client } from "./http/client.ts";
import { checkBrokerLogin } from "./pact/broker.ts";
import { loadPacts, type PactFile } from "./pact/files.ts";
import { PACT_PREFIX } from "./pact/ids.ts";
import { verifyPacts } from "./pact/verify-pacts.ts";
import { makePlan, selects } from "./plan.ts";
import { replayPaths } from "./replay/files.ts";
import { cellsOf, requiredCellsCheck } from "./report/cells.ts";
import { findingsOf } from "./report/findings.ts";
import { type CheckResult, exitCodeOf, type Phase, type VerifyReport } from "./results.ts";
import { CHECKS, OBSERVED_CHECKS, withObservations } from "./rules/index.ts";
import type { Credentials } from "./rules/types.ts";
import { Secrets } from "./secrets.ts";
import { VERSION } from "./version.ts";

/** Hooks of `verify`: progress lines, each result as it is final, plan and case counts. */
export interface VerifyIo {
  /** Progress and warnings, one line each (the CLI writes them to stderr). */
  readonly progress?: (line: string) => void;
  /** Each check's result as soon as it is final. */
  readonly onResult?: (result: CheckResult) => void;
  /**
   * Once the checks start: how many conformance runs and pact interactions the run asks for; then
   * after each case judged (a conformance run, or a pact interaction's result). For a progress bar.
   */
  readonly onPlan?: (total: { readonly runs: number; readonly pacts: number }) => void;
  readonly onCaseDone?: (checkId: string) => void;
}

/**
 * Verifies one provider: its pacts with Pact's verifier and the property-based conformance checks
 * (R1-R8), concurrently. Never throws for a provider's misbehaviour (that is in the report); throws
 * VerifyError when the verification cannot be carried out, before the first request where it can.
 */
export async function verify(config: Config, io: VerifyIo = {}): Promise<VerifyReport> {
  const progress = io.progress ?? (() => {});
  const startedAt = new Date();
  const started = performance.now();
  const deadline = started + config.maxDurationMs;
  const runId = randomBytes(4).toString("hex");
  const secrets = registerSecrets(config);

  // Pacts are read before anything starts: an unreadable or empty source is exit 2 at once.
  const pactWanted =
    config.checks.length === 0 ||
    config.checks.some((s) => selects(s, PACT_PREFIX) || s.startsWith(`${PACT_PREFIX}.`));
  let files: PactFile[] = [];
  let noPactsReason: string | undefined;
  if (pactWanted && !config.broker) {
    try {
      files = await loadPacts(config.pacts, {
        timeoutMs: config.timeoutMs,
        secrets,
        ...(config.pactUrlAuth ? { auth: config.pactUrlAuth } : {}),
      });
    } catch (e) {
      // Nobody asked for the repo's pacts/ by name: without any, the pact part is left out.
      if (!(config.defaultPacts && e instanceof VerifyError)) throw e;
      noPactsReason = `no pacts to verify: ${e.message}`;
    }
    if (!noPactsReason && files.every((f) => f.interactions.length === 0))
      throw new VerifyError(
        "E_NO_PACTS",
        `the pacts in ${config.pacts.map(sourceText).join(", ")} hold no interaction`,
      );
  }
  // A broker that cannot be read is exit 2 before the first request to the provider.
  if (pactWanted && config.broker)
    await checkBrokerLogin(config.broker.url, config.broker.auth, {
      timeoutMs: config.timeoutMs,
      secrets,
    });
  const embeddedWanted = config.providerUrl === undefined;
  const statesGiven = embeddedWanted || config.providerStates !== undefined;
  const plan = makePlan(config, files, {
    statesGiven,
    runId,
    ...(noPactsReason ? { noPactsReason } : {}),
  });

  const embedded = embeddedWanted ? await startEmbeddedProvider(progress) : undefined;
  const providerUrl = embedded?.baseUrl ?? (config.providerUrl as string);
  const credentials = embedded?.credentials ?? (config.credentials as Credentials);
  if (embedded) secrets.addBasic(credentials.username, credentials.password, "password");
  for (const w of secrets.warnings()) progress(w);

  const client = new Client({
    timeoutMs: config.timeoutMs,
    connections: config.concurrency,
    maxConsecutiveFailures: config.maxConsecutiveTransportFailures,
    secrets,
  });
  try {
    await preflight(client, providerUrl);
    const statesUrl = embedded?.providerStatesUrl ?? config.providerStates?.url;
    const states = statesUrl
      ? new ProviderStates(statesUrl, client, secrets, config.providerStates?.authorization)
      : undefined;
    if (states && plan.stateUses.length > 0) {
      const missing = await states.probe(plan.stateUses);
      if (missing.size > 0) {
        const [name, reason] = [...missing][0] as [string, string];
        throw new VerifyError(
          "E_STATE_HANDLER",
          `the provider has no working handler for provider state "${name}" at ${states.url}${missing.size > 1 ? ` (and ${missing.size - 1} more)` : ""}: ${reason}`,
        );
      }
    }
    progress(
      `verifying ${providerUrl}${embedded ? " (embedded reference provider)" : ""}: seed ${config.seed}, ${config.runs} runs per check, profile ${config.profile.name}`,
    );

    const setup: ConformanceSetup = {
      providerUrl,
      credentials,
      ...(statesUrl
        ? {
            states: {
              url: statesUrl,
              ...(config.providerStates?.authorization
                ? { authorization: config.providerStates.authorization }
                : {}),
            },
          }
        : {}),
      profileArg: config.profileArg,
      cwd: config.cwd,
      secretValues: secrets.values(),
      seed: config.seed,
      runs: config.runs,
      timeoutMs: config.timeoutMs,
      concurrency: config.concurrency,
      maxConsecutiveTransportFailures: config.maxConsecutiveTransportFailures,
      deadlineEpochMs: Date.now() + (deadline - performance.now()),
      maxDurationText: `${Math.round(config.maxDurationMs / 1000)} s`,
      runId,
      replay: {
        ...(config.providerUrl ? { providerUrl: config.providerUrl } : {}),
        ...(config.providerStates ? { statesUrl: config.providerStates.url } : {}),
        profileArg: config.profileArg,
      },
      threads: config.threads ?? DEFAULT_THREADS,
    };
    io.onPlan?.({
      runs: plan.checks.length * config.runs,
      pacts: config.broker ? 0 : plan.pactIds.length,
    });

    // Results stream as checks finish; the rules judged on every answer (R2, R3, R6, R8) wait for
    // the whole run, since any later answer may break them (in a sharded run, everything waits).
    const results: CheckResult[] = [];
    const held: CheckResult[] = [];
    const emit = (r: CheckResult) => {
      results.push(r);
      io.onResult?.(r);
    };
    const hold = (r: CheckResult) =>
      config.shard || OBSERVED_CHECKS.has(r.id) ? held.push(r) : emit(r);
    // Each kind's wall time, first start to last end (JUnit's suite time; checks run in parallel).
    const phases: { pact?: Phase; conformance?: Phase } = {};
    // Both kinds start here: a check's own clock starts when it is created, before its first await.
    const t0 = performance.now();
    const timed = <T>(kind: keyof typeof phases, run: Promise<T>): Promise<T> =>
      run.then((value) => {
        const now = performance.now();
        phases[kind] = { startedMs: Math.round(t0 - started), durationMs: Math.round(now - t0) };
        return value;
      });
    const pacts = plan.pacts
      ? verifyPacts({
          files,
          selected: plan.pactSelected,
          ...(config.broker ? { broker: config.broker } : {}),
          ...(config.pactUrlAuth ? { pactUrlAuth: config.pactUrlAuth } : {}),
          ...(config.publish ? { publish: config.publish } : {}),
          providerUrl,
          credentials,
          ...(states ? { states } : {}),
          client,
          secrets,
          timeoutMs: config.timeoutMs,
          deadline,
          threads: config.threads ?? defaultPactInstances(),
          progress,
        }).then((rs) => {
          for (const r of rs) {
            io.onCaseDone?.(r.id);
            if (config.shard) held.push(r);
            else emit(r);
          }
        })
      : Promise.resolve();
    const conformance = runConformance(
      plan.checks,
      setup,
      { onResult: hold, ...(io.onCaseDone ? { onCaseDone: io.onCaseDone } : {}) },
      config.profile,
    );
    const [, outcome] = await Promise.all([
      plan.pacts ? timed("pact", pacts) : pacts,
      plan.checks.length > 0 ? timed("conformance", conformance) : conformance,
    ]);
    const observations = outcome.observations;
    const selectedIds = new Set(plan.checks.map((c) => c.info.id));
    const foreign = new Set(
      [...OBSERVED_CHECKS].filter(
        (id) =>
          config.shard &&
          !selectedIds.has(id) &&
          (config.checks.length === 0 || config.checks.some((s) => selects(s, id))),
      ),
    );
    for (const r of held) emit(withObservations(r, observations, foreign));

    // The statuses seen: the conformance threads' and this thread's (pacts, states) together.
    const seen = new Map<string, Map<number, number>>();
    for (const tally of [client.tally, outcome.tally])
      for (const [op, row] of tally) {
        const into = seen.get(op) ?? new Map<number, number>();
        for (const [status, n] of row) into.set(status, (into.get(status) ?? 0) + n);
        seen.set(op, into);
      }
    const grid: Record<string, Record<string, number>> = {};
    for (const [op, row] of seen)
      grid[op] = Object.fromEntries(
        [...row].sort(([a], [b]) => a - b).map(([s, n]) => [String(s), n]),
      );
    const cells = cellsOf(grid, config.profile.documentedStatuses);
    const order = new Map(CHECKS.map((c, i) => [c.info.id, i]));
    const sorted = [
      ...results.filter((r) => r.kind === "pact"),
      ...results
        .filter((r) => r.kind === "conformance")
        .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)),
    ];
    if (config.requireCells) {
      const cellsCheck = requiredCellsCheck(cells, config.profile);
      io.onResult?.(cellsCheck);
      sorted.push(cellsCheck);
    }
    const tool = { name: "idp-verify" as const, version: VERSION };
    const replays = config.replayDir
      ? replayPaths(sorted, { providerUrl, tool }, config.profile, config.replayDir)
      : new Map<string, string>();
    const ordered = sorted.map((r) => {
      const file = replays.get(r.id);
      return file && r.failure ? { ...r, failure: { ...r.failure, replayFile: file } } : r;
    });
    const summary = {
      passed: 0,
      failed: 0,
      incomplete: 0,
      error: 0,
      leftOut: plan.leftOut.length,
      warnings: 0,
    };
    for (const r of ordered) {
      summary[r.status]++;
      summary.warnings += r.warnings.length;
    }
    const exitCode = exitCodeOf(ordered);
    return {
      tool,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      providerUrl,
      embedded: embedded !== undefined,
      ...(statesUrl ? { providerStatesUrl: statesUrl } : {}),
      seed: config.seed,
      runs: config.runs,
      profile: {
        name: config.profile.name,
        ...(config.profileArg !== "default" && config.profileArg !== "strict"
          ? { file: config.profileArg }
          : {}),
      },
      runId,
      ...(config.shard && plan.shardUnits
        ? { shard: { ...config.shard, ...plan.shardUnits } }
        : {}),
      pactSources: config.broker ? [config.broker.url] : files.map((f) => f.location),
      checks: ordered,
      findings: findingsOf(ordered),
      leftOut: plan.leftOut,
      grid,
      documentedStatuses: config.profile.documentedStatuses,
      cells,
      phases,
      requests: { sent: client.sent + outcome.sent, answered: client.answered + outcome.answered },
      ...(client.stoppedReason || outcome.stoppedReason
        ? { providerStopped: (client.stoppedReason ?? outcome.stoppedReason) as string }
        : {}),
      warnings: secrets.warnings(),
      summary,
      verdict: exitCode === 0 ? "passed" : exitCode === 1 ? "failed" : "could-not-verify",
      exitCode,
    };
  } finally {
    await client.close();
    await embedded?.close();
  }
}

const sourceText = (s: Config["pacts"][number]) => (s.kind === "path" ? s.path : s.url);

/** Every secret the options hold, registered before anything can be recorded. */
function registerSecrets(config: Config): Secrets {
  const secrets = new Secrets();
  if (config.credentials)
    secrets.addBasic(config.credentials.username, config.credentials.password, "password");
  const auth = config.broker?.auth;
  if (auth && "token" in auth) secrets.add(auth.token, "broker token");
  if (auth && "password" in auth) secrets.addBasic(auth.username, auth.password, "broker password");
  const headerSecret = (h: string | undefined) => h?.slice(h.indexOf(" ") + 1);
  secrets.add(headerSecret(config.providerStates?.authorization), "provider-states URL password");
  for (const p of config.pacts)
    if (p.kind === "url") secrets.add(headerSecret(p.authorization), "pact URL credentials");
  return secrets;
}

/**
 * One request per operation, without credentials, before any check: a provider that never
 * answers, or answers 404 everywhere (the base address misses /v1), is exit 2, not a failure list.
 */
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
  const failures = answers.flatMap((a) => (a.raw.kind === "transport-error" ? [a.raw] : []));
  if (failures.length === answers.length) {
    const f = failures[0] as (typeof failures)[number];
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
