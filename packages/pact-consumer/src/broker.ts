import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BrokerApi } from "./broker-api.ts";
import {
  type BrokerSettings,
  brokerEnv,
  brokerRefusal,
  readBrokerSettings,
} from "./broker-settings.ts";
import { type ConsumerVersion, consumerVersionOf } from "./consumer-version.ts";
import {
  consumerGiven,
  requiredEnvironment,
  requireEnvironment,
  requireSubject,
  type SubjectOptions,
  subjectOf,
} from "./deploy-subject.ts";
import { PactsCliError } from "./errors.ts";
import { PACTS_DIR } from "./pact-names.ts";

// Publish and record-deployment/record-release go through the official broker CLI (`pact-broker`
// from @pact-foundation/pact-cli); this module builds its arguments and turns the broker's refusals
// into one clear line. Credentials reach the CLI through its own environment variables, never
// through argv or output. (can-i-deploy and doctor read the broker's API: deploy-check.ts.)

type Env = Readonly<Record<string, string | undefined>>;

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

/** The `pact-broker` bin script of `@pact-foundation/pact-cli`, found through the package. */
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

/** What a `pact-broker` command did: its exit status and output as the CLI printed them (no redaction). */
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
  const said = (status: number, words: string) =>
    new RegExp(`\\b${status} ${words}\\b`).test(text)
      ? brokerRefusal(status, settings, writes)
      : undefined;
  return said(401, "Unauthorized") ?? said(400, "Bad Request") ?? said(403, "Forbidden");
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

/** Options of `publishPacts`: the pacts folder and the version. */
export interface PublishOptions
  extends CommandOptions,
    Pick<SubjectOptions, "settings" | "consumer"> {
  readonly pactsDir?: string;
}

/** `idp-pacts publish`: every pact file of the folder, as the git commit on the git branch. */
export async function publishPacts(options: PublishOptions): Promise<RunResult> {
  const settings = options.settings ?? readBrokerSettings(options.env);
  const pactsDir = options.pactsDir ?? PACTS_DIR;
  const files = listPactFiles(pactsDir);
  const { version, branch } = consumerVersionOf(consumerGiven(options));
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

/** Options of `recordDeployment` and `recordRelease`: who, which version, where. */
export interface RecordOptions extends CommandOptions, SubjectOptions {
  readonly environment: string | undefined;
}

/** `idp-pacts record-deployment --environment ENV`: this version of the pacticipant is now live there. */
export function recordDeployment(options: RecordOptions): Promise<RunResult> {
  return record("deployment", options);
}

/** `idp-pacts record-release --environment ENV`: this version was released there (several stay supported). */
export function recordRelease(options: RecordOptions): Promise<RunResult> {
  return record("release", options);
}

async function record(kind: "deployment" | "release", options: RecordOptions): Promise<RunResult> {
  const environment = requiredEnvironment("--environment", options.environment);
  const settings = options.settings ?? readBrokerSettings(options.env);
  const { pacticipant, version } = subjectOf(options);
  const api = new BrokerApi(settings);
  await requireEnvironment(api, environment);
  await requireSubject(api, { pacticipant, version });
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
