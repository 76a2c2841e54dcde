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
/** One kind of unacceptable credentials R1 sends (no header, other scheme, bad base64, ...). */
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
      registerAuthSecrets(c, secrets);
      const joined = joinedOf(c);
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
      // The wrong user sends the real password: each exchange's record scrubs that request's own
      // credentials (raw and encoded), so nothing is registered per case.
      return nearMiss(c.username, "IDP_USERNAME").map(({ value: user, shell }) => {
        return {
          variant,
          header: `Basic ${base64(`${user}:${c.password}`)}`,
          description: `Basic with a wrong username (${shell.words}) and the valid password`,
          curlAuth: headerFromShell("Basic", `printf '%s:%s' ${shell.text} "$IDP_PASSWORD"`),
        };
      });
    case "wrong-password":
      // A near miss holds part of the password: never printed (curl builds it from $IDP_PASSWORD),
      // scrubbed from its own exchange if echoed.
      return nearMiss(c.password, "IDP_PASSWORD").map(({ value: password, shell }) => {
        return {
          variant,
          header: `Basic ${base64(`${c.username}:${password}`)}`,
          description: `Basic with the valid username and a wrong password (${shell.words})`,
          curlAuth: headerFromShell("Basic", `printf '%s:%s' "$IDP_USERNAME" ${shell.text}`),
        };
      });
  }
}

/** The user and password joined without a colon (R1's no-colon variant). */
const joinedOf = (c: Credentials) => `${c.username}${c.password}`;

/**
 * Registers every credential value the R1 matrix sends beyond the run's own (the no-colon join,
 * raw and encoded): where its arbitrary is built, and in a thread that sends cases it did not
 * generate (engine/case-feed.ts).
 */
export function registerAuthSecrets(c: Credentials, secrets: Secrets): void {
  const joined = joinedOf(c);
  secrets.add(joined, "password");
  secrets.add(base64(joined), "password");
}

/** Another case of the same letters, if there is one. */
const swapCase = (s: string): string =>
  [...s].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join("");

interface Miss {
  readonly value: string;
  /** The value as shell text built from `$VAR` (never the secret itself), and in words. */
  readonly shell: { readonly text: string; readonly words: string };
}

/**
 * Wrong values that sit next to the right one, where real comparisons go wrong (a prefix match, a
 * case-insensitive one, a cut at the stored length), and any other string. Never the right value,
 * never a colon (that would be another variant).
 */
function nearMiss(right: string, envVar: string): fc.Arbitrary<Miss> {
  const v = `$${envVar}`;
  const other = fc.string({ maxLength: 16 }).map((x): Miss => {
    const value = x.replaceAll(":", "");
    const fixed = value === right ? `${value}x` : value;
    return { value: fixed, shell: { text: shq(fixed), words: JSON.stringify(fixed) } };
  });
  const longer = fc
    .string({ minLength: 1, maxLength: 8 })
    .map((x) => x.replaceAll(":", "") || "x")
    .map(
      (x): Miss => ({
        value: `${right}${x}`,
        shell: { text: `"${v}"${shq(x)}`, words: `the right one followed by ${JSON.stringify(x)}` },
      }),
    );
  const misses = [other, longer];
  if (right.length > 1)
    misses.push(
      fc.integer({ min: 0, max: right.length - 1 }).map(
        (n): Miss => ({
          value: right.slice(0, n),
          shell: { text: `"\${${envVar}:0:${n}}"`, words: `the first ${n} of its characters` },
        }),
      ),
    );
  if (swapCase(right) !== right)
    misses.push(
      fc.constant<Miss>({
        value: swapCase(right),
        shell: {
          text: `"$(printf '%s' "${v}" | tr 'a-zA-Z' 'A-Za-z')"`,
          words: "the right one in other letter case",
        },
      }),
    );
  return fc.oneof(...misses);
}
