import { CliError } from "./flags.ts";

// One reading of the Pact Broker's settings for every toolkit CLI (idp-pacts, idp-verify): the same
// values mean the same thing in both. The address is an absolute http(s) URL; user-info in it is
// the basic-auth login (split off the URL, never printed); a login is a bearer token (PactFlow) or
// a username and password (the open-source Pact Broker), never both, never half of one, and never
// given twice (in the URL and beside it). Blank values count as unset (a CI secret that is not set
// arrives as "").

/** How to log in to the broker. */
export type BrokerLogin =
  | { readonly token: string }
  | { readonly username: string; readonly password: string };

/** The broker's address (without user-info or trailing slash) and its login, if any. */
export interface BrokerTarget {
  readonly url: string;
  readonly login?: BrokerLogin;
}

/** The settings as given, and the names they were given by (flags or variables), for messages. */
export interface BrokerInput {
  readonly url: string | undefined;
  readonly token?: string | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly names: {
    readonly url: string;
    readonly token: string;
    readonly username: string;
    readonly password: string;
  };
}

/** `undefined` for a value that is absent or only blanks. */
export const blankAsUnset = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === "" ? undefined : v;

/**
 * The broker's address and login from the settings given, read alike by every toolkit CLI (see
 * above); `undefined` when no address is given.
 * @throws CliError naming the flag or variable at fault (never its value: it may be a secret).
 */
export function brokerTarget(input: BrokerInput): BrokerTarget | undefined {
  const n = input.names;
  const raw = blankAsUnset(input.url);
  const token = blankAsUnset(input.token);
  const username = blankAsUnset(input.username);
  const password = blankAsUnset(input.password);
  if (raw === undefined) return undefined;
  // Never echoed: the text may carry the login.
  const parsed = URL.canParse(raw.trim()) ? new URL(raw.trim()) : undefined;
  if (!parsed || !/^https?:$/.test(parsed.protocol))
    throw new CliError(`${n.url} is not an absolute http(s) URL`);
  const userInfo =
    parsed.username !== "" || parsed.password !== ""
      ? {
          username: decodeURIComponent(parsed.username),
          password: decodeURIComponent(parsed.password),
        }
      : undefined;
  parsed.username = "";
  parsed.password = "";
  const url = parsed.href.replace(/\/+$/, "");
  if (userInfo && (token || username || password))
    throw new CliError(
      `the broker credentials are given twice: in the user-info of ${n.url} and in ${token ? n.token : `${n.username}/${n.password}`}`,
    );
  if (token && (username || password))
    throw new CliError(
      `give either ${n.token} (PactFlow) or ${n.username} and ${n.password} (the open-source Pact Broker), not both`,
    );
  if ((username === undefined) !== (password === undefined))
    throw new CliError(
      `${username === undefined ? n.username : n.password} is not set (basic auth needs both ${n.username} and ${n.password})`,
    );
  const login: BrokerLogin | undefined = token
    ? { token }
    : username !== undefined && password !== undefined
      ? { username, password }
      : userInfo;
  return { url, ...(login ? { login } : {}) };
}

/** `Basic base64(user:password)` or `Bearer token`: a login as an Authorization value. */
export function brokerAuthorization(login: BrokerLogin): string {
  return "token" in login
    ? `Bearer ${login.token}`
    : `Basic ${Buffer.from(`${login.username}:${login.password}`, "utf8").toString("base64")}`;
}
