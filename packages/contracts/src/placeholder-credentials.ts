// The credentials recorded in the pacts. They live here, not in @idp/pact-consumer, so a verifier
// can replace the placeholder without depending on the consumer package (and its Pact binaries).

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

/** `Basic base64(username:password)` of the UTF-8 bytes, as the spec's Authentication section describes. */
export function basicAuthorization(username: string, password: string): string {
  // btoa takes one char per byte: spread the UTF-8 bytes (no Buffer, so this runs anywhere).
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
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
