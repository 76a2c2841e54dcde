// @idp/contracts/cli: the command-line parsing every toolkit CLI shares (idp-verify, idp-pacts,
// idp-provider, idp-gen, idp-openapi): one flag table per CLI (or per subcommand), read with node's
// parseArgs and the environment, then parsed with zod into the CLI's typed configuration; `--help`
// generated from the same table; one-line usage errors (CliError) with "did you mean".
export {
  type BrokerInput,
  type BrokerLogin,
  type BrokerTarget,
  blankAsUnset,
  brokerAuthorization,
  brokerTarget,
} from "./broker-login.ts";
export { asksForHelp, type CommandSpec, type CommandTable, commandOf } from "./commands.ts";
export {
  CliError,
  commandLineFlags,
  type FlagSpec,
  type FlagTable,
  type FlagValues,
  type ReadFlagsOptions,
  readFlags,
} from "./flags.ts";
export {
  commandsHelp,
  DEFAULT_GROUP,
  type FlagsHelpOptions,
  flagsHelp,
  flagUsage,
  usageColumn,
  wrapText,
} from "./help.ts";
export { httpUrl, nonEmpty, oneOf, parseFlagValues, wholeNumber } from "./schema.ts";
export { packageVersion } from "./version.ts";
