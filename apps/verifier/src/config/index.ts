export { GROUP_TITLES, OPTIONS, type OptionSpec } from "./options.ts";
export {
  type BrokerAuth,
  type BrokerSource,
  type Config,
  checkSelectorProblem,
  defaultPactsDir,
  type PactSource,
  type ParseResult,
  type PublishOptions,
  parseConfig,
  type ReportFormat,
} from "./parse.ts";
