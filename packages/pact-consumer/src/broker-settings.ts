import { type BrokerLogin, type BrokerTarget, brokerTarget, CliError } from "@idp/contracts/cli";
import { PactsCliError } from "./errors.ts";

export {
  type BrokerInput,
  type BrokerLogin,
  type BrokerTarget,
  brokerAuthorization,
  brokerTarget,
} from "@idp/contracts/cli";

// The Pact Broker's settings as idp-pacts reads them from the environment: the same reading as
// idp-verify's (`brokerTarget` of @idp/contracts/cli, which both depend on).

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

type Env = Readonly<Record<string, string | undefined>>;

/** Where the Pact Broker is and how to log in (from the environment: `readBrokerSettings`). */
export interface BrokerSettings {
  readonly baseUrl: string;
  /** Which credential the CLI will be given; `none` for a broker without auth. */
  readonly auth: "token" | "basic" | "none";
  readonly login?: BrokerLogin;
}

/** The broker's settings as given (the values of PACT_BROKER_*), before they are read. */
export interface BrokerValues {
  readonly url?: string | undefined;
  readonly token?: string | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
}

/**
 * Reads PACT_BROKER_BASE_URL and PACT_BROKER_TOKEN or PACT_BROKER_USERNAME/PASSWORD (or the basic
 * login in the URL's user-info), as idp-verify reads them (`brokerTarget`); neither is fine (a
 * broker without authentication).
 * @throws CliError naming the variable at fault.
 */
export function brokerSettingsOf(values: BrokerValues): BrokerSettings {
  const target = brokerTarget({ ...values, url: values.url, names: BROKER_ENV_NAMES });
  if (target === undefined)
    throw new CliError(
      "PACT_BROKER_BASE_URL is not set (the Pact Broker's address, e.g. https://pact-broker.example.com)",
    );
  const login = target.login;
  return {
    baseUrl: target.url,
    auth: login === undefined ? "none" : "token" in login ? "token" : "basic",
    ...(login ? { login } : {}),
  };
}

/**
 * The broker's settings from the environment's PACT_BROKER_* variables (`brokerSettingsOf`).
 * @throws PactsCliError E_CONFIG naming the variable at fault.
 */
export function readBrokerSettings(env: Env): BrokerSettings {
  try {
    return brokerSettingsOf({
      url: env.PACT_BROKER_BASE_URL,
      token: env.PACT_BROKER_TOKEN,
      username: env.PACT_BROKER_USERNAME,
      password: env.PACT_BROKER_PASSWORD,
    });
  } catch (cause) {
    if (cause instanceof CliError) throw new PactsCliError("E_CONFIG", cause.message, { cause });
    throw cause;
  }
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
