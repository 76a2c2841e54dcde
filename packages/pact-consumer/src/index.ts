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
  listPactFiles,
  type PublishOptions,
  pactBrokerBin,
  publishArgs,
  publishPacts,
  type RecordOptions,
  type RunResult,
  recordArgs,
  recordDeployment,
  recordRelease,
} from "./broker.ts";
export {
  BROKER_ENV_NAMES,
  type BrokerInput,
  type BrokerLogin,
  type BrokerSettings,
  type BrokerTarget,
  brokerAuthorization,
  brokerEnv,
  brokerTarget,
  readBrokerSettings,
} from "./broker-settings.ts";
export { IdpClient, type IdpClientOptions } from "./client.ts";
export {
  type ConsumerVersion,
  readConsumerVersion,
  readConsumerVersionNumber,
} from "./consumer-version.ts";
export { type ContractRulesOptions, contractRules, type PathRule } from "./contract-rules.ts";
export {
  EXAMPLE_CLUSTERING_RULES,
  EXAMPLE_CREATE_SCHEMA,
  EXAMPLE_PUSH,
  INVALID_EXAMPLES,
  type RequestBodies,
} from "./default-examples.ts";
export {
  type BookkeepingFinding,
  type CanIDeployOptions,
  type CanIDeployResult,
  canIDeploy,
  type DoctorOptions,
  type DoctorResult,
  doctor,
  type EnvironmentAnswer,
} from "./deploy-check.ts";
export {
  DEPLOY_REASONS,
  type DeployReason,
  type IntegrationAnswer,
} from "./deploy-reasons.ts";
export {
  IdpApiError,
  IdpInteractionError,
  IdpProtocolError,
  type IdpProtocolErrorCode,
  PactsCliError,
  type PactsCliErrorCode,
} from "./errors.ts";
export {
  type BodyBuilderLike,
  type ErrorBodyExample,
  IDP_CELLS,
  type IdpCellStatus,
  type IdpInteractionOptions,
  idpInteraction,
  type MockServerLike,
  type PactV4Like,
  type V4InteractionWithResponse,
} from "./interactions.ts";
export { PACT_CONSUMER, PACT_FILE, PACT_PROVIDER, PACTS_DIR } from "./pact-names.ts";
export { pactSafe, pactUnsafeReason } from "./pact-safe.ts";
export { consumerOfPacts } from "./pacts-consumer.ts";
