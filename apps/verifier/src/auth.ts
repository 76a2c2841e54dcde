import fc from "fast-check";
import type { AuthVariant } from "./check-ids.ts";
import type { Credentials } from "./config.ts";
import type { Redactor } from "./redact.ts";

/** The Authorization header of one request, and how to rebuild it without printing a secret. */
export interface AuthSpec {
  readonly variant: "valid" | AuthVariant;
  readonly header: string | undefined;
  readonly description: string;
  /** curl arguments; secrets come from $IDP_USERNAME / $IDP_PASSWORD. */
  readonly curlAuth: readonly string[];
}

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
export const shq = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;
const headerFromShell = (scheme: string, printf: string) => [
  "-H",
  `"Authorization: ${scheme} $(${printf} | base64 | tr -d '\\n')"`,
];

export function validAuth(c: Credentials): AuthSpec {
  return {
    variant: "valid",
    header: `Basic ${b64(`${c.username}:${c.password}`)}`,
    description: "valid credentials",
    curlAuth: ["-u", `"$IDP_USERNAME:$IDP_PASSWORD"`],
  };
}

const NON_BASE64 = ["!", "*", "@", "%", "~", "?", "#", "$", "-", "_", "."];

/**
 * The R1 matrix. Credential-bearing variants (another scheme with the real token, user and password
 * without the colon, one wrong half) register every header they build with the redactor.
 */
export function authVariantArb(
  variant: AuthVariant,
  c: Credentials,
  redactor: Redactor,
): fc.Arbitrary<AuthSpec> {
  const secret = (spec: AuthSpec): AuthSpec => {
    if (spec.header) redactor.addSecret(spec.header.slice(spec.header.indexOf(" ") + 1));
    return spec;
  };
  switch (variant) {
    case "no-header":
      return fc.constant({
        variant,
        header: undefined,
        description: "no Authorization header",
        curlAuth: [],
      });
    case "other-scheme":
      return fc.constantFrom("Bearer", "Digest", "Negotiate", "Token").map((scheme) =>
        secret({
          variant,
          header: `${scheme} ${b64(`${c.username}:${c.password}`)}`,
          description: `scheme ${scheme} (not Basic) with the valid user:password token`,
          curlAuth: headerFromShell(scheme, `printf '%s' "$IDP_USERNAME:$IDP_PASSWORD"`),
        }),
      );
    case "bad-base64":
      return fc
        .tuple(
          fc.stringMatching(/^[A-Za-z0-9+/]{0,12}$/),
          fc.constantFrom(...NON_BASE64),
          fc.stringMatching(/^[A-Za-z0-9+/]{0,12}$/),
        )
        .map(([a, bad, z]) => {
          const header = `Basic ${a}${bad}${z}`;
          return {
            variant,
            header,
            description: "Basic with text that is not base64",
            curlAuth: ["-H", shq(`Authorization: ${header}`)],
          };
        });
    case "no-colon":
      return fc.oneof(
        fc.constant(
          secret({
            variant,
            header: `Basic ${b64(`${c.username}${c.password}`)}`,
            description: "Basic with the valid username and password joined without a colon",
            curlAuth: headerFromShell("Basic", `printf '%s' "$IDP_USERNAME$IDP_PASSWORD"`),
          }),
        ),
        fc.stringMatching(/^[^:]{0,16}$/).map((s) => {
          const header = `Basic ${b64(s)}`;
          return {
            variant,
            header,
            description: `Basic with ${JSON.stringify(s)} (no colon)`,
            curlAuth: ["-H", shq(`Authorization: ${header}`)],
          };
        }),
      );
    case "wrong-user":
      return fc
        .string({ maxLength: 16 })
        .filter((u) => u !== c.username && !u.includes(":"))
        .map((user) =>
          secret({
            variant,
            header: `Basic ${b64(`${user}:${c.password}`)}`,
            description: `Basic with username ${JSON.stringify(user)} (wrong) and the valid password`,
            curlAuth: headerFromShell("Basic", `printf '%s:%s' ${shq(user)} "$IDP_PASSWORD"`),
          }),
        );
    case "wrong-password":
      return fc
        .string({ maxLength: 16 })
        .filter((p) => p !== c.password)
        .map((password) =>
          secret({
            variant,
            header: `Basic ${b64(`${c.username}:${password}`)}`,
            description: `Basic with the valid username and password ${JSON.stringify(password)} (wrong)`,
            curlAuth: headerFromShell("Basic", `printf '%s:%s' "$IDP_USERNAME" ${shq(password)}`),
          }),
        );
  }
}
