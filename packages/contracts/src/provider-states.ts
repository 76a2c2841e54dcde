/**
 * The provider-state names of conformance.md §4, exactly (Pact's state-change protocol). The login
 * user states take `{ "id": string }`, the schema state `{ "name": string }` (see
 * {@link PROVIDER_STATE_PARAM}). Consumers record them, providers implement them, verifiers use them.
 */
export const PROVIDER_STATES = {
  /** A login user with that id exists and belongs to this login app. */
  loginUserExists: "a login user exists",
  /** No login user has that id. */
  noLoginUserExists: "no login user exists",
  /** A login user with that id exists in a different login app. */
  loginUserOfAnotherAppExists: "a login user of another login app exists",
  /** The provider holds no datastore schema of that name (a provider that keeps none does nothing). */
  noSchemaWithName: "no schema with this name exists",
} as const;
/** One of the four provider state names of conformance.md §4. */
export type ProviderStateName = (typeof PROVIDER_STATES)[keyof typeof PROVIDER_STATES];

/** The one parameter each state takes (conformance.md §4): a login user id or a schema name. */
export const PROVIDER_STATE_PARAM: { readonly [N in ProviderStateName]: "id" | "name" } = {
  [PROVIDER_STATES.loginUserExists]: "id",
  [PROVIDER_STATES.noLoginUserExists]: "id",
  [PROVIDER_STATES.loginUserOfAnotherAppExists]: "id",
  [PROVIDER_STATES.noSchemaWithName]: "name",
};
