// idp-pacts: publish the recorded pacts and record deployments and releases (through the official
// pact-broker CLI), can-i-deploy and doctor (the broker's API, with reasons), and check-contracts
// (offline triangulation). conformance.md §5.
// Exit codes: 0 success; 1 a "no" (can-i-deploy, doctor) or content the broker refused (409); 2
// usage, settings, credentials the broker refuses, or a pacticipant, version or environment the
// broker does not know (one line).
import { didYouMean } from "@idp/contracts";
import { CliError, type FlagTable, readFlags } from "@idp/contracts/cli";
import { PactsCliError } from "./errors.ts";
import { VERSION } from "./version.ts";

/** ` (did you mean X?)`, or "" when nothing is close. */
const hint = (word: string, known: readonly string[]): string => {
  const match = didYouMean(word, known);
  return match ? ` (did you mean ${match}?)` : "";
};

const COMMANDS = [
  "publish",
  "can-i-deploy",
  "doctor",
  "record-deployment",
  "record-release",
  "check-contracts",
] as const;
type Command = (typeof COMMANDS)[number];

const WHO = {
  pacticipant: {
    type: "string",
    value: "NAME",
    description: "the pacticipant (default: the consumer the pact files name)",
  },
  version: { type: "string", value: "V", description: "its version (default: the git commit)" },
  "pacts-dir": {
    type: "string",
    value: "DIR",
    description: "the pact files that name the default pacticipant",
  },
} as const;

/** can-i-deploy's waiting for a verification still to come (pact-broker's names for it). */
const RETRY = {
  "retry-while-unknown": {
    type: "string",
    value: "N",
    description: "ask again up to N times while only verifications are missing",
  },
  "retry-interval": { type: "string", value: "S", description: "seconds between those asks" },
} as const;

/** Each command's own flags (pact-broker's own flags go after `--`). */
const FLAGS = {
  publish: { "pacts-dir": { type: "string", value: "DIR", description: "the pacts to publish" } },
  "can-i-deploy": {
    "to-environment": { type: "string", value: "ENV", description: "the environment" },
    ...WHO,
    ...RETRY,
  },
  doctor: {
    "to-environment": {
      type: "string",
      value: "ENV",
      description: "the environment (default: every one the broker knows)",
    },
    ...WHO,
  },
  "record-deployment": {
    environment: { type: "string", value: "ENV", description: "the environment" },
    ...WHO,
  },
  "record-release": {
    environment: { type: "string", value: "ENV", description: "the environment" },
    ...WHO,
  },
  "check-contracts": {
    pacts: { type: "string", multiple: true, value: "PATH", description: "pact files or folders" },
    openapi: { type: "string", value: "FILE", description: "an OpenAPI document" },
  },
} as const satisfies Record<Command, FlagTable>;

export const USAGE = `usage: idp-pacts <command> [flags] [-- <pact-broker flags>]

  publish [--pacts-dir DIR]                 every pact of DIR (default: pacts/) as this commit, on
                                            this branch                  (pnpm pacts:publish)
  can-i-deploy --to-environment ENV         may this version go to ENV? each integration's answer,
      [--retry-while-unknown N]             a "no" with its reason and what to do
      [--retry-interval S]                                               (pnpm pacts:can-i-deploy)
  doctor [--to-environment ENV]             the same for every environment the broker knows (or
                                            ENV), and what is wrong in its bookkeeping
                                                                         (pnpm pacts:doctor)
  record-deployment --environment ENV       this version is now deployed to ENV
                                                                         (pnpm pacts:record-deployment)
  record-release --environment ENV          this version is released to ENV
                                                                         (pnpm pacts:record-release)
      [--pacticipant NAME] [--version V]    for the four above; default: the consumer the pact files
      [--pacts-dir DIR]                     of DIR (default: pacts/) name, and its version (another
                                            pacticipant needs --version)
  check-contracts [--pacts PATH ...] [--openapi FILE]
                                            offline: pacts vs @idp/contracts (zod), the OpenAPI export
                                            round trip, pacts vs OpenAPI; default pacts: the repo's
                                            pacts/ (installed: ./pacts); default OpenAPI: generated
  --help                                    this text (also after a command)
  --version                                 idp-pacts' version

environment:
  PACT_BROKER_BASE_URL                      the Pact Broker
  PACT_BROKER_USERNAME + PACT_BROKER_PASSWORD   basic auth (the open-source Pact Broker), or
  PACT_BROKER_TOKEN                         a bearer token (PactFlow); a broker without auth needs neither
  PACT_CONSUMER_VERSION                     default: the git commit
  PACT_CONSUMER_BRANCH                      default: the git branch (publish only; needed on a detached HEAD)

reasons of a "no" (can-i-deploy, doctor): pending-verification, never-verified, no-pacts,
      verification-failed, not-deployed

exit: 0 success; 1 can-i-deploy or doctor said no, or the broker refused the content (e.g. changed
      pact under a published version); 2 bad arguments or settings, credentials the broker refuses,
      a pacticipant, version or environment the broker does not know (one line on stderr).
      check-contracts: 1 a check failed.
An environment is created once per broker: pact-broker create-environment --name production --production`;

