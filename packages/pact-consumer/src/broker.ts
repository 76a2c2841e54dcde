import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PactsCliError } from "./errors.ts";
import { PACT_CONSUMER, PACTS_DIR } from "./pact-names.ts";

// Publishing and can-i-deploy go through the official broker CLI (`pact-broker` from
// @pact-foundation/pact-cli); this module only gathers settings and builds its arguments.
// Credentials reach the CLI through its own environment variables, never through argv or output.

type Env = Readonly<Record<string, string | undefined>>;

export interface BrokerSettings {
  readonly baseUrl: string;
  /** Which credential the CLI will read from the environment. */
  readonly auth: "token" | "basic";
}

export interface ConsumerVersion {
  readonly version: string;
  readonly branch: string;
}

const nonEmpty = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== "";

/** Reads PACT_BROKER_BASE_URL and PACT_BROKER_TOKEN or PACT_BROKER_USERNAME/PASSWORD. */
export function readBrokerSettings(env: Env): BrokerSettings {
  const baseUrl = env.PACT_BROKER_BASE_URL;
  if (!nonEmpty(baseUrl)) {
    throw new PactsCliError(
      "E_CONFIG",
      "PACT_BROKER_BASE_URL is not set (the Pact Broker's address, e.g. https://pact-broker.example.com)",
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (cause) {
    throw new PactsCliError("E_CONFIG", "PACT_BROKER_BASE_URL is not an absolute http(s) URL", {
      cause,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new PactsCliError("E_CONFIG", "PACT_BROKER_BASE_URL is not an absolute http(s) URL");
  }
  if (url.username !== "" || url.password !== "") {
    throw new PactsCliError(
      "E_CONFIG",
      "PACT_BROKER_BASE_URL must not contain credentials; use PACT_BROKER_TOKEN or PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD",
    );
  }
  const token = nonEmpty(env.PACT_BROKER_TOKEN);
  const user = nonEmpty(env.PACT_BROKER_USERNAME);
  const password = nonEmpty(env.PACT_BROKER_PASSWORD);
  if (token && (user || password)) {
    throw new PactsCliError(
      "E_CONFIG",
      "set either PACT_BROKER_TOKEN or PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD, not both",
    );
  }
  if (token) return { baseUrl, auth: "token" };
  if (user && password) return { baseUrl, auth: "basic" };
  if (user || password) {
    throw new PactsCliError(
      "E_CONFIG",
      `PACT_BROKER_${user ? "PASSWORD" : "USERNAME"} is not set (basic auth needs both PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD)`,
    );
  }
  throw new PactsCliError(
    "E_CONFIG",
    "no Pact Broker credentials: set PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD",
  );
}

/** The repository root (the folder above pacts/). */
export const REPO_ROOT = dirname(PACTS_DIR.replace(/[/\\]$/, ""));

/**
 * Consumer version = the git commit (PACT_CONSUMER_VERSION overrides); branch = the git branch
 * (PACT_CONSUMER_BRANCH overrides).
 */
export function readConsumerVersion(env: Env, cwd: string = REPO_ROOT): ConsumerVersion {
  const version = nonEmpty(env.PACT_CONSUMER_VERSION)
    ? env.PACT_CONSUMER_VERSION.trim()
    : git(["rev-parse", "HEAD"], cwd, "PACT_CONSUMER_VERSION");
  const branch = nonEmpty(env.PACT_CONSUMER_BRANCH)
    ? env.PACT_CONSUMER_BRANCH.trim()
    : git(["rev-parse", "--abbrev-ref", "HEAD"], cwd, "PACT_CONSUMER_BRANCH");
  if (branch === "HEAD") {
    throw new PactsCliError(
      "E_GIT",
      "git HEAD is detached, so there is no branch name: set PACT_CONSUMER_BRANCH (in CI, e.g. the branch the build is for)",
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
    throw new PactsCliError("E_CONFIG", `pact folder ${dir} does not exist`);
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
  /** Where the CLI's stdout/stderr go; defaults to this process's. */
  readonly stdio?: "inherit" | "pipe";
}

export interface RunResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `pact-broker <args>` with the given environment (which carries the credentials). */
export function runPactBroker(args: readonly string[], options: RunOptions): Promise<RunResult> {
  const bin = pactBrokerBin();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...options.env } as NodeJS.ProcessEnv,
      stdio: options.stdio === "pipe" ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", (cause) =>
      reject(new PactsCliError("E_BROKER_CLI", `could not start pact-broker (${bin})`, { cause })),
    );
    child.on("close", (code, signal) =>
      resolve({ exitCode: code ?? (signal ? 1 : 0), stdout, stderr }),
    );
  });
}

export interface PublishOptions extends RunOptions {
  readonly pactsDir?: string;
  readonly extraArgs?: readonly string[];
  /** Progress lines (never credentials); defaults to stderr. */
  readonly log?: (line: string) => void;
}

/** `idp-pacts publish`: every pact file of the folder, as the git commit on the git branch. */
export async function publishPacts(options: PublishOptions): Promise<RunResult> {
  const settings = readBrokerSettings(options.env);
  const pactsDir = options.pactsDir ?? PACTS_DIR;
  const files = listPactFiles(pactsDir);
  const { version, branch } = readConsumerVersion(options.env);
  (options.log ?? logToStderr)(
    `idp-pacts: publishing ${files.length} pact file(s) from ${pactsDir} as version ${version} (branch ${branch}) to ${settings.baseUrl} (${settings.auth} auth)`,
  );
  const plan: PublishPlan = {
    pactsDir,
    version,
    branch,
    baseUrl: settings.baseUrl,
    ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}),
  };
  return runPactBroker(publishArgs(plan), options);
}

export interface CanIDeployOptions extends RunOptions {
  readonly environment: string | undefined;
  readonly extraArgs?: readonly string[];
  readonly log?: (line: string) => void;
}

/** `idp-pacts can-i-deploy --to-environment ENV` for this commit of the consumer. */
export async function canIDeploy(options: CanIDeployOptions): Promise<RunResult> {
  if (!nonEmpty(options.environment)) {
    throw new PactsCliError(
      "E_CONFIG",
      "can-i-deploy needs --to-environment ENV (e.g. production)",
    );
  }
  const settings = readBrokerSettings(options.env);
  const { version } = readConsumerVersion(options.env);
  (options.log ?? logToStderr)(
    `idp-pacts: can ${PACT_CONSUMER} version ${version} be deployed to ${options.environment}? asking ${settings.baseUrl}`,
  );
  return runPactBroker(
    canIDeployArgs({
      version,
      environment: options.environment,
      baseUrl: settings.baseUrl,
      ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}),
    }),
    options,
  );
}

function logToStderr(line: string): void {
  process.stderr.write(`${line}\n`);
}
