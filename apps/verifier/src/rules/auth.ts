import fc from "fast-check";
import { shq } from "../http/exchange.ts";
import { base64, type Secrets } from "../secrets.ts";

/** The provider's Basic credentials (IDP_USERNAME / IDP_PASSWORD). */
export interface Credentials {
  readonly username: string;
  readonly password: string;
}

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

/**
 * The scheme of the variants that send Basic: any case, since auth-scheme is case-insensitive
 * (RFC 9110 §11.1): `basic` is Basic, so a variant never leans on the case of the word to be
 * refused. Shrinks to `Basic`.
 */
const BASIC_SCHEMES = ["Basic", "basic", "BASIC", "bASIC"] as const;
const basicScheme = fc.constantFrom(...BASIC_SCHEMES);

/** Schemes other than Basic (in no case is one of them Basic). */
export const OTHER_SCHEMES = ["Bearer", "Digest", "Negotiate", "Token"] as const;

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

// Built once per thread, not per matrix: fast-check takes ~3 ms to build a stringMatching (the
// slices of its string arbitrary), and the matrix is built for each operation of every check that
// sends bad credentials (R1's six, R2, R3, R6): ~80 ms of the case thread's start. Arbitraries are
// immutable, so sharing one changes nothing they generate.
const BASE64_RUN = fc.stringMatching(/^[A-Za-z0-9+/]{0,12}$/);
const NO_COLON_TEXT = fc.stringMatching(/^[^:]{0,16}$/);

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
      return fc.constantFrom(...OTHER_SCHEMES).map((scheme) => ({
        variant,
        header: `${scheme} ${base64(`${c.username}:${c.password}`)}`,
        description: `scheme ${scheme} (not Basic) with the valid user:password token`,
        curlAuth: headerFromShell(scheme, `printf '%s' "$IDP_USERNAME:$IDP_PASSWORD"`),
      }));
    case "bad-base64":
      return fc
        .tuple(basicScheme, BASE64_RUN, fc.constantFrom(...NON_BASE64), BASE64_RUN)
        .map(([scheme, a, bad, z]) => {
          const header = `${scheme} ${a}${bad}${z}`;
          return {
            variant,
            header,
            description: `${scheme} with text that is not base64`,
            curlAuth: ["-H", shq(`Authorization: ${header}`)],
          };
        });
    case "no-colon": {
      registerAuthSecrets(c, secrets);
      const joined = joinedOf(c);
      return fc.oneof(
        basicScheme.map((scheme) => ({
          variant,
          header: `${scheme} ${base64(joined.value)}`,
          description: `${scheme} with the valid username and ${joined.words} joined without a colon`,
          curlAuth: headerFromShell(scheme, `printf '%s' "$IDP_USERNAME${joined.shell}"`),
        })),
        fc.tuple(basicScheme, NO_COLON_TEXT).map(([scheme, s]) => {
          const header = `${scheme} ${base64(s)}`;
          return {
            variant,
            header,
            description: `${scheme} with ${JSON.stringify(s)} (no colon)`,
            curlAuth: ["-H", shq(`Authorization: ${header}`)],
          };
        }),
      );
    }
    case "wrong-user":
      return fc
        .tuple(basicScheme, nearMiss(c.username, "IDP_USERNAME", false))
        .map(([scheme, miss]) => wrongUser(c, scheme, miss));
    case "wrong-password":
      return fc
        .tuple(basicScheme, nearMiss(c.password, "IDP_PASSWORD", true))
        .map(([scheme, miss]) => wrongPassword(c, scheme, miss));
  }
}

// The wrong user sends the real password: each exchange's record scrubs that request's own
// credentials (raw and encoded), so nothing is registered per case.
const wrongUser = (c: Credentials, scheme: string, { value: user, shell }: Miss): AuthSpec => ({
  variant: "wrong-user",
  header: `${scheme} ${base64(`${user}:${c.password}`)}`,
  description: `${scheme} with a wrong username (${shell.words}) and the valid password`,
  curlAuth: headerFromShell(scheme, `printf '%s:%s' ${shell.text} "$IDP_PASSWORD"`),
});

// A near miss holds part of the password: never printed (curl builds it from $IDP_PASSWORD),
// scrubbed from its own exchange if echoed.
const wrongPassword = (c: Credentials, scheme: string, { value, shell }: Miss): AuthSpec => ({
  variant: "wrong-password",
  header: `${scheme} ${base64(`${c.username}:${value}`)}`,
  description: `${scheme} with the valid username and a wrong password (${shell.words})`,
  curlAuth: headerFromShell(scheme, `printf '%s:%s' "$IDP_USERNAME" ${shell.text}`),
});

/**
 * The near misses R1 sends first, every run the same (one request per operation each), so a
 * provider that accepts one is caught on every seed: the right value with text appended (after a
 * colon too, as `user:password:x`: the password ends at the end, never at a second colon), with a
 * space before or after it, in another case, cut short, and empty. Never the right value.
 */
