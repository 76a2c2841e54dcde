import { httpUrl } from "@idp/contracts/cli";
import { z } from "zod";
import type { Credentials } from "../rules/auth.ts";
import { base64, splitUserInfo } from "../secrets.ts";
import { type From, rule } from "./rule.ts";

// The provider under test (conformance.md §5): the embedded reference provider, or one at
// --provider-url with its Basic login (IDP_USERNAME/IDP_PASSWORD, --username/--password, or the
// URL's user-info, split off where it is placed) and its state-change URL.

const LOGIN_OPTIONS = "--username/--password or IDP_USERNAME/IDP_PASSWORD";

/** A URL whose user-info is a login: the address without it, and the login. */
const urlWithLogin = (flag: string) => httpUrl(flag).transform(splitUserInfo);

const flags = z.object({
  "provider-url": urlWithLogin("--provider-url").optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  "provider-states-url": urlWithLogin("--provider-states-url").optional(),
});

/** The login as given: by the flags (or their variables), else the provider URL's user-info. */
const loginOf = (v: z.output<typeof flags>) => ({
  username: v.username ?? v["provider-url"]?.credentials?.username,
  password: v.password ?? v["provider-url"]?.credentials?.password,
});

/** The state-change URL, and the Authorization its user-info makes. */
function statesOf(v: z.output<typeof flags>) {
  const states = v["provider-states-url"];
  if (!states) return {};
  const login = states.credentials;
  return {
    states: {
      url: states.url,
      ...(login ? { authorization: `Basic ${base64(`${login.username}:${login.password}`)}` } : {}),
    },
  };
}

/** What the flags give, gathered: the address, the login from wherever it came, the states. */
const gather = (v: z.output<typeof flags>) => ({
  url: v["provider-url"]?.url.replace(/\/+$/, ""),
  login: loginOf(v),
  ...statesOf(v),
});
type Gathered = ReturnType<typeof gather>;

/** No address (the embedded provider), or an address with a whole login. */
const reachable = (
  g: Gathered,
): g is (Gathered & { url: undefined }) | (Gathered & { url: string; login: Credentials }) =>
  g.url === undefined || (g.login.username !== undefined && g.login.password !== undefined);

/** `--provider-url` and its login and state URL, or the embedded provider: `{ provider }`. */
export const providerSchema = (from: From) =>
  flags
    .check(
      rule(
        (v) =>
          !v["provider-url"]?.credentials || (v.username === undefined && v.password === undefined),
        `the provider credentials are given twice: in the user-info of --provider-url and in ${LOGIN_OPTIONS}`,
      ),
      rule(
        (v) => (loginOf(v).username === undefined) === (loginOf(v).password === undefined),
        (v) =>
          `give both a username and a password (${LOGIN_OPTIONS}): only the ${loginOf(v).username === undefined ? "password" : "username"} is set`,
      ),
      rule(
        (v) => !loginOf(v).username?.includes(":"),
        `the username (${from.username ?? "the user-info of --provider-url"}) must not contain ':' (Basic credentials are user:password)`,
      ),
      rule(
        (v) => v["provider-states-url"] === undefined || v["provider-url"] !== undefined,
        "--provider-states-url needs --provider-url (the embedded provider has its own)",
      ),
    )
    .transform(gather)
    .refine(reachable, {
      error:
        "--provider-url needs credentials: IDP_USERNAME and IDP_PASSWORD, or --username and --password",
    })
    .transform((g) => ({
      provider:
        g.url === undefined
          ? { kind: "embedded" as const }
          : {
              kind: "url" as const,
              url: g.url,
              credentials: g.login,
              ...(g.states ? { states: g.states } : {}),
            },
    }));

/** The embedded reference provider, or a provider at a URL with its credentials and state URL. */
export type ProviderTarget = z.output<ReturnType<typeof providerSchema>>["provider"];
