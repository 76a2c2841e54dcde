import { z } from "zod";
import type { BrokerAuth, BrokerSource } from "../config/parse.ts";
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

/** The provider every pact of the toolkit names. */
const PROVIDER = "idp-service";

const ForVerification = z.object({
  _embedded: z.object({ pacts: z.array(z.unknown()) }).optional(),
});

/**
 * Before the first request to the provider: the broker answers its index with this login, and its
 * pacts-for-verification resource with at least one pact for this run's selection (conformance.md
 * §5). A broker that cannot be reached or refuses the login, or selectors that select no pact, are
 * exit 2 at once, saying what to change.
 */
export async function checkBrokerSelection(
  broker: BrokerSource,
  options: {
    readonly timeoutMs: number;
    readonly secrets: Secrets;
    readonly proxy?: ProxySettings;
    /** The run's TLS settings (`--ca-cert`, `--insecure`, client certificate): the broker's too. */
    readonly tls?: TlsSettings;
  },
): Promise<void> {
  const { url, auth } = broker;
  const u = new URL(url);
  const base = u.pathname.replace(/\/+$/, "");
  const pool = transportFor(u.origin, {
    connections: 1,
    proxy: options.proxy ?? {},
    ...(options.tls ? { tls: options.tls } : {}),
  });
  const headers = {
    accept: "application/hal+json",
    ...(auth ? { authorization: authorizationOf(auth) } : {}),
  };
  const ask = async (method: string, path: string, body?: string) => {
    const res = await pool.send(
      {
        method,
        path,
        headers: body ? { ...headers, "content-type": "application/json" } : headers,
        ...(body ? { body } : {}),
      },
      { timeoutMs: options.timeoutMs, maxBodyBytes: 4 * 1024 * 1024 },
    );
    if (res.kind === "transport-error")
      throw new VerifyError(
        "E_PACT_UNREADABLE",
        `cannot reach the Pact Broker at ${url}: ${res.code}: ${options.secrets.scrub(res.message)}`,
      );
    if (res.status >= 400 && res.status !== 404)
      throw new VerifyError(
        "E_PACT_UNREADABLE",
        `the Pact Broker at ${url} answered ${method} ${path} with ${refusalText(res.status, auth)}`,
      );
    return res;
  };
  try {
    await ask("GET", `${base}/`);
    const selection = {
      consumerVersionSelectors: broker.consumerVersionSelectors,
      includePendingStatus: broker.enablePending,
      ...(broker.includeWipPactsSince ? { includeWipPactsSince: broker.includeWipPactsSince } : {}),
      ...(broker.providerBranch ? { providerVersionBranch: broker.providerBranch } : {}),
    };
    const res = await ask(
      "POST",
      `${base}/pacts/provider/${PROVIDER}/for-verification`,
      JSON.stringify(selection),
    );
    let count = 0;
    if (res.status !== 404) {
      const parsed = ForVerification.safeParse(safeJson(res.body.toString("utf8")));
      if (!parsed.success)
        throw new VerifyError(
          "E_PACT_UNREADABLE",
          `the Pact Broker at ${url} answered its pacts for verification with something else than {"_embedded": {"pacts": [...]}}`,
        );
      count = parsed.data._embedded?.pacts.length ?? 0;
    }
    if (count === 0)
      throw new VerifyError(
        "E_NO_PACTS",
        `the selectors select no pact: the Pact Broker at ${url} has no pact for ${PROVIDER} matching --consumer-version-selectors ${JSON.stringify(broker.consumerVersionSelectors)}${broker.includeWipPactsSince ? ` nor a work-in-progress pact since ${broker.includeWipPactsSince}` : ""}; check the selectors (a branch or environment name), or publish the consumers' pacts first`,
      );
  } finally {
    await pool.destroy();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
