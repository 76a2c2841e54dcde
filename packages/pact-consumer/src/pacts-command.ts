// idp-pacts: publish the recorded pacts and ask can-i-deploy, through the official pact-broker CLI.
//   idp-pacts publish [--pacts-dir DIR] [-- <extra pact-broker publish flags>]
//   idp-pacts can-i-deploy --to-environment ENV [-- <extra pact-broker can-i-deploy flags>]
//   idp-pacts check-contracts [--pacts PATH ...] [--openapi FILE]   (offline triangulation)
// Exit codes: pact-broker's own (0 success, 1 failure / "computer says no"); 2 usage or settings.
// check-contracts: 0 every check passed, 1 a check failed, 2 bad input (one line on stderr).
import { parseArgs } from "node:util";
import { PactsCliError } from "./errors.ts";

const USAGE = `usage: idp-pacts publish [--pacts-dir DIR] [-- <pact-broker publish flags>]
       idp-pacts can-i-deploy --to-environment ENV [-- <pact-broker can-i-deploy flags>]
       idp-pacts check-contracts [--pacts PATH ...] [--openapi FILE]
           offline: pacts vs @idp/contracts (zod), the OpenAPI export round trip, pacts vs OpenAPI
           (@pactflow/openapi-pact-comparator); default pacts: the repo's pacts/ (installed:
           ./pacts); default OpenAPI: generated from @idp/contracts;
           exit 0 passed, 1 a check failed, 2 bad input
environment: PACT_BROKER_BASE_URL, and PACT_BROKER_TOKEN or PACT_BROKER_USERNAME + PACT_BROKER_PASSWORD;
             PACT_CONSUMER_VERSION (default: git commit), PACT_CONSUMER_BRANCH (default: git branch)`;

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const separator = argv.indexOf("--");
  const own = separator === -1 ? [...argv] : argv.slice(0, separator);
  const extraArgs = separator === -1 ? [] : argv.slice(separator + 1);
  const [command, ...rest] = own;
  if (command === "--help" || command === "-h") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === "check-contracts") {
    // No child CLI to pass flags to: arguments after a `--` (as `pnpm contracts:check -- ...`
    // may forward them) are this command's own.
    const { values } = parseCheckContracts([...rest, ...extraArgs]);
    const { triangulate, renderTriangulation } = await import("./triangulate.ts");
    const report = await triangulate({
      ...(values.pacts ? { pacts: values.pacts } : {}),
      ...(values.openapi !== undefined ? { openapi: values.openapi } : {}),
    });
    process.stdout.write(renderTriangulation(report));
    return report.ok ? 0 : 1;
  }
  const { publishPacts, canIDeploy } = await import("./broker.ts");
  switch (command) {
    case "publish": {
      const { values } = parse(rest, { "pacts-dir": { type: "string" } });
      const pactsDir = values["pacts-dir"];
      const result = await publishPacts({
        env,
        extraArgs,
        ...(typeof pactsDir === "string" ? { pactsDir } : {}),
      });
      return result.exitCode;
    }
    case "can-i-deploy": {
      const { values } = parse(rest, { "to-environment": { type: "string" } });
      const environment = values["to-environment"];
      const result = await canIDeploy({
        env,
        extraArgs,
        environment: typeof environment === "string" ? environment : undefined,
      });
      return result.exitCode;
    }
    default:
      throw new PactsCliError(
        "E_CONFIG",
        command === undefined
          ? "missing command: publish, can-i-deploy or check-contracts"
          : `unknown command "${command}": expected publish, can-i-deploy or check-contracts`,
      );
  }
}

function parse(args: string[], options: Record<string, { type: "string" }>) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true });
  } catch (cause) {
    throw new PactsCliError("E_CONFIG", (cause as Error).message, { cause });
  }
}

function parseCheckContracts(args: string[]) {
  try {
    return parseArgs({
      args,
      options: { pacts: { type: "string", multiple: true }, openapi: { type: "string" } },
      allowPositionals: false,
      strict: true,
    });
  } catch (cause) {
    throw new PactsCliError("E_CONFIG", (cause as Error).message, { cause });
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
