/**
 * The provider-state names of conformance.md §4, exactly (Pact's state-change protocol). Each takes
 * `{ "id": string }` as params. Consumers record them, providers implement them, verifiers use them.
 */
export const PROVIDER_STATES = {
  /** A login user with that id exists and belongs to this login app. */
  loginUserExists: "a login user exists",
  /** No login user has that id. */
  noLoginUserExists: "no login user exists",
  /** A login user with that id exists in a different login app. */
  loginUserOfAnotherAppExists: "a login user of another login app exists",
} as const;
export type ProviderStateName = (typeof PROVIDER_STATES)[keyof typeof PROVIDER_STATES];
