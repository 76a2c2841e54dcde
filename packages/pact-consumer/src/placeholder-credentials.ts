/**
 * The one documented placeholder credential that every valid-credential pact interaction carries.
 * A verifier replaces exactly {@link PACT_PLACEHOLDER_AUTHORIZATION} with real credentials of the
 * provider under test; every other Authorization value (such as {@link PACT_WRONG_AUTHORIZATION})
 * is sent as recorded.
 */
export const PACT_PLACEHOLDER_CREDENTIALS = Object.freeze({
  username: "pact-placeholder-user",
  password: "pact-placeholder-password",
});

/**
 * A deliberately wrong credential, recorded in the 401 interactions. A provider must never accept
 * it; a verifier must never replace it.
 */
export const PACT_WRONG_CREDENTIALS = Object.freeze({
  username: "pact-wrong-user",
  password: "pact-wrong-password",
});

/** `Basic base64(username:password)`, as the spec's Authentication section describes. */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;
}

/** `Basic cGFjdC1wbGFjZWhvbGRlci11c2VyOnBhY3QtcGxhY2Vob2xkZXItcGFzc3dvcmQ=` */
export const PACT_PLACEHOLDER_AUTHORIZATION = basicAuthorization(
  PACT_PLACEHOLDER_CREDENTIALS.username,
  PACT_PLACEHOLDER_CREDENTIALS.password,
);

/** The Authorization value of the 401 interactions. */
export const PACT_WRONG_AUTHORIZATION = basicAuthorization(
  PACT_WRONG_CREDENTIALS.username,
  PACT_WRONG_CREDENTIALS.password,
);
