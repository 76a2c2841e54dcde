export {
  assertValidRequestBody,
  BodyAssertionError,
  type BodyAssertionOptions,
  type BodyFinding,
  describeFinding,
  findBodyProblem,
  type IdpBodyMatchers,
  idpBodyMatchers,
} from "./body-assertion.ts";
export {
  BOUND_PATH_NAMES,
  BOUND_PATHS,
  BOUND_UNITS,
  type Bound,
  type BoundBreach,
  type BoundedKind,
  type BoundPath,
  type Bounds,
  type BoundUnit,
  boundBreach,
  LIMITS_OF,
  lengthIn,
  operationOfBound,
  UNIT_WORDS,
} from "./bounds.ts";
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
  type BodyViolationKind,
  classifyJsonBody,
  classifyRequestBody,
} from "./classify-body.ts";
export { didYouMean, didYouMeanHint } from "./did-you-mean.ts";
export {
  describeErrorsItems,
  ERRORS_ITEM_KINDS,
  ErrorItemObject,
  type ErrorsItemKind,
  errorBodyShape,
  type ProfileErrorBody,
  SPEC_ERRORS_ITEMS,
} from "./error-items.ts";
export { AUTHENTICATION_FAILED } from "./errors.ts";
export { formatPath, type JsonPath } from "./json-path.ts";
export {
  authRejectionProblem,
  errorBodyProblem,
} from "./judges/error-body.ts";
export {
  FIELD_VIOLATION_KINDS,
  namesOfField,
  unnamedFieldProblem,
} from "./judges/field-named.ts";
export {
  jsonMediaTypeProblem,
  type MediaType,
  parseMediaType,
} from "./judges/media-type.ts";
export {
  bodyText,
  isJsonContentType,
  type ObservedResponse,
  type Problem,
  type ProblemKind,
} from "./judges/problem.ts";
export {
  rulesReadBackProblem,
  schemaReadBackProblem,
} from "./judges/read-back.ts";
export {
  type ExpectedRejection,
  expectedRejection,
  rejectionProblem,
  rejectionProblemOf,
} from "./judges/rejection.ts";
export {
  acceptanceProblem,
  loginUserProblem,
  serverErrorProblem,
  undocumentedStatusProblem,
} from "./judges/status.ts";
export { successBodyProblem } from "./judges/success-body.ts";
export { invalidUtf8Offset } from "./judges/utf8.ts";
export { loadProfile } from "./load-profile.ts";
export {
  isPathSegmentName,
  NAMED_NEIGHBOURS,
  NEIGHBOUR_METHODS,
  NEIGHBOUR_NAMES,
  type Neighbour,
  type NeighbourName,
  type Neighbours,
  neighbourPath,
  PINNED_NEIGHBOURS,
} from "./neighbours.ts";
export { createOpenApiDocument, openApiJson } from "./openapi.ts";
export {
  DETAILED_OPERATION_IDS,
  type DetailedOperation,
  type DetailedOperationId,
  type DocumentedStatus,
  detailedOperations,
  type HttpMethod,
  operationPath,
  type RequestBody,
  type RequestShapeName,
} from "./operations.ts";
export {
  basicAuthorization,
  PACT_PLACEHOLDER_AUTHORIZATION,
  PACT_PLACEHOLDER_CREDENTIALS,
  PACT_WRONG_AUTHORIZATION,
  PACT_WRONG_CREDENTIALS,
} from "./placeholder-credentials.ts";
export { jsonInteger, NOT_SHOWN, type NotShown } from "./primitives.ts";
export { ProfileError, type ProfileErrorDetails } from "./profile-error.ts";
export {
  BUILT_IN_PROFILES,
  LearnedSource,
  ProfileFile,
  profileFromFile,
  profileToFile,
} from "./profile-file.ts";
export {
  isProfileKey,
  LOGIN_USER_KINDS,
  type LoginUserKind,
  PROFILE_KEYS,
  type ProfileKey,
} from "./profile-keys.ts";
export type { ProfileShapes } from "./profile-shapes.ts";
export {
  type BuiltInProfileName,
  type ContractProfile,
  type DocumentedStatuses,
  defaultProfile,
  defineProfile,
  type LoginUserStatuses,
  type ProfileOverrides,
  profileValue,
  requestShapeFor,
  strictProfile,
} from "./profiles.ts";
export {
  PROVIDER_STATE_PARAM,
  PROVIDER_STATES,
  type ProviderStateName,
} from "./provider-states.ts";
export { RULE_IDS, RULES, type RuleId, type RuleInfo, type RuleSource } from "./rules.ts";
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
export { strictShapes } from "./strict-shapes.ts";
export {
  CLASSIFIER_TYPES_IN_USE,
  FIELD_TYPES_IN_USE,
  SPEC_VALUES_IN_USE,
  VALUES_IN_USE_KEYS,
  VALUES_IN_USE_OPERATION,
  type ValuesInUse,
  type ValuesInUseKey,
} from "./values-in-use.ts";
export {
  type ClientErrorStatus,
  PINNED_STATUS_MAPPING,
  SPEC_VIOLATION_KINDS,
  type StatusMapping,
  VIOLATION_KINDS,
  type ViolationKind,
} from "./violations.ts";
