import type { Config } from "../config/parse.ts";
import { VerifyError } from "../errors.ts";
import { checkBrokerSelection } from "../pact/broker.ts";
import { loadPacts, type PactFile } from "../pact/files.ts";
import { PACT_PREFIX } from "../pact/ids.ts";
import { selects } from "../plan.ts";
import type { RunContext } from "./context.ts";

/** The pacts to verify, read before anything starts; or why there are none. */
export interface Sources {
  readonly files: readonly PactFile[];
  readonly noPactsReason?: string;
}

const sourceText = (s: Config["pacts"][number]) => (s.kind === "path" ? s.path : s.url);

/**
 * Reads the pact files and URLs, or checks the broker's login and selection: an unreadable or empty
 * source, a broker that refuses the login, or selectors that select no pact, are exit 2 before the
 * first request to the provider.
 */
export async function readSources(run: RunContext): Promise<Sources> {
  const { config } = run;
  const pactWanted =
    config.checks.length === 0 ||
    config.checks.some((s) => selects(s, PACT_PREFIX) || s.startsWith(`${PACT_PREFIX}.`));
  if (!pactWanted) return { files: [] };
  refuseInsecureForPact(config);
  const net = {
    timeoutMs: config.timeoutMs,
    secrets: run.secrets,
    proxy: config.transport.proxy,
    tls: config.transport.tls,
  };
  if (config.broker) {
    await checkBrokerSelection(config.broker, net);
    return { files: [] };
  }
  let files: PactFile[];
  try {
    files = await loadPacts(config.pacts, {
      ...net,
      ...(config.pactUrlAuth ? { auth: config.pactUrlAuth } : {}),
    });
  } catch (e) {
    // Nobody asked for the repo's pacts/ by name: without any, the pact part is left out.
    if (!(config.defaultPacts && e instanceof VerifyError)) throw e;
    return { files: [], noPactsReason: `no pacts to verify: ${e.message}` };
  }
  if (files.every((f) => f.interactions.length === 0))
    throw new VerifyError(
      "E_NO_PACTS",
      `the pacts in ${config.pacts.map(sourceText).join(", ")} hold no interaction`,
    );
  return { files };
}

/**
 * Pact's core fetches from the broker (and pact URLs) itself. It takes a private CA (by
 * SSL_CERT_FILE) but does not switch certificate checks off for those requests, whatever
 * `disableSslVerification` says (it covers only its requests to the provider, which go through
 * idp-verify's guard here): `--insecure` would not reach it, so the combination is refused.
 */
function refuseInsecureForPact(config: Config): void {
  if (!config.transport.tls.insecure) return;
  const https = [
    ...(config.broker ? [config.broker.url] : []),
    ...config.pacts.flatMap((p) => (p.kind === "url" ? [p.url] : [])),
  ].find((u) => u.startsWith("https:"));
  if (https)
    throw new VerifyError(
      "E_CONFIG",
      `--insecure cannot reach Pact's own requests to ${https}: Pact's core (pact_ffi) does not switch certificate checks off for a broker or a pact URL, only for the provider; give that server's CA with --ca-cert (or NODE_EXTRA_CA_CERTS) instead`,
    );
}
