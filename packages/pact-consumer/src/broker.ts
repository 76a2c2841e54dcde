import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { CliError } from "@idp/contracts/cli";
import {
  BROKER_ENV_NAMES,
  type BrokerLogin,
  type BrokerTarget,
  brokerEnv,
  brokerTarget,
} from "./broker-settings.ts";
import { PactsCliError } from "./errors.ts";
import { PACT_CONSUMER, PACTS_DIR } from "./pact-names.ts";

// Publish, can-i-deploy and record-deployment/record-release go through the official broker CLI
// (`pact-broker` from @pact-foundation/pact-cli); this module gathers settings, builds its
// arguments and turns the broker's refusals into one clear line. Credentials reach the CLI through
// its own environment variables, never through argv or output.

type Env = Readonly<Record<string, string | undefined>>;

/** Where the Pact Broker is and how to log in (from the environment: `readBrokerSettings`). */
export interface BrokerSettings {
  readonly baseUrl: string;
  /** Which credential the CLI will be given; `none` for a broker without auth. */
  readonly auth: "token" | "basic" | "none";
  readonly login?: BrokerLogin;
}

/** The version and branch a pact is published as (git's, or PACT_CONSUMER_VERSION / PACT_CONSUMER_BRANCH). */
export interface ConsumerVersion {
  readonly version: string;
  readonly branch: string;
}

const nonEmpty = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== "";

/**
 * Reads PACT_BROKER_BASE_URL and PACT_BROKER_TOKEN or PACT_BROKER_USERNAME/PASSWORD (or the basic
 * login in the URL's user-info), as idp-verify reads them (`brokerTarget`); neither is fine (a
 * broker without authentication).
 */
export function readBrokerSettings(env: Env): BrokerSettings {
  if (!nonEmpty(env.PACT_BROKER_BASE_URL))
    throw new PactsCliError(
      "E_CONFIG",
      "PACT_BROKER_BASE_URL is not set (the Pact Broker's address, e.g. https://pact-broker.example.com)",
    );
  let target: BrokerTarget | undefined;
  try {
    target = brokerTarget({
      url: env.PACT_BROKER_BASE_URL,
      token: env.PACT_BROKER_TOKEN,
      username: env.PACT_BROKER_USERNAME,
      password: env.PACT_BROKER_PASSWORD,
      names: BROKER_ENV_NAMES,
    });
  } catch (cause) {
    if (cause instanceof CliError) throw new PactsCliError("E_CONFIG", cause.message, { cause });
    throw cause;
  }
  const login = (target as BrokerTarget).login;
  return {
    baseUrl: (target as BrokerTarget).url,
    auth: login === undefined ? "none" : "token" in login ? "token" : "basic",
    ...(login ? { login } : {}),
  };
}

/** The repository root (the folder above pacts/). */
export const REPO_ROOT = dirname(PACTS_DIR.replace(/[/\\]$/, ""));

/** The consumer version: PACT_CONSUMER_VERSION, else the git commit. Needs no branch. */
export function readConsumerVersionNumber(env: Env, cwd: string = REPO_ROOT): string {
  return nonEmpty(env.PACT_CONSUMER_VERSION)
    ? env.PACT_CONSUMER_VERSION.trim()
    : git(["rev-parse", "HEAD"], cwd, "PACT_CONSUMER_VERSION");
}

/**
 * Consumer version = the git commit (PACT_CONSUMER_VERSION overrides); branch = the git branch
 * (PACT_CONSUMER_BRANCH overrides). Only publishing needs the branch.
 */
export function readConsumerVersion(env: Env, cwd: string = REPO_ROOT): ConsumerVersion {
  const version = readConsumerVersionNumber(env, cwd);
  const branch = nonEmpty(env.PACT_CONSUMER_BRANCH)
    ? env.PACT_CONSUMER_BRANCH.trim()
    : git(["rev-parse", "--abbrev-ref", "HEAD"], cwd, "PACT_CONSUMER_BRANCH");
  if (branch === "HEAD") {
    throw new PactsCliError(
      "E_GIT",
      "git HEAD is detached, so there is no branch name to publish under: set PACT_CONSUMER_BRANCH (in CI, e.g. the branch the build is for)",
    );
  }
  return { version, branch };
}

function git(args: string[], cwd: string, override: string): string {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
      .toString()
      .trim();
  } catch (cause) {
    throw new PactsCliError(
      "E_GIT",
      `\`git ${args.join(" ")}\` failed in ${cwd}; set ${override}`,
      {
        cause,
      },
    );
  }
}

