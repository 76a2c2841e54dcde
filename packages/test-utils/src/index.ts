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
export { readmeExampleTests } from "./readme-example.ts";
export { type NodeRun, runNode } from "./run-node.ts";
