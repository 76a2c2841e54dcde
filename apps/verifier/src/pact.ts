import { fork } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PACT_PLACEHOLDER_AUTHORIZATION } from "@idp/pact-consumer";
import type { VerifierOptions } from "@pact-foundation/pact";
import type { BrokerAuth, BrokerSource, Credentials, PublishOptions } from "./config.ts";
import { VerifyError } from "./errors.ts";
import { pactOrigins, severalOrigins } from "./pact-origins.ts";
import type { PactJob, PactJobResult } from "./pact-worker.ts";
import type { Redactor } from "./redact.ts";
import type { CheckResult } from "./results.ts";
import type { ProviderStates } from "./states.ts";

export interface PactStateUse {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface PactInteraction {
  readonly description: string;
  readonly file: string;
  readonly consumer: string;
  readonly providerStates: readonly PactStateUse[];
}

export interface PactFile {
  readonly path: string;
  readonly consumer: string;
  readonly provider: string;
  readonly interactions: readonly PactInteraction[];
}

/** Stable check id of a pact interaction. */
export const pactCheckId = (description: string): string => `pact.${description}`;

/** Pact files from files and folders (folders: every *.json inside, not recursive). */
export function loadPactFiles(paths: readonly string[]): PactFile[] {
  const files: string[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (e) {
      throw new VerifyError(
        "E_PACT_UNREADABLE",
        `cannot read pact path ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        { cause: e },
      );
    }
    if (isDir)
      files.push(
        ...readdirSync(path)
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => join(path, f)),
      );
    else files.push(path);
  }
  return files.map(readPactFile);
}

function readPactFile(path: string): PactFile {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new VerifyError(
      "E_PACT_UNREADABLE",
      `pact ${path} is not readable JSON: ${(e as Error).message.split("\n")[0]}`,
      { cause: e },
    );
  }
  const d = doc as {
    consumer?: { name?: unknown };
    provider?: { name?: unknown };
    interactions?: unknown;
  };
  if (
    typeof d !== "object" ||
    d === null ||
    typeof d.consumer?.name !== "string" ||
    typeof d.provider?.name !== "string" ||
    !Array.isArray(d.interactions)
  )
    throw new VerifyError(
      "E_PACT_UNREADABLE",
      `pact ${path} is not a pact file\nExpected: {consumer: {name}, provider: {name}, interactions: [...]}`,
    );
  const consumer = d.consumer.name;
  const interactions = (d.interactions as unknown[]).map((raw, i): PactInteraction => {
    const it = raw as { description?: unknown; providerStates?: unknown; providerState?: unknown };
    if (typeof it?.description !== "string")
      throw new VerifyError(
        "E_PACT_UNREADABLE",
        `pact ${path}: interaction ${i} has no description`,
      );
    const states: PactStateUse[] = Array.isArray(it.providerStates)
      ? (it.providerStates as { name?: unknown; params?: unknown }[])
          .filter((s) => typeof s?.name === "string")
          .map((s) => ({
            name: s.name as string,
            params: (typeof s.params === "object" && s.params !== null ? s.params : {}) as Record<
              string,
              unknown
            >,
          }))
      : typeof it.providerState === "string"
        ? [{ name: it.providerState, params: {} }]
        : [];
    return { description: it.description, file: path, consumer, providerStates: states };
  });
  return { path, consumer, provider: d.provider.name, interactions };
}

export interface PactRunOptions {
  /** The provider's /v1 address: pact paths are relative to it. */
  readonly providerUrl: string;
  readonly credentials: Credentials;
  readonly files: readonly PactFile[];
  /** Pacts by http(s) URL, and the credentials they are fetched with (the broker's, on its origin). */
  readonly pactUrls?: readonly string[];
  readonly pactUrlAuth?: BrokerAuth;
  readonly broker?: BrokerSource;
  readonly publish?: PublishOptions;
  readonly states?: ProviderStates;
  readonly timeoutMs: number;
  readonly redactor: Redactor;
  /** Ids selected by --checks (prefix match), or all. */
  readonly selected: (id: string) => boolean;
}

/** pact-js's options for a broker login: a bearer token, or basic auth. */
export function brokerAuthOptions(
  auth: BrokerAuth | undefined,
): Pick<VerifierOptions, "pactBrokerToken" | "pactBrokerUsername" | "pactBrokerPassword"> {
  if (!auth) return {};
  return "token" in auth
    ? { pactBrokerToken: auth.token }
    : { pactBrokerUsername: auth.username, pactBrokerPassword: auth.password };
}

/** What to change when a broker refused the login (pact-core names only the status). */
function brokerRefusalHint(why: string, auth: BrokerAuth | undefined): string {
  const basic = "--broker-username/--broker-password or PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD";
  if (/\b401 Unauthorized\b/.test(why))
    return auth
      ? " (the broker refused the login: check the broker credentials)"
      : ` (no broker credentials were given: ${basic}, or a token for PactFlow)`;
  if (/\b400 Bad Request\b/.test(why) && auth && "token" in auth)
    return ` (the open-source Pact Broker takes basic auth, not a token: ${basic})`;
  return "";
}

/** The Authorization value that replaces the pacts' placeholder. */
export function realAuthorization(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, "utf8").toString("base64")}`;
}

/** What pact-core's verifier reports (pactffi_verifier_json). */
interface FfiResults {
  result?: boolean;
  errors?: { interaction?: string; mismatch?: unknown }[];
  pendingErrors?: { interaction?: string; mismatch?: unknown }[];
  pending_errors?: { interaction?: string; mismatch?: unknown }[];
  /** One entry per interaction verified, passed or not (pact-core 1.x). */
  interactionResults?: {
    consumer?: string;
    description?: string;
    pending?: boolean;
    /** "OK", or "Error" with `mismatch` (pact-core 1.x). */
    result?: string;
    mismatch?: unknown;
    /** State names (pact-core 1.4); objects with a name tolerated. */
    providerStates?: (string | { name?: string })[];
  }[];
  output?: string[];
}

function parseResults(text: string): FfiResults | undefined {
  try {
    const r: unknown = JSON.parse(text);
    return typeof r === "object" && r !== null ? (r as FfiResults) : undefined;
  } catch {
    return undefined;
  }
}

function describeMismatch(m: unknown, scrub: (s: string) => string): string {
  const text = typeof m === "string" ? m : JSON.stringify(m);
  return scrub(text.length > 2000 ? `${text.slice(0, 2000)}...` : text);
}

/**
 * Verifies the pacts with Pact's own verifier. Every provider state the pacts use is probed for a
 * handler first; an interaction whose state has none fails with that reason.
 */
export async function verifyPacts(opts: PactRunOptions): Promise<CheckResult[]> {
  const started = performance.now();
  const urls = opts.pactUrls ?? [];
  const interactions = opts.files
    .flatMap((f) => f.interactions)
    .filter((i) => opts.selected(pactCheckId(i.description)));
  if (interactions.length === 0 && !opts.broker && urls.length === 0) return [];

  // A selection (--checks pact.<description>, --shard) reaches Pact's verifier as copies of the pact
  // files holding only the selected interactions: Pact itself verifies whole files.
  const subset = opts.broker ? undefined : selectedPactCopies(opts.files, interactions);
  try {
    return await runPacts(
      opts,
      interactions,
      [...(subset?.paths ?? opts.files.map((f) => f.path)), ...urls],
      started,
    );
  } finally {
    if (subset) rmSync(subset.dir, { recursive: true, force: true });
  }
}

/** Temporary copies of the files with only `wanted`, or undefined when every interaction is wanted. */
function selectedPactCopies(
  files: readonly PactFile[],
  wanted: readonly PactInteraction[],
): { dir: string; paths: string[] } | undefined {
  if (wanted.length === files.reduce((n, f) => n + f.interactions.length, 0)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "idp-verify-pacts-"));
  const paths: string[] = [];
  files.forEach((file, k) => {
    const keep = new Set(wanted.filter((i) => i.file === file.path).map((i) => i.description));
    if (keep.size === 0) return;
    const doc = JSON.parse(readFileSync(file.path, "utf8")) as { interactions: unknown[] };
    doc.interactions = doc.interactions.filter((i) =>
      keep.has((i as { description: string }).description),
    );
    const path = join(dir, `${k}-${basename(file.path)}`);
    writeFileSync(path, JSON.stringify(doc));
    paths.push(path);
  });
  return { dir, paths };
}

async function runPacts(
  opts: PactRunOptions,
  interactions: readonly PactInteraction[],
  pactUrls: readonly string[],
  started: number,
): Promise<CheckResult[]> {
  const stateUses = interactions.flatMap((i) => i.providerStates);
  const missing =
    opts.states && stateUses.length > 0
      ? await opts.states.probe(stateUses)
      : new Map<string, string>();
  const noStatesUrl = !opts.states && stateUses.length > 0;

  const options: PactJob["options"] = {
    providerBaseUrl: opts.providerUrl,
    provider: opts.files[0]?.provider ?? "idp-service",
    logLevel: "error",
    timeout: opts.timeoutMs,
    providerStatesSetupTeardown: true,
    providerStatesSetupBody: true,
    ...(opts.broker
      ? {
          pactBrokerUrl: opts.broker.url,
          ...brokerAuthOptions(opts.broker.auth),
          consumerVersionSelectors: [...opts.broker.consumerVersionSelectors] as NonNullable<
            VerifierOptions["consumerVersionSelectors"]
          >,
          enablePending: opts.broker.enablePending,
          ...(opts.broker.includeWipPactsSince
            ? { includeWipPactsSince: opts.broker.includeWipPactsSince }
            : {}),
          ...(opts.broker.providerBranch
            ? { providerVersionBranch: opts.broker.providerBranch }
            : {}),
        }
      : { pactUrls: [...pactUrls], ...brokerAuthOptions(opts.pactUrlAuth) }),
    ...(opts.publish
      ? {
          publishVerificationResult: true,
          providerVersion: opts.publish.providerVersion,
          ...(opts.publish.providerBranch
            ? { providerVersionBranch: opts.publish.providerBranch }
            : {}),
        }
      : {}),
  };
  const job: PactJob = {
    options,
    placeholderAuthorization: PACT_PLACEHOLDER_AUTHORIZATION,
    realAuthorization: realAuthorization(opts.credentials),
    ...(opts.states ? { statesUrl: opts.states.url } : {}),
    ...(opts.states?.authorization ? { statesAuthorization: opts.states.authorization } : {}),
    stateNames: [...new Set(stateUses.map((s) => s.name))],
    timeoutMs: opts.timeoutMs,
  };
  const deadlineMs =
    opts.broker || (opts.pactUrls ?? []).length > 0
      ? 600_000
      : 30_000 + interactions.length * 3 * (opts.timeoutMs + 1000);
  const outcome = await runWorker(job, deadlineMs);
  let results: FfiResults | undefined;
  let crash: string | undefined;
  if (outcome.results !== undefined) results = parseResults(outcome.results);
  if (!results) crash = opts.redactor.scrub((outcome.error ?? "no results").split("\n")[0] ?? "");
  const runFailures = new Map<string, string>();
  for (const f of outcome.stateFailures)
    if (f.action === "setup" && !runFailures.has(f.state)) runFailures.set(f.state, f.reason);
  const durationMs = Math.round(performance.now() - started);
  const failures = new Map<string, string>();
  const loadError = (results?.errors ?? []).find((e) => e.interaction === "Failed to load pact");
  if (loadError) {
    const m = loadError.mismatch as { message?: unknown } | undefined;
    const why = typeof m?.message === "string" ? m.message : describeMismatch(m, (x) => x);
    throw new VerifyError(
      "E_PACT_UNREADABLE",
      `Pact's verifier could not load the pacts: ${opts.redactor.scrub(why)}${brokerRefusalHint(why, opts.broker?.auth ?? opts.pactUrlAuth)}`,
    );
  }
  const known = new Set(interactions.map((i) => i.description));
  // pact-core names an interaction "Verifying a pact between C and P - <description>".
  const descriptionOf = (name: string) =>
    [...known].find((d) => name === d || name.endsWith(` - ${d}`)) ??
    name.replace(/^Verifying a pact between .+? and .+? - /, "");
  for (const err of results?.errors ?? [])
    if (err.interaction)
      failures.set(
        descriptionOf(err.interaction),
        describeMismatch(err.mismatch, (s) => opts.redactor.scrub(s)),
      );
  const pending = new Map<string, string>();
  for (const err of [...(results?.pendingErrors ?? []), ...(results?.pending_errors ?? [])])
    if (err.interaction)
      pending.set(
        descriptionOf(err.interaction),
        describeMismatch(err.mismatch, (s) => opts.redactor.scrub(s)),
      );

  // Several pacts (consumers, or versions of one consumer) in one run: each result keeps the name
  // of its pact, so one description from two consumer versions makes two checks (pact-origins.ts).
  const ffiResults = results?.interactionResults ?? [];
  const origins = pactOrigins(results?.output, ffiResults.length);
  const several = severalOrigins(origins);
  const keyOf = (description: string, k: number) =>
    several ? `${origins?.[k]?.label ?? ""}\u0000${description}` : description;
  if (several) {
    failures.clear();
    pending.clear();
    ffiResults.forEach((r, k) => {
      if (typeof r.description !== "string" || r.result === "OK" || r.mismatch === undefined)
        return;
      (r.pending ? pending : failures).set(
        keyOf(r.description, k),
        describeMismatch(r.mismatch, (x) => opts.redactor.scrub(x)),
      );
    });
  }
  const source = opts.broker?.url ?? (opts.pactUrls ?? []).join(", ");
  const statesOf = (r: { providerStates?: (string | { name?: string })[] }) =>
    (r.providerStates ?? []).flatMap((x) =>
      typeof x === "string" ? [x] : x?.name ? [x.name] : [],
    );
  const fromSeveral = ffiResults.flatMap((r, k) =>
    typeof r.description === "string"
      ? [
          {
            description: r.description,
            states: statesOf(r),
            file: `${origins?.[k]?.text ?? ""}${source ? `, ${source}` : ""}`,
            key: keyOf(r.description, k),
            id: pactCheckId(`${origins?.[k]?.label ?? ""}.${r.description}`),
          },
        ]
      : [],
  );

  // From a broker, interactions are known only through the verifier's results.
  const verified = (results?.interactionResults ?? []).flatMap((r) =>
    typeof r.description === "string"
      ? [
          {
            description: r.description,
            states: (r.providerStates ?? []).flatMap((s) =>
              typeof s === "string" ? [s] : s?.name ? [s.name] : [],
            ),
            file: `${source} (consumer ${r.consumer ?? "?"})`,
          },
        ]
      : [],
  );
  const brokerInteractions = [
    ...verified,
    ...[...failures.keys(), ...pending.keys()]
      .filter((d) => !verified.some((v) => v.description === d))
      .map((d) => ({ description: d, states: [] as string[], file: source })),
  ].filter(
    (v, i, list) =>
      !known.has(v.description) && list.findIndex((w) => w.description === v.description) === i,
  );
  const all = several
    ? fromSeveral
    : [
        ...interactions.map((i) => ({
          description: i.description,
          states: i.providerStates.map((s) => s.name),
          file: i.file,
        })),
        ...brokerInteractions,
      ].map((i) => ({ ...i, key: i.description, id: pactCheckId(i.description) }));
  const each = Math.round(durationMs / Math.max(all.length, 1));
  const out: CheckResult[] = all.map(({ description, states, file, key, id }) => {
    const base = {
      id,
      kind: "pact" as const,
      title: `${description} (${file})`,
      runs: 1,
      durationMs: each,
      warnings: [],
    };
    const stateProblem = states
      .map((s) => missing.get(s) ?? runFailures.get(s))
      .find((r) => r !== undefined);
    if (stateProblem)
      return {
        ...base,
        status: "failed" as const,
        failure: { message: `provider state setup failed: ${stateProblem}` },
      };
    if (noStatesUrl && states.length > 0)
      return {
        ...base,
        status: "skipped" as const,
        reason: `needs --provider-states-url for provider state "${states[0]}"`,
      };
    const failed = failures.get(key);
    if (failed)
      return {
        ...base,
        status: "failed" as const,
        failure: {
          // A broker's pacts cannot be skipped beforehand: Pact ran it without its state.
          message: `pact mismatch: ${failed}${!opts.states && states.length > 0 ? ` (provider state "${states[0]}" was not set up: no --provider-states-url)` : ""}`,
        },
      };
    const pend = pending.get(key);
    if (pend)
      return {
        ...base,
        status: "passed" as const,
        warnings: [{ message: `pending pact failed (not counted): ${pend}`, count: 1 }],
      };
    if (crash)
      return {
        ...base,
        status: "error" as const,
        reason: `Pact's verifier could not run: ${crash}`,
      };
    return { ...base, status: "passed" as const };
  });
  if (crash && out.length === 0)
    out.push({
      id: "pact",
      kind: "pact",
      title: "pact verification",
      status: "error",
      reason: `Pact's verifier could not run: ${crash}`,
      runs: 0,
      durationMs,
      warnings: [],
    });
  // Pact logs a failed publication and carries on; asked for, it is a result that could not be given.
  const publishError = opts.publish
    ? /Publishing of verification results failed[^\n]*/.exec(outcome.log ?? "")?.[0]
    : undefined;
  if (publishError)
    out.push({
      id: "pact.publish-verification-results",
      kind: "pact",
      title: `publish verification results to ${opts.broker?.url ?? "the broker"}`,
      status: "error",
      reason: opts.redactor.scrub(publishError),
      runs: 1,
      durationMs: 0,
      warnings: [],
    });
  return out;
}

/** The worker beside this module: pact-worker.mjs when built, pact-worker.ts from source. */
function workerPath(): string {
  for (const name of ["pact-worker.mjs", "pact-worker.ts"]) {
    const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new VerifyError(
    "E_PACT_VERIFIER",
    "the pact worker (pact-worker.mjs) is missing next to the verifier",
  );
}

/** Forks the worker, hands it the job over IPC, and ends it after `deadlineMs` at the latest. */
function runWorker(
  job: PactJob,
  deadlineMs: number,
): Promise<PactJobResult & { readonly log?: string }> {
  return new Promise((resolvePromise) => {
    const path = workerPath();
    const child = fork(path, [], {
      // From source (tests), Node strips the worker's types; never inherit the parent's flags.
      execArgv: path.endsWith(".ts") ? ["--experimental-strip-types"] : [],
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      // pact-core also reads PACT_BROKER_* and PACT_DESCRIPTION-style filters from the environment;
      // only our flags may choose the pacts, the token and whether results are published.
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([k]) => !/^PACT_(BROKER_|DESCRIPTION$|PROVIDER_STATE$|PROVIDER_NO_STATE$)/.test(k),
          ),
        ),
        NODE_NO_WARNINGS: "1",
        PACT_DO_NOT_TRACK: "true",
      },
    });
    let log = "";
    const keep = (chunk: Buffer) => {
      log = (log + chunk.toString("utf8")).slice(-65_536);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    let settled = false;
    const finish = (r: PactJobResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill("SIGKILL");
      resolvePromise({ ...r, log });
    };
    const timer = setTimeout(
      () =>
        finish({
          error: `Pact's verifier did not finish within ${Math.round(deadlineMs / 1000)} s`,
          stateFailures: [],
        }),
      deadlineMs,
    );
    // The worker exits right after its answer; waiting for its output to close keeps the log whole.
    let answer: PactJobResult | undefined;
    child.on("message", (m: PactJobResult) => {
      answer = m;
    });
    child.on("error", (e) =>
      finish({ error: `cannot start Pact's verifier: ${e.message}`, stateFailures: [] }),
    );
    child.on("close", (code, signal) => {
      if (answer) return finish(answer);
      const last =
        log
          .trim()
          .split("\n")
          .filter((l) => /error|panic/i.test(l))
          .slice(-1)[0] ?? "";
      finish({
        error: `Pact's verifier exited (${signal ?? `code ${code}`}) without results${last ? `: ${last}` : ""}`,
        stateFailures: [],
      });
    });
    child.send(job);
  });
}
