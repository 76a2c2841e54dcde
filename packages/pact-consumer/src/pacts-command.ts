// idp-pacts: publish the recorded pacts and record deployments and releases (through the official
// pact-broker CLI), can-i-deploy and doctor (the broker's API, with reasons), and check-contracts
// (offline triangulation). conformance.md §5.
// Exit codes: 0 success; 1 a "no" (can-i-deploy, doctor) or content the broker refused (409); 2
// usage, settings, credentials the broker refuses, or a pacticipant, version or environment the
// broker does not know (one line).
import {
  asksForHelp,
  CliError,
  commandOf,
  commandsHelp,
  flagsHelp,
  parseFlagValues,
  readFlags,
  wholeNumber,
} from "@idp/contracts/cli";
import { z } from "zod";
import { brokerSettingsOf } from "./broker-settings.ts";
import { requiredEnvironment } from "./deploy-subject.ts";
import { PactsCliError } from "./errors.ts";
import {
  PACTS_COMMANDS,
  PACTS_ENVIRONMENT,
  PACTS_GENERAL,
  type PactsCommand,
  RETRY_FLAGS,
} from "./pacts-flags.ts";
import { VERSION } from "./version.ts";

/** `idp-pacts --help`, from the command and flag tables. */
export function helpText(): string {
  return [
    `idp-pacts ${VERSION}: publish a consumer's pacts to a Pact Broker, ask it whether a version may`,
    "be deployed (with reasons), record deployments and releases, and check pacts against the",
    "contracts offline (conformance.md §5).",
    "",
    "Usage: idp-pacts <command> [flags]",
    "       idp-pacts publish|record-deployment|record-release [flags] [-- <pact-broker flags>]",
    "",
    ...commandsHelp("idp-pacts", PACTS_COMMANDS),
    ...flagsHelp(PACTS_ENVIRONMENT, {
      environment: "Environment (every command but check-contracts)",
    }),
    ...flagsHelp(PACTS_GENERAL, { general: "General" }),
    'Reasons of a "no" (can-i-deploy, doctor): pending-verification, never-verified, no-pacts,',
    "verification-failed, not-deployed.",
    "",
    "Exit status: 0 success; 1 can-i-deploy or doctor said no, or the broker refused the content",
    "(e.g. a changed pact under a published version), or a check of check-contracts failed; 2 bad",
    "arguments or settings, credentials the broker refuses, a pacticipant, version or environment",
    "the broker does not know (one line on stderr).",
    "",
    "An environment is created once per broker: pact-broker create-environment --name production --production",
  ].join("\n");
}

/** Where idp-pacts writes (the pact-broker CLI it runs for publish and record-* writes to the process's own). */
export interface PactsIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const PROCESS_IO: PactsIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

// ---- the configuration: each command's flags and the environment, as zod reads them ----------

const text = z.string().optional();

/** A reading of the library's, run while parsing: its one-line error is the parse's. */
function attempt<T>(ctx: z.RefinementCtx, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof PactsCliError || e instanceof CliError)) throw e;
    ctx.addIssue({ code: "custom", message: e.message });
    return z.NEVER;
  }
}

const required = (flag: string) =>
  text.transform((value, ctx) => attempt(ctx, () => requiredEnvironment(flag, value)));

/** PACT_BROKER_* (read as idp-verify reads them) and PACT_CONSUMER_*. */
const environment = z
  .object({
    "broker-url": text,
    "broker-token": text,
    "broker-username": text,
    "broker-password": text,
    "consumer-version": text,
    "consumer-branch": text,
  })
  .transform((e, ctx) => ({
    settings: attempt(ctx, () =>
      brokerSettingsOf({
        url: e["broker-url"],
        token: e["broker-token"],
        username: e["broker-username"],
        password: e["broker-password"],
      }),
    ),
    consumer: { version: e["consumer-version"], branch: e["consumer-branch"] },
  }));

const who = { pacticipant: text, version: text, "pacts-dir": text };
const retry = {
  "retry-while-unknown": wholeNumber("--retry-while-unknown", 0).optional(),
  "retry-interval": wholeNumber("--retry-interval", 0).optional(),
};

/** A command's flags, then the environment (a flag's problem is reported first). */
const withEnvironment = <S extends z.ZodType>(flags: S) => z.object({ flags, environment });

const record = withEnvironment(z.object({ environment: required("--environment"), ...who }));

const SCHEMAS = {
  publish: withEnvironment(z.object({ "pacts-dir": text })),
  // The retry counts first: they may come from after `--` as well.
  "can-i-deploy": withEnvironment(
    z.object({ ...retry, "to-environment": required("--to-environment"), ...who }),
  ),
  doctor: withEnvironment(z.object({ "to-environment": text, ...who })),
  "record-deployment": record,
  "record-release": record,
  "check-contracts": z.object({
    flags: z.object({ pacts: z.array(z.string()).optional(), openapi: text }),
  }),
} as const satisfies Record<PactsCommand, z.ZodType>;

/** What a command runs with: its flags and the environment, parsed. */
export type PactsConfig = { readonly [C in PactsCommand]: z.output<(typeof SCHEMAS)[C]> };

// ---- the commands ---------------------------------------------------------------------------

