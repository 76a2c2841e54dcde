export { type BasicAuthParse, type Credentials, parseBasicAuth } from "./auth.ts";
export { type Device, OTHER_LOGIN_APP_ID, THIS_LOGIN_APP_ID } from "./db.ts";
export { ERROR_CODES, type ErrorCode } from "./error-body.ts";
export { JSON_BOUNDS } from "./json-bounds.ts";
export type { LogSink } from "./log.ts";
export type { OutboxRow, PushDelivery, PushSender } from "./outbox-sender.ts";
export {
  createProvider,
  type IdpProvider,
  type ListenResult,
  type ProviderOptions,
} from "./provider.ts";
export { PROVIDER_STATES, PROVIDER_STATES_PATH } from "./provider-states.ts";
export { BODY_LIMIT_BYTES, MAX_LISTED_VIOLATIONS } from "./request-body.ts";
export { SERVER_LIMITS, type ServerLimits } from "./server.ts";
