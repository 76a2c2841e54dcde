export { FLAGS, type Flags, GROUP_TITLES } from "./flags.ts";
export type { ReportFormat } from "./output.ts";
export { defaultPactsDir } from "./pacts.ts";
export {
  type BrokerAuth,
  type BrokerSource,
  type Config,
  type PactSource,
  type ParseResult,
  type PublishOptions,
  parseConfig,
} from "./parse.ts";
export type { ProviderTarget } from "./provider.ts";
export { checkSelectorProblem } from "./run.ts";
