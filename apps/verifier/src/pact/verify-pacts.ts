import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PACT_PLACEHOLDER_AUTHORIZATION } from "@idp/contracts";
import type { VerifierOptions } from "@pact-foundation/pact-core";
import type { BrokerAuth, BrokerSource, PublishOptions } from "../config/parse.ts";
import type { StateLock } from "../engine/state-lock.ts";
import type { ProviderStates } from "../engine/states.ts";
import type { Client } from "../http/client.ts";
import { curlCommand } from "../http/exchange.ts";
import type { CheckResult, PactMismatch } from "../results.ts";
import type { Credentials } from "../rules/auth.ts";
import { base64, type Secrets } from "../secrets.ts";
import { brokerRefusalHint } from "./broker.ts";
import { type InteractionOutcome, pactVerdictProblem, parseFfiResults } from "./ffi-results.ts";
import type { PactFile, PactInteraction } from "./files.ts";
import { type GuardGroup, PactGuard } from "./guard.ts";
import { pactTlsEnv, runPactWorker } from "./host.ts";
import { PACT_PREFIX, pactCheckId } from "./ids.ts";
import { type PactOrigin, pactOrigins, severalOrigins } from "./origins.ts";
import { instanceCount, partitionByStates } from "./partition.ts";

export interface PactRun {
  /** The pacts read up front (empty when they come from a broker). */
  readonly files: readonly PactFile[];
  /** Which interactions to verify (by --checks, --shard and what the options allow). */
  readonly selected: (file: PactFile, interaction: PactInteraction) => boolean;
  readonly broker?: BrokerSource;
  /** The broker's login for pact URLs on the broker. */
  readonly pactUrlAuth?: BrokerAuth;
  readonly publish?: PublishOptions;
  /** Base address ending in /v1. */
  readonly providerUrl: string;
  readonly credentials: Credentials;
  readonly states?: ProviderStates;
  /** One provider state at a time (setups not additive, conformance.md §4). */
  readonly stateLock?: StateLock;
  readonly client: Client;
  readonly secrets: Secrets;
  readonly timeoutMs: number;
  /** performance.now() by which Pact's verifier must have finished. */
  readonly deadline: number;
  /** Instances of Pact's verifier that may run at once. */
  readonly threads: number;
  /** Progress lines (stderr). */
  readonly progress?: (line: string) => void;
}

const PACT_SOURCE = { source: "pact", ref: "the consumer's pact" } as const;

/** One instance of Pact's verifier over a part of the interactions, as it came back. */
type InstanceOutcome =
  | { readonly error: CheckResult }
  | {
      readonly wanted: readonly Wanted[];
      readonly outcomes: readonly InteractionOutcome[];
      readonly origins: readonly PactOrigin[] | undefined;
      readonly groups: readonly GuardGroup[];
      readonly verdict?: string;
      readonly log: string;
    };

interface Wanted {
  readonly file: PactFile;
  readonly interaction: PactInteraction;
  /** Its place among every interaction asked for: results come back in this order. */
  readonly order: number;
}

/**
 * Verifies pacts with Pact's own verifier (pact-core), through the guard. Returns one result per
 * interaction Pact verified, plus an error result when Pact's verdict, its results and what was
 * asked disagree: a pact that did not run is never a pass.
 *
 * Pact's core costs ~25 ms of CPU per interaction, so many interactions are split among up to
 * `threads` instances running at once (each with a guard of its own), those whose provider states
 * could interfere kept in one instance; their results are merged in the pacts' order. Pacts from a
 * broker, or a run that publishes, use one instance: Pact publishes one result per pact it verified.
 */