/** The pact files (`*.json`) of a folder; the CLI is given the folder (quoted globs fail). */
export function listPactFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new PactsCliError("E_CONFIG", `pact folder ${dir} does not exist (--pacts-dir)`);
  }
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort();
  if (files.length === 0) {
    throw new PactsCliError(
      "E_CONFIG",
      `no pact files (*.json) in ${dir}; record them with \`pnpm --filter @idp/pact-consumer test\``,
    );
  }
  return files.map((name) => join(dir, name));
}

export interface PublishPlan extends ConsumerVersion {
  readonly pactsDir: string;
  readonly baseUrl: string;
  readonly extraArgs?: readonly string[];
}

/** The `pact-broker publish` arguments of a plan (no secret among them). */
export function publishArgs(plan: PublishPlan): string[] {
  return [
    "publish",
    plan.pactsDir,
    "--consumer-app-version",
    plan.version,
    "--branch",
    plan.branch,
    "--broker-base-url",
    plan.baseUrl,
    ...(plan.extraArgs ?? []),
  ];
}

export interface CanIDeployPlan {
  readonly version: string;
  readonly environment: string;
  readonly baseUrl: string;
  readonly pacticipant?: string;
  readonly extraArgs?: readonly string[];
}

/** The `pact-broker can-i-deploy` arguments of a plan (no secret among them). */
export function canIDeployArgs(plan: CanIDeployPlan): string[] {
  return [
    "can-i-deploy",
    "--pacticipant",
    plan.pacticipant ?? PACT_CONSUMER,
    "--version",
    plan.version,
    "--to-environment",
    plan.environment,
    "--broker-base-url",
    plan.baseUrl,
    ...(plan.extraArgs ?? []),
  ];
}

export interface RecordPlan {
  readonly kind: "deployment" | "release";
  readonly pacticipant: string;
  readonly version: string;
  readonly environment: string;
  readonly baseUrl: string;
  readonly extraArgs?: readonly string[];
}

/** The `pact-broker record-deployment` / `record-release` arguments of a plan. */
export function recordArgs(plan: RecordPlan): string[] {
  return [
    `record-${plan.kind}`,
    "--pacticipant",
    plan.pacticipant,
    "--version",
    plan.version,
    "--environment",
    plan.environment,
    "--broker-base-url",
    plan.baseUrl,
    ...(plan.extraArgs ?? []),
  ];
}

/** The `pact-broker` bin script of @pact-foundation/pact-cli, found through the package. */
export function pactBrokerBin(): string {
  const require = createRequire(import.meta.url);
  try {
    return join(
      dirname(require.resolve("@pact-foundation/pact-cli/package.json")),
      "bin",
      "pact-broker.js",
    );
  } catch (cause) {
    throw new PactsCliError(
      "E_BROKER_CLI",
      "@pact-foundation/pact-cli is not installed (it provides the pact-broker CLI)",
      { cause },
    );
  }
}

export interface RunOptions {
  readonly env: Env;
  /** `inherit` (default): the CLI's output goes to this process's as it comes; `pipe`: only returned. */
  readonly stdio?: "inherit" | "pipe";
}

/** What a `pact-broker` command did: its exit status and output (secrets removed). */
export interface RunResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The CLI's environment: the caller's, without blank PACT_BROKER_* credentials (a CI secret that is
 * not set arrives as ""; the CLI would send an empty token).
 */
function cliEnv(env: Env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (/^PACT_BROKER_(TOKEN|USERNAME|PASSWORD)$/.test(key) && value.trim() === "") continue;
    out[key] = value;
  }
  return out;
}

/** Runs `pact-broker <args>` with the given environment (which carries the credentials). */
export function runPactBroker(args: readonly string[], options: RunOptions): Promise<RunResult> {
  const bin = pactBrokerBin();
  const live = options.stdio !== "pipe";
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: cliEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    // Kept for the refusal hints below, and shown as it comes (can-i-deploy may retry for minutes).
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (live) process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (live) process.stderr.write(chunk);
    });
    child.on("error", (cause) =>
      reject(new PactsCliError("E_BROKER_CLI", `could not start pact-broker (${bin})`, { cause })),
    );
    child.on("close", (code, signal) =>
      resolve({ exitCode: code ?? (signal ? 1 : 0), stdout, stderr }),
    );
  });
}