/** Where idp-pacts writes (the pact-broker CLI it runs for publish and record-* writes to the process's own). */
export interface PactsIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const PROCESS_IO: PactsIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: PactsIo = PROCESS_IO,
): Promise<number> {
  const separator = argv.indexOf("--");
  const own = separator === -1 ? [...argv] : argv.slice(0, separator);
  const extraArgs = separator === -1 ? [] : argv.slice(separator + 1);
  const [word, ...rest] = own;
  // Alone, --version is idp-pacts' own; after a command it is the pacticipant version (a flag).
  if (word === "--version" && rest.length === 0) {
    io.stdout(`idp-pacts ${VERSION}\n`);
    return 0;
  }
  if (word === undefined || word === "--help" || word === "-h" || word === "help") {
    if (word === undefined)
      throw new PactsCliError("E_CONFIG", `missing command: one of ${COMMANDS.join(", ")}`);
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (!(COMMANDS as readonly string[]).includes(word))
    throw new PactsCliError(
      "E_CONFIG",
      `unknown command "${word}"${hint(word, COMMANDS)}: expected one of ${COMMANDS.join(", ")} (idp-pacts --help)`,
    );
  const command = word as Command;
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }

  if (command === "check-contracts") {
    // No child CLI to pass flags to: arguments after a `--` (as `pnpm contracts:check -- ...`
    // may forward them) are this command's own.
    const values = parse(command, [...rest, ...extraArgs]);
    const { triangulate, renderTriangulation } = await import("./triangulate.ts");
    const pacts = values.pacts as string[] | undefined;
    const openapi = values.openapi as string | undefined;
    const report = await triangulate({
      ...(pacts ? { pacts } : {}),
      ...(openapi !== undefined ? { openapi } : {}),
    });
    io.stdout(renderTriangulation(report));
    return report.ok ? 0 : 1;
  }

  const values = parse(command, rest);
  const text = (name: string) => {
    const v = values[name];
    return typeof v === "string" ? v : undefined;
  };
  const broker = await import("./broker.ts");
  const log = (line: string) => io.stderr(`${line}\n`);
  // The pact-broker CLI's output goes straight to this process's, or, for another io, through it.
  const live = io === PROCESS_IO;
  const relay = (result: { exitCode: number; stdout: string; stderr: string }) => {
    if (!live) {
      io.stdout(result.stdout);
      io.stderr(result.stderr);
    }
    return result.exitCode;
  };
  const who = {
    env,
    extraArgs,
    log,
    stdio: live ? ("inherit" as const) : ("pipe" as const),
    pacticipant: text("pacticipant"),
    version: text("version"),
    pactsDir: text("pacts-dir"),
  };
  switch (command) {
    case "publish": {
      const pactsDir = text("pacts-dir");
      return relay(
        await broker.publishPacts({
          env,
          extraArgs,
          log,
          stdio: who.stdio,
          ...(pactsDir ? { pactsDir } : {}),
        }),
      );
    }
    case "can-i-deploy": {
      const { canIDeploy } = await import("./deploy-check.ts");
      const retry = retryOptions(values, extraArgs);
      return (
        await canIDeploy({
          ...who,
          ...retry,
          out: io.stdout,
          environment: text("to-environment"),
        })
      ).exitCode;
    }
    case "doctor": {
      if (extraArgs.length > 0)
        throw new PactsCliError(
          "E_CONFIG",
          `doctor reads the broker's API itself and takes no pact-broker flags (received ${extraArgs.join(" ")} after --)`,
        );
      const { doctor } = await import("./deploy-check.ts");
      return (await doctor({ ...who, out: io.stdout, environment: text("to-environment") }))
        .exitCode;
    }
    case "record-deployment":
      return relay(await broker.recordDeployment({ ...who, environment: text("environment") }));
    case "record-release":
      return relay(await broker.recordRelease({ ...who, environment: text("environment") }));
  }
}

