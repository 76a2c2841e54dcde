// idp-pacts: publish the recorded pacts, ask can-i-deploy, record deployments and releases, through
// the official pact-broker CLI; and check-contracts (offline triangulation). conformance.md §5.
// Exit codes: 0 success; 1 the broker said no (can-i-deploy) or refused the content (409); 2 usage,
// settings, credentials the broker refuses, or an environment that does not exist (one line).
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
  "record-deployment",
  "record-release",
  "check-contracts",
] as const;
type Command = (typeof COMMANDS)[number];

const WHO = {
  pacticipant: {
    type: "string",
    value: "NAME",
    description: "the pacticipant (default: this consumer)",
  },
  version: { type: "string", value: "V", description: "its version (default: the git commit)" },
} as const;

/** Each command's own flags (pact-broker's own flags go after `--`). */
const FLAGS = {
  publish: { "pacts-dir": { type: "string", value: "DIR", description: "the pacts to publish" } },
  "can-i-deploy": {
    "to-environment": { type: "string", value: "ENV", description: "the environment" },
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
  can-i-deploy --to-environment ENV         may this version go to ENV?  (pnpm pacts:can-i-deploy)
  record-deployment --environment ENV       this version is now deployed to ENV
                                                                         (pnpm pacts:record-deployment)
  record-release --environment ENV          this version is released to ENV
                                                                         (pnpm pacts:record-release)
      [--pacticipant NAME] [--version V]    for the three above; default: idp-toolkit-consumer and
                                            its version (another pacticipant needs --version)
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

exit: 0 success; 1 can-i-deploy said no, or the broker refused the content (e.g. changed pact
      under a published version); 2 bad arguments or settings, credentials the broker refuses, an
      environment that does not exist (one line on stderr). check-contracts: 1 a check failed.
An environment is created once per broker: pact-broker create-environment --name production --production`;

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const separator = argv.indexOf("--");
  const own = separator === -1 ? [...argv] : argv.slice(0, separator);
  const extraArgs = separator === -1 ? [] : argv.slice(separator + 1);
  const [word, ...rest] = own;
  // Alone, --version is idp-pacts' own; after a command it is the pacticipant version (a flag).
  if (word === "--version" && rest.length === 0) {
    process.stdout.write(`idp-pacts ${VERSION}\n`);
    return 0;
  }
  if (word === undefined || word === "--help" || word === "-h" || word === "help") {
    if (word === undefined)
      throw new PactsCliError("E_CONFIG", `missing command: one of ${COMMANDS.join(", ")}`);
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!(COMMANDS as readonly string[]).includes(word))
    throw new PactsCliError(
      "E_CONFIG",
      `unknown command "${word}"${hint(word, COMMANDS)}: expected one of ${COMMANDS.join(", ")} (idp-pacts --help)`,
    );
  const command = word as Command;
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
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
    process.stdout.write(renderTriangulation(report));
    return report.ok ? 0 : 1;
  }

  const values = parse(command, rest);
  const text = (name: string) => {
    const v = values[name];
    return typeof v === "string" ? v : undefined;
  };
  const broker = await import("./broker.ts");
  const who = { env, extraArgs, pacticipant: text("pacticipant"), version: text("version") };
  switch (command) {
    case "publish": {
      const pactsDir = text("pacts-dir");
      return (await broker.publishPacts({ env, extraArgs, ...(pactsDir ? { pactsDir } : {}) }))
        .exitCode;
    }
    case "can-i-deploy":
      return (await broker.canIDeploy({ ...who, environment: text("to-environment") })).exitCode;
    case "record-deployment":
      return (await broker.recordDeployment({ ...who, environment: text("environment") })).exitCode;
    case "record-release":
      return (await broker.recordRelease({ ...who, environment: text("environment") })).exitCode;
  }
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
export async function run(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    return await main(argv, env);
  } catch (error) {
    if (error instanceof PactsCliError) {
      process.stderr.write(`idp-pacts: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(
      `idp-pacts: unexpected failure, please report it: ${(error as Error)?.stack ?? String(error)}\n`,
    );
    return 1;
  }
}
