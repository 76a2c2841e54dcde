export type { ErrorCoding } from "./answers.ts";
export { type BasicParse, basicHeader, parseBasic } from "./basic-auth.ts";
export { OBSERVED_FIELD_TYPES, type OperationId, type Reading } from "./body-shapes.ts";
export { FAULTS, type Fault, isFault } from "./faults.ts";
export {
  FRONT_KINDS,
  type FrontKind,
  type FrontOptions,
  MALFORMATIONS,
  type Malformation,
  type RunningFront,
  startFront,
} from "./fronts.ts";
export {
  closeServer,
  type HandLimit,
  type HandProviderOptions,
  type ReceivedRequest,
  type RunningProvider,
  STATES_PATH,
  startHandProvider,
} from "./hand-provider.ts";
export {
  HOSTILE_KINDS,
  type HostileKind,
  type HostileOptions,
  type RunningHostile,
  startHostile,
} from "./hostile.ts";
export {
  type BodyVerdict,
  type JudgeOptions,
  judgeBody,
  MAX_BODY_BYTES,
  type Problem,
  pinnedStatus,
  type ViolationKind,
} from "./judge-body.ts";
export { HUGE_BODY_BYTES, streamLazily } from "./lazy-body.ts";
export {
  STATE_HANDLERS,
  STATE_NAMES,
  type StateHandlers,
  type StateName,
} from "./provider-states.ts";
export type { RecordedRequest, RequestLog } from "./request-log.ts";
