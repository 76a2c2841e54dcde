export { FLAGS, type Flags, GROUP_TITLES } from "./flags.ts";
export {
  type BrokerAuth,
  type BrokerSource,
  type Config,
  checkSelectorProblem,
  defaultPactsDir,
  type PactSource,
  type PactsPart,
  type ParseResult,
  type ProviderTarget,
  type PublishOptions,
  parseConfig,
  type ReportFormat,
} from "./parse.ts";