export function authExamples(variant: AuthVariant, c: Credentials): AuthSpec[] {
  if (variant === "wrong-user")
    return fixedMisses(c.username, "IDP_USERNAME", false).map((m) => wrongUser(c, "Basic", m));
  if (variant === "wrong-password")
    return fixedMisses(c.password, "IDP_PASSWORD", true).map((m) => wrongPassword(c, "Basic", m));
  return [];
}

/**
 * The user and what the no-colon variant joins to it: the password up to its first colon (a
 * password may hold colons; the join must not), as a value, as shell text and in words.
 */
function joinedOf(c: Credentials) {
  const colon = c.password.indexOf(":");
  return colon < 0
    ? { value: `${c.username}${c.password}`, shell: "$IDP_PASSWORD", words: "password" }
    : {
        value: `${c.username}${c.password.slice(0, colon)}`,
        shell: `\${IDP_PASSWORD:0:${colon}}`,
        words: "the password up to its first colon",
      };
}

/**
 * Registers every credential value the R1 matrix sends beyond the run's own (the no-colon join,
 * raw and encoded): where its arbitrary is built, and in a thread that sends cases it did not
 * generate (engine/case-feed.ts).
 */
export function registerAuthSecrets(c: Credentials, secrets: Secrets): void {
  const joined = joinedOf(c).value;
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
 * Wrong values that sit next to the right one, where real comparisons go wrong, and any other
 * string: {@link fixedMisses}, and the same kinds with generated text (appended, after a colon,
 * cut at any length). Never the right value. A username never holds a colon (it would end there:
 * another variant); a password may (RFC 7617 splits at the first colon).
 */
function nearMiss(right: string, envVar: string, colons: boolean): fc.Arbitrary<Miss> {
  const v = `"$${envVar}"`;
  const noColon = (x: string) => (colons ? x : x.replaceAll(":", ""));
  const other = fc.string({ maxLength: 16 }).map((x): Miss => {
    const value = noColon(x);
    const fixed = value === right ? `${value}x` : value;
    return { value: fixed, shell: { text: shq(fixed), words: JSON.stringify(fixed) } };
  });
  const appended = (sep: string) =>
    fc
      .string({ minLength: sep ? 0 : 1, maxLength: 8 })
      .map((x) => followedBy(right, v, `${sep}${noColon(x) || (sep ? "" : "x")}`));
  const misses = [
    other,
    appended(""),
    ...(colons ? [appended(":")] : []),
    fc.constantFrom(...spaced(right, v)),
    fc.integer({ min: 0, max: Math.max(0, right.length - 1) }).map((n) => cut(right, envVar, n)),
  ];
  const swapped = otherCase(right, v);
  if (swapped) misses.push(fc.constant(swapped));
  // Only an empty right value could be cut to itself (configuration refuses one).
  return fc.oneof(...misses).filter((m) => m.value !== right);
}

/** The near misses of {@link authExamples}, each kind once. */
function fixedMisses(right: string, envVar: string, colons: boolean): Miss[] {
  const v = `"$${envVar}"`;
  const misses = [
    ...(colons ? [followedBy(right, v, ":x")] : []),
    followedBy(right, v, "x"),
    ...spaced(right, v),
    otherCase(right, v),
    right.length > 0 ? cut(right, envVar, right.length - 1) : undefined,
    right.length > 1 ? cut(right, envVar, 0) : undefined,
  ];
  return misses.filter((m): m is Miss => m !== undefined && m.value !== right);
}

/** The right value with `x` appended (`v`: the right value as shell text). */
const followedBy = (right: string, v: string, x: string): Miss => ({
  value: `${right}${x}`,
  shell: { text: `${v}${shq(x)}`, words: `the right one followed by ${JSON.stringify(x)}` },
});

/** The right value with a space before it, and after it (what a trimming comparison accepts). */
const spaced = (right: string, v: string): Miss[] => [
  { value: ` ${right}`, shell: { text: `' '${v}`, words: "the right one after a space" } },
  { value: `${right} `, shell: { text: `${v}' '`, words: "the right one and a space" } },
];

/** Its first `n` characters (UTF-16 units, as the shell reads them in a UTF-8 locale alike). */
const cut = (right: string, envVar: string, n: number): Miss => ({
  value: right.slice(0, n),
  shell: { text: `"\${${envVar}:0:${n}}"`, words: `the first ${n} of its characters` },
});

/** Every letter in the other case, if that changes anything. */
function otherCase(right: string, v: string): Miss | undefined {
  const value = swapCase(right);
  return value === right
    ? undefined
    : {
        value,
        shell: {
          text: `"$(printf '%s' ${v} | tr 'a-zA-Z' 'A-Za-z')"`,
          words: "the right one in other letter case",
        },
      };
}