/**
 * --retry-while-unknown N and --retry-interval S, as can-i-deploy's own flags or (as recipes wrote
 * them for pact-broker) after `--`; nothing else goes after `--` now that the API is read directly.
 */
function retryOptions(
  values: Record<string, string | string[] | undefined>,
  extraArgs: readonly string[],
): { retryWhileUnknown?: number; retryIntervalSeconds?: number } {
  const given: Record<string, string | undefined> = {
    "retry-while-unknown": values["retry-while-unknown"] as string | undefined,
    "retry-interval": values["retry-interval"] as string | undefined,
  };
  for (let i = 0; i < extraArgs.length; i++) {
    const arg = extraArgs[i] as string;
    const [flag, inline] = arg.split("=", 2) as [string, string | undefined];
    const name = flag.replace(/^--/, "");
    if (!(name in given) || !flag.startsWith("--"))
      throw new PactsCliError(
        "E_CONFIG",
        `can-i-deploy reads the broker's API itself: after -- it takes only --retry-while-unknown N and --retry-interval S (received ${arg})`,
      );
    given[name] = inline ?? extraArgs[++i];
  }
  const count = (name: string, min: number) => {
    const raw = given[name];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || n < min)
      throw new PactsCliError(
        "E_CONFIG",
        `--${name} must be a whole number of at least ${min} (received ${JSON.stringify(raw)})`,
      );
    return n;
  };
  const retryWhileUnknown = count("retry-while-unknown", 0);
  const retryIntervalSeconds = count("retry-interval", 0);
  return {
    ...(retryWhileUnknown !== undefined ? { retryWhileUnknown } : {}),
    ...(retryIntervalSeconds !== undefined ? { retryIntervalSeconds } : {}),
  };
}

/** The command's flags, through the toolkit's shared parser; an unknown one names the closest. */
function parse(command: Command, args: string[]): Record<string, string | string[] | undefined> {
  const table = FLAGS[command];
  const known = Object.keys(table).map((k) => `--${k}`);
  try {
    return readFlags(
      table,
      args,
      {},
      {
        positionalHint: `${command} takes only ${known.join(", ")} (pact-broker's own flags go after --)`,
      },
    ).values as Record<string, string | string[] | undefined>;
  } catch (cause) {
    if (!(cause instanceof CliError)) throw cause;
    const message = cause.message.startsWith("unknown option")
      ? `${cause.message} for ${command}; ${command} takes ${known.join(", ")} (pact-broker's own flags go after --)`
      : cause.message;
    throw new PactsCliError("E_CONFIG", message, { cause });
  }
}

/** The one place that maps errors to exit codes: settings/usage → 2, anything else → 1. */
export async function run(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: PactsIo = PROCESS_IO,
): Promise<number> {
  try {
    return await main(argv, env, io);
  } catch (error) {
    if (error instanceof PactsCliError) {
      io.stderr(`idp-pacts: ${error.message}\n`);
      return 2;
    }
    io.stderr(
      `idp-pacts: unexpected failure, please report it: ${(error as Error)?.stack ?? String(error)}\n`,
    );
    return 1;
  }
}
