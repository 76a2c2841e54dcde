import type { BrokerAuth } from "../config/parse.ts";
import { authorizationOf } from "../config/parse.ts";
import { VerifyError } from "../errors.ts";
import type { ProxySettings, TlsSettings } from "../http/settings.ts";
import { transportFor } from "../http/transport.ts";
import type { Secrets } from "../secrets.ts";

const REASONS: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
};

/** What to change when a broker refused the login. */
export function brokerRefusalHint(status: number, auth: BrokerAuth | undefined): string {
  const basic = "--broker-username/--broker-password or PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD";
  if (status === 401)
    return auth
      ? " (the broker refused the login: check the broker credentials)"
      : ` (no broker credentials were given: ${basic}, or a token for PactFlow)`;
  if (status === 400 && auth && "token" in auth)
    return ` (the open-source Pact Broker takes basic auth, not a token: ${basic})`;
  if (status === 403) return " (the broker user may not read this)";
  return "";
}

/** `401 Unauthorized (no broker credentials were given: ...)`. */
export const refusalText = (status: number, auth: BrokerAuth | undefined): string =>
  `${status}${REASONS[status] ? ` ${REASONS[status]}` : ""}${brokerRefusalHint(status, auth)}`;

/**
 * Before the first request to the provider: the broker answers its index with this login. A
 * broker that cannot be reached or refuses the login is exit 2 at once, saying what to change.
 */
export async function checkBrokerLogin(
  url: string,
  auth: BrokerAuth | undefined,
  options: {
    readonly timeoutMs: number;
    readonly secrets: Secrets;
    readonly proxy?: ProxySettings;
    /** The run's TLS settings (`--ca-cert`, `--insecure`, client certificate): the broker's too. */
    readonly tls?: TlsSettings;
  },
): Promise<void> {
  const u = new URL(url);
  const pool = transportFor(u.origin, {
    connections: 1,
    proxy: options.proxy ?? {},
    ...(options.tls ? { tls: options.tls } : {}),
  });
  try {
    const res = await pool.send(
      {
        method: "GET",
        path: `${u.pathname.replace(/\/+$/, "")}/`,
        headers: {
          accept: "application/hal+json",
          ...(auth ? { authorization: authorizationOf(auth) } : {}),
        },
      },
      { timeoutMs: options.timeoutMs, maxBodyBytes: 64 * 1024 },
    );
    if (res.kind === "transport-error")
      throw new VerifyError(
        "E_PACT_UNREADABLE",
        `cannot reach the Pact Broker at ${url}: ${res.code}: ${options.secrets.scrub(res.message)}`,
      );
    if (res.status >= 400)
      throw new VerifyError(
        "E_PACT_UNREADABLE",
        `the Pact Broker at ${url} answered ${refusalText(res.status, auth)}`,
      );
  } finally {
    await pool.destroy();
  }
}