export async function verifyPacts(run: PactRun): Promise<CheckResult[]> {
  const started = performance.now();
  const wanted: Wanted[] = run.files
    .flatMap((file) =>
      file.interactions
        .filter((i) => run.selected(file, i))
        .map((interaction) => ({ file, interaction })),
    )
    .map((w, order) => ({ ...w, order }));
  if (!run.broker && wanted.length === 0) return [];
  // Two pacts of one consumer are told apart by their order in one run: they stay in one.
  const consumers = new Set(run.files.map((f) => f.consumer));
  const instances =
    run.broker || run.publish || consumers.size < run.files.length
      ? 1
      : instanceCount(wanted.length, run.threads);
  const parts =
    instances === 1
      ? [wanted]
      : partitionByStates(
          wanted.map((w) => w.interaction),
          instances,
        ).map((indexes) => indexes.map((i) => wanted[i] as Wanted));
  if (parts.length > 1)
    run.progress?.(
      `pact: ${wanted.length} interactions in ${parts.length} instances of Pact's verifier at once (${parts.map((p) => p.length).join(" + ")}; those sharing a provider state's parameters in one)`,
    );
  const dir = mkdtempSync(join(tmpdir(), "idp-verify-pacts-"));
  try {
    const outcomes = await Promise.all(
      parts.map((part, k) => verifyInstance(run, part, join(dir, String(k)))),
    );
    const durationMs = Math.round(performance.now() - started);
    const failed = outcomes.flatMap((o) => ("error" in o ? [o.error] : []));
    if (failed.length > 0) {
      // Instances that failed alike make one result (ids stay unique in a report).
      const reasons = [...new Set(failed.map((f) => f.reason ?? ""))];
      return [{ ...(failed[0] as CheckResult), reason: reasons.join("; "), durationMs }];
    }
    const done = outcomes.flatMap((o) => ("error" in o ? [] : [o]));
    // Each instance's results in the pacts' order, then all of them merged by that order.
    const merged = done
      .flatMap((o) => {
        const order = orderOf(o.outcomes, o.wanted);
        return o.outcomes.map((outcome, i) => ({
          outcome,
          origin: o.origins?.[i],
          group: o.groups[i],
          order: order[i] as number,
        }));
      })
      .sort((a, b) => a.order - b.order);
    const origins = done.every((o) => o.origins !== undefined)
      ? merged.map((m) => m.origin as PactOrigin)
      : undefined;
    const results = toResults(
      merged.map((m) => m.outcome),
      origins,
      merged.map((m) => m.group),
      run,
    );
    const extra: CheckResult[] = [];
    const verdict = done.find((o) => o.verdict !== undefined)?.verdict;
    if (verdict) extra.push(pactError(`${PACT_PREFIX}.verdict`, verdict, durationMs));
    // Every interaction asked for must have a result.
    const reported = new Set(merged.map((m) => m.outcome.description));
    for (const { interaction } of wanted)
      if (!reported.has(interaction.description))
        extra.push(
          pactError(
            pactCheckId(interaction.description),
            "Pact's verifier did not report this interaction",
            0,
          ),
        );
    // Pact logs a failed publication and carries on; asked for, it is a result that could not be given.
    const publishError = run.publish
      ? /Publishing of verification results failed[^\n]*/.exec(done[0]?.log ?? "")?.[0]
      : undefined;
    if (publishError)
      extra.push(
        pactError(
          `${PACT_PREFIX}.publish-verification-results`,
          run.secrets.scrub(publishError),
          0,
        ),
      );
    return [...results, ...extra];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Where each of Pact's results stands among what was asked: the first unclaimed interaction of
 * that consumer and description (Pact may verify in another order); results matching nothing go
 * last, in Pact's order.
 */
function orderOf(outcomes: readonly InteractionOutcome[], wanted: readonly Wanted[]): number[] {
  const claimed = new Set<number>();
  return outcomes.map((o, i) => {
    const match = wanted.find(
      (w) =>
        !claimed.has(w.order) &&
        w.interaction.description === o.description &&
        (o.consumer === undefined || w.file.consumer === o.consumer),
    );
    if (!match) return Number.MAX_SAFE_INTEGER - outcomes.length + i;
    claimed.add(match.order);
    return match.order;
  });
}

/** Runs one instance of Pact's verifier, with a guard of its own, over `wanted`. */
async function verifyInstance(
  run: PactRun,
  wanted: readonly Wanted[],
  dir: string,
): Promise<InstanceOutcome> {
  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  const guard = new PactGuard({
    client: run.client,
    providerOrigin: new URL(run.providerUrl).origin,
    placeholderAuthorization: PACT_PLACEHOLDER_AUTHORIZATION,
    realAuthorization: `Basic ${base64(`${run.credentials.username}:${run.credentials.password}`)}`,
    ...(run.states ? { states: run.states } : {}),
    ...(run.stateLock ? { stateLock: run.stateLock } : {}),
    secrets: run.secrets,
  });
  try {
    // Pact verifies whole pacts: a selection reaches it as copies holding only what was selected; a
    // pact URL with nothing left out goes to Pact as the URL (so its results can be published).
    const pactUrls = run.broker
      ? []
      : pactSources(
          dir,
          run.files,
          wanted.map((w) => w.interaction),
        );
    await guard.start();
    const base = new URL(run.providerUrl);
    const options: VerifierOptions = {
      providerBaseUrl: `${guard.origin}${base.pathname.replace(/\/+$/, "")}`,
      provider: run.files[0]?.provider ?? "idp-service",
      logLevel: "error",
      // The guard enforces the per-request deadline and waits out a throttling gateway (up to the
      // run's time limit): Pact's own timeout is only a backstop, so it must outlast both.
      timeout: Math.max(run.timeoutMs + 5_000, Math.round(run.deadline - performance.now())),
      providerStatesSetupUrl: guard.statesUrl,
      providerStatesSetupTeardown: true,
      providerStatesSetupBody: true,
      followRedirects: false,
      // --insecure reaches Pact's own requests (the broker, pact URLs); its CA goes by SSL_CERT_FILE.
      ...(run.client.options.transport?.tls.insecure ? { disableSslVerification: true } : {}),
      ...(run.broker
        ? brokerOptions(run.broker)
        : { pactUrls, ...(run.pactUrlAuth ? brokerLogin(run.pactUrlAuth) : {}) }),
      ...(run.publish
        ? {
            publishVerificationResult: true,
            providerVersion: run.publish.providerVersion,
            ...(run.publish.providerBranch
              ? { providerVersionBranch: run.publish.providerBranch }
              : {}),
          }
        : {}),
    };
    // Throttled requests are waited out until the run's time limit: that limit bounds Pact too.
    const budget = run.deadline - performance.now();
    const outcome = await runPactWorker(
      { options },
      Math.max(1_000, budget),
      run.client.options.transport?.proxy,
      pactTlsEnv(run.client.options.transport?.tls, dir),
    );
    const scrub = (s: string) => run.secrets.scrub(s);
    const parsed =
      outcome.results === undefined ? undefined : parseFfiResults(outcome.results, scrub);
    const durationMs = Math.round(performance.now() - started);
    if (!parsed)
      return {
        error: pactError(
          PACT_PREFIX,
          `Pact's verifier could not run: ${scrub((outcome.error ?? "no results").split("\n")[0] ?? "")}`,
          durationMs,
        ),
      };
    if (parsed.loadError)
      return {
        error: pactError(
          PACT_PREFIX,
          `Pact's verifier could not load the pacts: ${parsed.loadError}${loadErrorHint(parsed.loadError, run.broker?.auth ?? run.pactUrlAuth)}`,
          durationMs,
        ),
      };
    const verdict = pactVerdictProblem(parsed);
    const suspect = await Promise.all(guard.groups.map((g) => g.suspect ?? false));
    return {
      wanted,
      outcomes: parsed.interactions,
      origins: pactOrigins(parsed.output, parsed.interactions.length),
      groups: guard.groups.map((g, i) => (suspect[i] ? { ...g, suspected: true } : g)),
      ...(verdict ? { verdict } : {}),
      log: outcome.log,
    };
  } finally {
    await guard.close();
  }
}

/** Pact's options for a broker login: a bearer token, or basic auth. */
function brokerLogin(auth: BrokerAuth): Partial<VerifierOptions> {
  return "token" in auth
    ? { pactBrokerToken: auth.token }
    : { pactBrokerUsername: auth.username, pactBrokerPassword: auth.password };
}

function brokerOptions(broker: BrokerSource): Partial<VerifierOptions> {
  return {
    pactBrokerUrl: broker.url,
    ...(broker.auth ? brokerLogin(broker.auth) : {}),
    consumerVersionSelectors: [...broker.consumerVersionSelectors] as NonNullable<
      VerifierOptions["consumerVersionSelectors"]
    >,
    enablePending: broker.enablePending,
    ...(broker.includeWipPactsSince ? { includeWipPactsSince: broker.includeWipPactsSince } : {}),
    ...(broker.providerBranch ? { providerVersionBranch: broker.providerBranch } : {}),
  };
}

function pactSources(
  dir: string,
  files: readonly PactFile[],
  wanted: readonly PactInteraction[],
): string[] {
  const keep = new Set(wanted);
  const paths: string[] = [];
  files.forEach((file, k) => {
    const interactions = file.interactions.filter((i) => keep.has(i));
    if (interactions.length === 0) return;
    if (file.source.kind === "url" && interactions.length === file.interactions.length) {
      paths.push(file.source.url);
      return;
    }
    const path = join(dir, `${k}.json`);
    writeFileSync(
      path,
      JSON.stringify({ ...file.document, interactions: interactions.map((i) => i.raw) }),
    );
    paths.push(path);
  });
  return paths;
}

const pactError = (id: string, reason: string, durationMs: number): CheckResult => ({
  id,
  kind: "pact",
  title: "pact verification",
  source: PACT_SOURCE,
  status: "error",
  reason,
  runs: { done: 0, asked: 1 },
  requests: 0,
  durationMs,
  warnings: [],
});

const MISMATCH_ORDER = ["status", "header", "body"];
const rank = (m: PactMismatch) => {
  const i = MISMATCH_ORDER.indexOf(m.type);
  return i < 0 ? MISMATCH_ORDER.length : i;
};

/** Status first, then headers, then the body: the order a reader checks an answer in. */
function mismatchSummary(mismatches: readonly PactMismatch[]): string {
  return [...mismatches]
    .sort((a, b) => rank(a) - rank(b))
    .map((m) => {
      if (m.type === "status") return `status: expected ${m.expected}, got ${m.actual}`;
      const where = m.path ? ` ${m.path}` : "";
      // Pact's own sentence names the provider's value first ("Expected <actual> to be equal to
      // <expected>"): the toolkit's wording, expected then got, whenever both values are known.
      if (m.expected !== undefined && m.actual !== undefined)
        return `${m.type}${where}: expected ${m.expected}, got ${m.actual}`;
      return `${m.type}${where}: ${m.message}`;
    })
    .join("; ");
}

/**
 * Pact verifies interactions one after another, each between a state setup and teardown sent to
 * the guard (the empty state for stateless ones): the i-th group of exchanges is the i-th result.
 */
function toResults(
  outcomes: readonly InteractionOutcome[],
  origins: readonly PactOrigin[] | undefined,
  groups: readonly (GuardGroup | undefined)[],
  run: PactRun,
): CheckResult[] {
  // Several pacts (consumers, or versions of one consumer): each id names its pact, so one
  // description from two consumer versions makes two checks.
  const several = severalOrigins(origins);
  const consumers = new Set(outcomes.map((o) => o.consumer ?? ""));
  const seen = new Map<string, number>();
  return outcomes.map((o, i): CheckResult => {
    const group = groups[i];
    const origin = origins?.[i];
    const qualifier = several ? origin?.label : consumers.size > 1 ? o.consumer : undefined;
    let id = pactCheckId(o.description, qualifier);
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    if (n > 1) id = `${id}#${n}`;
    const exchange = group?.answer?.exchange();
    const stateSetup = group?.states.find((s) => s.failure === undefined && s.name);
    const base = {
      id,
      kind: "pact" as const,
      title: several && origin ? `${o.description} (${origin.text})` : o.description,
      source: PACT_SOURCE,
      runs: { done: 1, asked: 1 },
      requests: group?.answer ? 1 : 0,
      durationMs: group
        ? Math.round(Math.max(group.endedAt, group.startedAt) - group.startedAt)
        : (o.durationMs ?? 0),
      warnings: [] as CheckResult["warnings"],
      ...(o.consumer
        ? {
            consumer: {
              name: o.consumer,
              ...(origin?.versions.length ? { version: origin.versions.join(", ") } : {}),
              ...(origin?.branches.length ? { branch: origin.branches.join(", ") } : {}),
              pending: o.pending,
            },
          }
        : {}),
    };
    if (group?.throttled)
      return {
        ...base,
        runs: { done: 0, asked: 1 },
        status: "incomplete" as const,
        reason: group.throttled,
      };
    if (group?.suspected)
      return {
        ...base,
        status: "error" as const,
        reason:
          "not judged: bytes nobody asked for followed its answer on a connection kept alive, so the answer may be another request's (conformance.md §9; R6 reports them)",
      };
    const stateFailure = group?.states.find((s) => s.failure !== undefined);
    if (stateFailure)
      return {
        ...base,
        status: "error" as const,
        reason: `provider state setup failed: ${stateFailure.failure}`,
      };
    const failure =
      group?.withheld ??
      o.error ??
      (o.ok ? undefined : mismatchSummary(o.mismatches) || "mismatch");
    if (failure === undefined) return { ...base, status: "passed" as const };
    if (o.pending)
      return {
        ...base,
        status: "passed" as const,
        warnings: [{ message: `pending pact failed (not counted): ${failure}`, count: 1 }],
      };
    return {
      ...base,
      status: "failed" as const,
      failure: {
        message: `pact: ${failure}`,
        kind: group?.withheld ? "no-answer" : "pact-mismatch",
        source: PACT_SOURCE,
        mismatches: o.mismatches,
        ...(exchange ? { exchange, curl: curlCommand(exchange) } : {}),
        ...(stateSetup && run.states
          ? { setup: run.states.setupCommand(stateSetup.name, stateSetup.params) }
          : {}),
      },
    };
  });
}

/** pact-core names only the status of a refused request: say what to change. */
function loadErrorHint(why: string, auth: BrokerAuth | undefined): string {
  const status = /\b(40[013])\b/.exec(why)?.[1];
  return status ? brokerRefusalHint(Number(status), auth) : "";
}
