// @idp/contracts/cli: the command-line parsing every toolkit CLI shares (idp-verify, idp-pacts,
// idp-provider, idp-gen): one flag table per CLI, read with node's parseArgs and the environment,
// then parsed with zod into the CLI's typed configuration; one-line usage errors (CliError).
export {
  CliError,
  type FlagSpec,
  type FlagTable,
  type FlagValues,
  type ReadFlagsOptions,
  readFlags,
} from "./flags.ts";
export { flagsHelp, flagUsage, wrapText } from "./help.ts";
export { httpUrl, nonEmpty, oneOf, parseFlagValues, wholeNumber } from "./schema.ts";
