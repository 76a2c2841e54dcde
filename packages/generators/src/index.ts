export { JSON_KINDS, type JsonKind, wrongKindsOf } from "./_internal/json-values.ts";
export { defOf as zodDefOf, jsonTypeOf } from "./_internal/zod-def.ts";
export { GeneratorError, type GeneratorErrorCode } from "./errors.ts";
export {
  type InvalidBodyCase,
  type InvalidBodyConstraints,
  invalidBodyArb,
  invalidClusteringRulesArb,
  invalidCreateSchemaRequestArb,
  invalidUserPublishRequestArb,
  requestBodyText,
} from "./invalid-body.ts";
export { invalidBodyExamples } from "./invalid-examples.ts";
export {
  MIN_STRESS_BODY_BYTES,
  STRESS_DEFAULTS,
  STRESS_KINDS,
  type StressBodyCase,
  type StressConstraints,
  type StressExpectation,
  type StressKind,
  type StressPlace,
  stressBodyArb,
} from "./stress-body.ts";
export {
  clusteringRulesArb,
  createSchemaRequestArb,
  LARGE_BODY_DEFAULTS,
  type LargeBodyConstraints,
  largeValidBodyArb,
  userPublishRequestArb,
  type ValidBodyConstraints,
  validBodyArb,
} from "./valid-body.ts";
export { type ZodArbitraryOptions, zodArbitrary } from "./zod-arbitrary.ts";