/**
 * A refusal by the broker that is a settings problem (exit 2), as one line saying what to change;
 * undefined for anything else (a "no" from can-i-deploy, a 409 on changed content, ...).
 */
export function refusalHint(
  result: RunResult,
  settings: BrokerSettings,
  writes: boolean,
): string | undefined {
  if (result.exitCode === 0) return undefined;
  const text = `${result.stdout}\n${result.stderr}`;
  if (/\b401 Unauthorized\b/.test(text)) {
    const who =
      settings.auth === "none"
        ? "no credentials were given: set PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD (or PACT_BROKER_TOKEN for PactFlow)"
        : settings.auth === "basic"
          ? `check PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD${writes ? "; a read-only user cannot publish or record (use the broker's read-write user)" : ""}`
          : "check PACT_BROKER_TOKEN";
    return `the Pact Broker at ${settings.baseUrl} refused the request (401 Unauthorized): ${who}`;
  }
  if (/\b400 Bad Request\b/.test(text) && settings.auth === "token")
    return `the Pact Broker at ${settings.baseUrl} refused the bearer token (400 Bad Request): the open-source Pact Broker takes basic auth only; set PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD instead of PACT_BROKER_TOKEN`;
  if (/\b403 Forbidden\b/.test(text))
    return `the Pact Broker at ${settings.baseUrl} refused the request (403 Forbidden): these credentials may not ${writes ? "write" : "read"} there`;
  return undefined;
}

export interface CommandOptions extends RunOptions {
  readonly extraArgs?: readonly string[];
  /** Progress lines (never credentials); defaults to stderr. */
  readonly log?: (line: string) => void;
}

/** Runs the CLI; a refusal that is a settings problem becomes a PactsCliError (exit 2). */
async function runChecked(
  args: readonly string[],
  options: CommandOptions,
  settings: BrokerSettings,
  writes: boolean,
): Promise<RunResult> {
  // The CLI reads the login from its own variables: the settings as read here (a login in the
  // URL's user-info included), the URL without it.
  const env: Env = {
    ...Object.fromEntries(
      Object.entries(options.env).filter(
        ([k]) => !/^PACT_BROKER_(BASE_URL|TOKEN|USERNAME|PASSWORD)$/.test(k),
      ),
    ),
    ...brokerEnv({ url: settings.baseUrl, ...(settings.login ? { login: settings.login } : {}) }),
  };
  const result = await runPactBroker(args, { ...options, env });
  const hint = refusalHint(result, settings, writes);
  if (hint) throw new PactsCliError("E_BROKER_REFUSED", hint);
  return result;
}

/**
 * The broker's environment names, through `pact-broker list-environments`; a fresh broker has none.
 * @throws PactsCliError E_ENVIRONMENT when `environment` is not among them, saying how to create it.
 */
export async function requireEnvironment(
  environment: string,
  settings: BrokerSettings,
  options: CommandOptions,
): Promise<void> {
  const result = await runChecked(
    ["list-environments", "--output", "json", "--broker-base-url", settings.baseUrl],
    { ...options, stdio: "pipe" },
    settings,
    false,
  );
  if (result.exitCode !== 0) {
    const why = `${result.stdout}${result.stderr}`.trim().split("\n")[0] ?? "";
    throw new PactsCliError(
      "E_BROKER_REFUSED",
      `could not list the environments of the Pact Broker at ${settings.baseUrl}: ${why.replace(/^❌\s*/, "")}`,
    );
  }
  let names: string[];
  try {
    const doc = JSON.parse(result.stdout) as {
      _embedded?: { environments?: { name?: unknown }[] };
    };
    names = (doc._embedded?.environments ?? []).flatMap((e) =>
      typeof e.name === "string" ? [e.name] : [],
    );
  } catch (cause) {
    throw new PactsCliError(
      "E_BROKER_REFUSED",
      `the Pact Broker at ${settings.baseUrl} did not list its environments as JSON`,
      { cause },
    );
  }
  if (!names.includes(environment))
    throw new PactsCliError(
      "E_ENVIRONMENT",
      `environment "${environment}" does not exist on the Pact Broker at ${settings.baseUrl} (${names.length > 0 ? `it has: ${names.join(", ")}` : "it has none"}); create it once with: pact-broker create-environment --name ${environment}${/^prod/i.test(environment) ? " --production" : ""}`,
    );
}

