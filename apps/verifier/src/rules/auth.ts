import fc from "fast-check";
import { shq } from "../http/exchange.ts";
import { base64, type Secrets } from "../secrets.ts";
import type { Credentials } from "./types.ts";

/** The Basic-auth matrix of R1: every way a request can lack acceptable credentials. */
export const AUTH_VARIANTS = [
  "no-header",
  "other-scheme",
  "bad-base64",
  "no-colon",
  "wrong-user",
  "wrong-password",
] as const;
export type AuthVariant = (typeof AUTH_VARIANTS)[number];

/** The credentials of one request, in plain words for reports. */
export const AUTH_VARIANT_WORDS: { readonly [V in AuthVariant]: string } = {
  "no-header": "no Authorization header",
  "other-scheme": "a scheme other than Basic",
  "bad-base64": "Basic with text that is not base64",
  "no-colon": "Basic without a colon between user and password",
  "wrong-user": "Basic with a wrong username",
  "wrong-password": "Basic with a wrong password",
};

/** The Authorization header of one request, and how to rebuild it without printing a secret. */
export interface AuthSpec {
  readonly variant: "valid" | AuthVariant;
  readonly header: string | undefined;
  readonly description: string;
  /** curl arguments; secrets come from $IDP_USERNAME / $IDP_PASSWORD. */
  readonly curlAuth: readonly string[];
}

const headerFromShell = (scheme: string, printf: string) => [
  "-H",
  `"Authorization: ${scheme} $(${printf} | base64 | tr -d '\\n')"`,
];

export function validAuth(c: Credentials): AuthSpec {
  return {
    variant: "valid",
    header: `Basic ${base64(`${c.username}:${c.password}`)}`,
    description: "valid credentials",
    curlAuth: ["-u", `"$IDP_USERNAME:$IDP_PASSWORD"`],
  };
}

const NON_BASE64 = ["!", "*", "@", "%", "~", "?", "#", "$", "-", "_", "."];

/**
 * The R1 matrix. Every variant that carries part of the real credentials registers what it sends
 * (raw and encoded) with `secrets`, so an echoing provider cannot leak it into a report.
 */
export function authVariantArb(
  variant: AuthVariant,
  c: Credentials,
  secrets: Secrets,
): fc.Arbitrary<AuthSpec> {
  switch (variant) {
    case "no-header":
      return fc.constant({
        variant,
        header: undefined,
        description: "no Authorization header",
        curlAuth: [],
      });
    case "other-scheme":
      return fc.constantFrom("Bearer", "Digest", "Negotiate", "Token").map((scheme) => ({
        variant,
        header: `${scheme} ${base64(`${c.username}:${c.password}`)}`,
        description: `scheme ${scheme} (not Basic) with the valid user:password token`,
        curlAuth: headerFromShell(scheme, `printf '%s' "$IDP_USERNAME:$IDP_PASSWORD"`),
      }));
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
    case "no-colon": {
      const joined = `${c.username}${c.password}`;
      secrets.add(joined, "password");
      secrets.add(base64(joined), "password");
      return fc.oneof(
        fc.constant({
          variant,
          header: `Basic ${base64(joined)}`,
          description: "Basic with the valid username and password joined without a colon",
          curlAuth: headerFromShell("Basic", `printf '%s' "$IDP_USERNAME$IDP_PASSWORD"`),
        }),
        fc.stringMatching(/^[^:]{0,16}$/).map((s) => {
          const header = `Basic ${base64(s)}`;
          return {
            variant,
            header,
            description: `Basic with ${JSON.stringify(s)} (no colon)`,
            curlAuth: ["-H", shq(`Authorization: ${header}`)],
          };
        }),
      );
    }
    case "wrong-user":
      return fc
        .string({ maxLength: 16 })
        .map((u) => (u.includes(":") ? u.replaceAll(":", "") : u))
        .map((user) => (user === c.username ? `${user}x` : user))
        .map((user) => {
          secrets.addBasic(user, c.password, "password");
          return {
            variant,
            header: `Basic ${base64(`${user}:${c.password}`)}`,
            description: `Basic with username ${JSON.stringify(user)} (wrong) and the valid password`,
            curlAuth: headerFromShell("Basic", `printf '%s:%s' ${shq(user)} "$IDP_PASSWORD"`),
          };
        });
    case "wrong-password":
      return fc
        .string({ maxLength: 16 })
        .map((p) => (p === c.password ? `${p}x` : p))
        .map((password) => ({
          variant,
          header: `Basic ${base64(`${c.username}:${password}`)}`,
          description: `Basic with the valid username and password ${JSON.stringify(password)} (wrong)`,
          curlAuth: headerFromShell("Basic", `printf '%s:%s' "$IDP_USERNAME" ${shq(password)}`),
        }));
  }
}
