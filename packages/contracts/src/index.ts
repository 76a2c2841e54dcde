export {
  AREAS,
  type AreaName,
  type CatalogueEntry,
  catalogue,
  entriesWithMethodAndPath,
} from "./catalogue.ts";
export {
  type BodyClassification,
  type BodyViolation,
  classifyJsonBody,
  classifyRequestBody,
  formatPath,
  type JsonPath,
} from "./classify-body.ts";
export { AUTHENTICATION_FAILED } from "./errors.ts";
export { createOpenApiDocument, openApiJson } from "./openapi.ts";
export {
  DETAILED_OPERATION_IDS,
  type DetailedOperation,
  type DetailedOperationId,
  detailedOperations,
  type HttpMethod,
  operationPath,
  type RequestShapeName,
} from "./operations.ts";
export { jsonInteger, NOT_SHOWN, type NotShown } from "./primitives.ts";
export {
  type ContractProfile,
  defaultProfile,
  defineProfile,
  type ProfileShapes,
  requestShapeFor,
  strictProfile,
} from "./profiles.ts";
export {
  PROVIDER_STATE_PARAM,
  PROVIDER_STATES,
  type ProviderStateName,
} from "./provider-states.ts";
export {
  opaqueShape,
  type RegisteredShape,
  SHAPE_AREAS,
  type ShapeArea,
  shapeRegistry,
  unnamedShapeGroups,
} from "./shape-registry.ts";
export {
  ClusteringClassifier,
  ClusteringFeature,
  ClusteringLabel,
  ClusteringParameters,
  ClusteringRules,
  CreateSchemaField,
  CreateSchemaRequest,
  ErrorBody,
  PushNotificationData,
  SchemaPermissions,
  UserPublishRequest,
} from "./shapes.ts";
export { CLASSIFIER_TYPES_IN_USE, FIELD_TYPES_IN_USE, strictShapes } from "./strict-shapes.ts";
export {
  type ClientErrorStatus,
  PINNED_STATUS_MAPPING,
  SPEC_VIOLATION_KINDS,
  type StatusMapping,
  VIOLATION_KINDS,
  type ViolationKind,
} from "./violations.ts";
