// The pact credentials live in @idp/contracts (a verifier needs no runtime dependency on this
// package); re-exported so existing imports keep working.
export {
  basicAuthorization,
  PACT_PLACEHOLDER_AUTHORIZATION,
  PACT_PLACEHOLDER_CREDENTIALS,
  PACT_WRONG_AUTHORIZATION,
  PACT_WRONG_CREDENTIALS,
} from "@idp/contracts";
export {
  type BrokerSettings,
  type CanIDeployOptions,
  type ConsumerVersion,
  canIDeploy,
  canIDeployArgs,
  listPactFiles,
  type PublishOptions,
  pactBrokerBin,
  publishArgs,
  publishPacts,
  type RecordOptions,
  type RunResult,
  readBrokerSettings,
  readConsumerVersion,
  readConsumerVersionNumber,
  recordArgs,
  recordDeployment,
  recordRelease,
} from "./broker.ts";
export { IdpClient, type IdpClientOptions } from "./client.ts";
export {
  IdpApiError,
  IdpProtocolError,
  type IdpProtocolErrorCode,
  PactsCliError,
  type PactsCliErrorCode,
} from "./errors.ts";
export { PACT_CONSUMER, PACT_FILE, PACT_PROVIDER, PACTS_DIR } from "./pact-names.ts";