/** Options of `publishPacts`: the pacts folder and the version. */
export interface PublishOptions extends CommandOptions {
  readonly pactsDir?: string;
}

/** `idp-pacts publish`: every pact file of the folder, as the git commit on the git branch. */
export async function publishPacts(options: PublishOptions): Promise<RunResult> {
  const settings = readBrokerSettings(options.env);
  const pactsDir = options.pactsDir ?? PACTS_DIR;
  const files = listPactFiles(pactsDir);
  const { version, branch } = readConsumerVersion(options.env);
  (options.log ?? logToStderr)(
    `idp-pacts: publishing ${files.length} pact file(s) from ${pactsDir} as version ${version} (branch ${branch}) to ${settings.baseUrl} (${authText(settings)})`,
  );
  const plan: PublishPlan = {
    pactsDir,
    version,
    branch,
    baseUrl: settings.baseUrl,
    ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}),
  };
  return runChecked(publishArgs(plan), options, settings, true);
}

export interface PacticipantOptions extends CommandOptions {
  readonly environment: string | undefined;
  /** Default: the consumer, idp-toolkit-consumer. */
  readonly pacticipant?: string | undefined;
  /** Default: the consumer's version (PACT_CONSUMER_VERSION or the git commit). */
  readonly version?: string | undefined;
}

/** Pacticipant and version: the consumer and its version unless told otherwise. */
function pacticipantVersion(
  options: PacticipantOptions,
  flag: string,
): { pacticipant: string; version: string; environment: string } {
  if (!nonEmpty(options.environment))
    throw new PactsCliError("E_CONFIG", `${flag} ENV is missing (e.g. ${flag} production)`);
  const pacticipant = nonEmpty(options.pacticipant) ? options.pacticipant.trim() : PACT_CONSUMER;
  if (pacticipant !== PACT_CONSUMER && !nonEmpty(options.version))
    throw new PactsCliError(
      "E_CONFIG",
      `--pacticipant ${pacticipant} needs --version V (the default version is ${PACT_CONSUMER}'s)`,
    );
  const version = nonEmpty(options.version)
    ? options.version.trim()
    : readConsumerVersionNumber(options.env);
  return { pacticipant, version, environment: options.environment.trim() };
}

/** Options of `canIDeploy`: the pacticipant and version (default: this consumer at its git commit). */
export type CanIDeployOptions = PacticipantOptions;

/** `idp-pacts can-i-deploy --to-environment ENV` for this commit of the consumer (or another pacticipant). */
export async function canIDeploy(options: CanIDeployOptions): Promise<RunResult> {
  const { pacticipant, version, environment } = pacticipantVersion(options, "--to-environment");
  const settings = readBrokerSettings(options.env);
  await requireEnvironment(environment, settings, options);
  (options.log ?? logToStderr)(
    `idp-pacts: can ${pacticipant} version ${version} be deployed to ${environment}? asking ${settings.baseUrl}`,
  );
  return runChecked(
    canIDeployArgs({
      pacticipant,
      version,
      environment,
      baseUrl: settings.baseUrl,
      ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}),
    }),
    options,
    settings,
    false,
  );
}

/** Options of `recordDeployment` and `recordRelease`: the pacticipant and version. */
export type RecordOptions = PacticipantOptions;

/** `idp-pacts record-deployment --environment ENV`: this version of the pacticipant is now live there. */
export function recordDeployment(options: RecordOptions): Promise<RunResult> {
  return record("deployment", options);
}

/** `idp-pacts record-release --environment ENV`: this version was released there (several stay supported). */
export function recordRelease(options: RecordOptions): Promise<RunResult> {
  return record("release", options);
}

async function record(kind: "deployment" | "release", options: RecordOptions): Promise<RunResult> {
  const { pacticipant, version, environment } = pacticipantVersion(options, "--environment");
  const settings = readBrokerSettings(options.env);
  await requireEnvironment(environment, settings, options);
  (options.log ?? logToStderr)(
    `idp-pacts: recording the ${kind} of ${pacticipant} version ${version} to ${environment} on ${settings.baseUrl}`,
  );
  return runChecked(
    recordArgs({
      kind,
      pacticipant,
      version,
      environment,
      baseUrl: settings.baseUrl,
      ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}),
    }),
    options,
    settings,
    true,
  );
}

const authText = (settings: BrokerSettings): string =>
  settings.auth === "none" ? "no auth" : `${settings.auth} auth`;

function logToStderr(line: string): void {
  process.stderr.write(`${line}\n`);
}
