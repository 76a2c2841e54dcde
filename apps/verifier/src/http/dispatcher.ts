import { rootCertificates } from "node:tls";
import { ProxyAgent } from "undici";
import { H1Pool } from "./h1-pool.ts";
import { proxyFor } from "./proxy.ts";
import { send, type Transport } from "./send.ts";
import type { ProxySettings, TlsSettings } from "./settings.ts";

/**
 * Keep-alive connections to one origin: direct ones (h1-pool.ts), or the proxy the environment
 * names for it (curl's reading of HTTPS_PROXY/HTTP_PROXY/NO_PROXY, through undici's ProxyAgent),
 * with the run's TLS settings. Redirects are never followed.
 */
export function transportFor(
  origin: string,
  options: {
    readonly connections: number;
    readonly timeoutMs: number;
    readonly tls?: TlsSettings;
    readonly proxy: ProxySettings;
  },
): Transport {
  const tls = options.tls;
  const proxy = proxyFor(new URL(origin), options.proxy);
  if (!proxy)
    return new H1Pool(origin, { connections: options.connections, ...(tls ? { tls } : {}) });
  const agent = new ProxyAgent({
    uri: proxy,
    requestTls: {
      timeout: options.timeoutMs,
      // A CA of our own replaces Node's roots for that pool: keep the system's beside it.
      ...(tls?.ca ? { ca: [...rootCertificates, tls.ca] } : {}),
      ...(tls?.cert ? { cert: tls.cert } : {}),
      ...(tls?.key ? { key: tls.key } : {}),
      ...(tls?.insecure ? { rejectUnauthorized: false } : {}),
    },
    connections: options.connections,
    keepAliveTimeout: 4_000,
  });
  return {
    send: (req, sendOptions) => send(agent, req, sendOptions),
    destroy: () => agent.destroy(),
  };
}
