export {
  type BrokerAuth,
  type BrokerAvailability,
  brokerAvailability,
  brokerAvailable,
  brokerKitDir,
  type RunningBroker,
  type StartBrokerOptions,
  startBroker,
} from "./broker.ts";
export { awaitCiPackages } from "./ci-packages.ts";
export { createTestPki, type TestPki } from "./deployment/ca.ts";
export { type GatewayOptions, type RunningGateway, startGateway } from "./deployment/gateway.ts";
export { type RunningProxy, startProxy } from "./deployment/proxy.ts";
export { readmeExampleTests } from "./readme-example.ts";
export { type NodeRun, runNode } from "./run-node.ts";