export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: PactsIo = PROCESS_IO,
): Promise<number> {
  const separator = argv.indexOf("--");
  const own = separator === -1 ? [...argv] : argv.slice(0, separator);
  const extraArgs = separator === -1 ? [] : argv.slice(separator + 1);
  const [word, ...rest] = own;
  if (word === "help" || (word?.startsWith("-") && asksForHelp(own))) {
    io.stdout(`${helpText()}\n`);
    return 0;
  }
  // Before a command, only idp-pacts' own flags: --version alone (after a command it is the
  // pacticipant's version).
  if (word?.startsWith("-")) {
    const { values } = readFlags(
      PACTS_GENERAL,
      own,
      {},
      {
        positionalHint: "the command comes first",
      },
    );
    io.stdout(values.version ? `idp-pacts ${VERSION}\n` : `${helpText()}\n`);
    return 0;
  }
  const command = commandOf("idp-pacts", PACTS_COMMANDS, word);
  if (asksForHelp(rest)) {
    io.stdout(`${helpText()}\n`);
    return 0;
  }

  if (command === "check-contracts") {
    // No child CLI to pass flags to: arguments after a `--` (as `pnpm contracts:check -- ...`
    // may forward them) are this command's own.
    const { flags } = parse(command, SCHEMAS[command], [...rest, ...extraArgs], env);
    const { triangulate, renderTriangulation } = await import("./triangulate.ts");
    const report = await triangulate({
      ...(flags.pacts && { pacts: flags.pacts }),
      ...(flags.openapi !== undefined && { openapi: flags.openapi }),
    });
    io.stdout(renderTriangulation(report));
    return report.ok ? 0 : 1;
  }

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
  const common = { env, extraArgs, log, stdio: live ? ("inherit" as const) : ("pipe" as const) };
  switch (command) {
    case "publish": {
      const { flags, environment } = parse(command, SCHEMAS[command], rest, env);
      const pactsDir = flags["pacts-dir"];
      return relay(
        await broker.publishPacts({ ...common, ...environment, ...(pactsDir && { pactsDir }) }),
      );
    }
    case "can-i-deploy": {
      const args = [...rest, ...retryAfterSeparator(extraArgs)];
      const { flags, environment } = parse(command, SCHEMAS[command], args, env);
      const { canIDeploy } = await import("./deploy-check.ts");
      const retries = flags["retry-while-unknown"];
      const interval = flags["retry-interval"];
      return (
        await canIDeploy({
          ...common,
          ...environment,
          ...whoOf(flags),
          out: io.stdout,
          environment: flags["to-environment"],
          ...(retries !== undefined && { retryWhileUnknown: retries }),
          ...(interval !== undefined && { retryIntervalSeconds: interval }),
        })
      ).exitCode;
    }
    case "doctor": {
      const { flags, environment } = parse(command, SCHEMAS[command], rest, env);
      if (extraArgs.length > 0)
        throw new PactsCliError(
          "E_CONFIG",
          `doctor reads the broker's API itself and takes no pact-broker flags (received ${extraArgs.join(" ")} after --)`,
        );
      const { doctor } = await import("./deploy-check.ts");
      return (
        await doctor({
          ...common,
          ...environment,
          ...whoOf(flags),
          out: io.stdout,
          environment: flags["to-environment"],
        })
      ).exitCode;
    }
    case "record-deployment":
    case "record-release": {
      const { flags, environment } = parse(command, SCHEMAS[command], rest, env);
      const recordIn =
        command === "record-deployment" ? broker.recordDeployment : broker.recordRelease;
      return relay(
        await recordIn({
          ...common,
          ...environment,
          ...whoOf(flags),
          environment: flags.environment,
        }),
      );
    }
  }
}

const whoOf = (flags: {
  pacticipant?: string | undefined;
  version?: string | undefined;
  "pacts-dir"?: string | undefined;
}) => ({ pacticipant: flags.pacticipant, version: flags.version, pactsDir: flags["pacts-dir"] });

/**
 * --retry-while-unknown N and --retry-interval S as recipes wrote them for pact-broker, after `--`
 * (can-i-deploy's own flags now); nothing else goes after `--` now that the API is read directly.
 */
function retryAfterSeparator(extraArgs: readonly string[]): string[] {
  try {
    readFlags(RETRY_FLAGS, extraArgs, {});
    return [...extraArgs];
  } catch (cause) {
    const received =
      cause instanceof CliError &&
      /^(?:unknown option|unexpected argument) (\S+)/.exec(cause.message);
    if (!received) throw cause;
    throw new PactsCliError(
      "E_CONFIG",
      `can-i-deploy reads the broker's API itself: after -- it takes only --retry-while-unknown N and --retry-interval S (received ${received[1]})`,
      { cause },
    );
  }
}

/** The command's flags and the environment, through the shared parser and its zod schema. */
function parse<S extends z.ZodType>(
  command: PactsCommand,
  schema: S,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): z.output<S> {
  const flags = PACTS_COMMANDS[command].flags;
  const known = Object.keys(flags).map((k) => `--${k}`);
  const also = `${command} takes ${known.join(", ")} (pact-broker's own flags go after --)`;
  try {
    const { values } = readFlags({ ...flags, ...PACTS_ENVIRONMENT }, args, env, {
      positionalHint: `${command} takes only ${known.join(", ")} (pact-broker's own flags go after --)`,
    });
    return parseFlagValues(schema, { flags: values, environment: values });
  } catch (cause) {
    if (!(cause instanceof CliError) || !cause.message.startsWith("unknown option")) throw cause;
    throw new CliError(`${cause.message} for ${command}; ${also}`, { cause });
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
    if (error instanceof PactsCliError || error instanceof CliError) {
      io.stderr(`idp-pacts: ${error.message}\n`);
      return 2;
    }
    io.stderr(
      `idp-pacts: unexpected failure, please report it: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    return 1;
  }
}
