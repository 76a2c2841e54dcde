import { CliError } from "@idp/contracts/cli";
import { PactsCliError } from "./errors.ts";

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

const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v);

/** Reads the broker's settings (see above); `undefined` when no address is given. */
export function brokerTarget(input: BrokerInput): BrokerTarget | undefined {
  const n = input.names;
  const raw = blank(input.url);
  const token = blank(input.token);
  const username = blank(input.username);
  const password = blank(input.password);
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

/** The names of the broker's environment variables (idp-pacts reads only these). */
export const BROKER_ENV_NAMES = {
  url: "PACT_BROKER_BASE_URL",
  token: "PACT_BROKER_TOKEN",
  username: "PACT_BROKER_USERNAME",
  password: "PACT_BROKER_PASSWORD",
} as const;

/** The settings in the environment variables of the official pact-broker CLI (for a child process). */
export function brokerEnv(target: BrokerTarget): Record<string, string> {
  const login = target.login;
  return {
    PACT_BROKER_BASE_URL: target.url,
    ...(login && "token" in login ? { PACT_BROKER_TOKEN: login.token } : {}),
    ...(login && "username" in login
      ? { PACT_BROKER_USERNAME: login.username, PACT_BROKER_PASSWORD: login.password }
      : {}),
  };
}

/** `Basic base64(user:password)` or `Bearer token`: a login as an Authorization value. */
export function brokerAuthorization(login: BrokerLogin): string {
  return "token" in login
    ? `Bearer ${login.token}`
    : `Basic ${Buffer.from(`${login.username}:${login.password}`, "utf8").toString("base64")}`;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Where the Pact Broker is and how to log in (from the environment: `readBrokerSettings`). */
export interface BrokerSettings {
  readonly baseUrl: string;
  /** Which credential the CLI will be given; `none` for a broker without auth. */
  readonly auth: "token" | "basic" | "none";
  readonly login?: BrokerLogin;
}

/**
 * Reads PACT_BROKER_BASE_URL and PACT_BROKER_TOKEN or PACT_BROKER_USERNAME/PASSWORD (or the basic
 * login in the URL's user-info), as idp-verify reads them (`brokerTarget`); neither is fine (a
 * broker without authentication).
 */
export function readBrokerSettings(env: Env): BrokerSettings {
  if (blank(env.PACT_BROKER_BASE_URL) === undefined)
    throw new PactsCliError(
      "E_CONFIG",
      "PACT_BROKER_BASE_URL is not set (the Pact Broker's address, e.g. https://pact-broker.example.com)",
    );
  let target: BrokerTarget | undefined;
  try {
    target = brokerTarget({
      url: env.PACT_BROKER_BASE_URL,
      token: env.PACT_BROKER_TOKEN,
      username: env.PACT_BROKER_USERNAME,
      password: env.PACT_BROKER_PASSWORD,
      names: BROKER_ENV_NAMES,
    });
  } catch (cause) {
    if (cause instanceof CliError) throw new PactsCliError("E_CONFIG", cause.message, { cause });
    throw cause;
  }
  const login = (target as BrokerTarget).login;
  return {
    baseUrl: (target as BrokerTarget).url,
    auth: login === undefined ? "none" : "token" in login ? "token" : "basic",
    ...(login ? { login } : {}),
  };
}

/**
 * What to change when the broker refused a request with `status`, as one line; undefined for a
 * status that is not a settings problem. `writes`: the request would change the broker.
 */
export function brokerRefusal(
  status: number,
  settings: BrokerSettings,
  writes: boolean,
): string | undefined {
  if (status === 401) {
    const who =
      settings.auth === "none"
        ? "no credentials were given: set PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD (or PACT_BROKER_TOKEN for PactFlow)"
        : settings.auth === "basic"
          ? `check PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD${writes ? "; a read-only user cannot publish or record (use the broker's read-write user)" : ""}`
          : "check PACT_BROKER_TOKEN";
    return `the Pact Broker at ${settings.baseUrl} refused the request (401 Unauthorized): ${who}`;
  }
  if (status === 400 && settings.auth === "token")
    return `the Pact Broker at ${settings.baseUrl} refused the bearer token (400 Bad Request): the open-source Pact Broker takes basic auth only; set PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD instead of PACT_BROKER_TOKEN`;
  if (status === 403)
    return `the Pact Broker at ${settings.baseUrl} refused the request (403 Forbidden): these credentials may not ${writes ? "write" : "read"} there`;
  return undefined;
}
