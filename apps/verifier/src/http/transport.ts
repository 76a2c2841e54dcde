import { H1Pool, type StrayBytes } from "./h1-pool.ts";
import { proxyFor } from "./proxy.ts";
import type { Transport } from "./send.ts";
import type { ProxySettings, TlsSettings } from "./settings.ts";

/**
 * Keep-alive connections to one origin, direct or through the proxy the environment names for it
 * (curl's reading of HTTPS_PROXY/HTTP_PROXY/NO_PROXY: a CONNECT tunnel for https, absolute-form
 * for http), with the run's TLS settings. One set of header and framing rules on every path
 * (h1-pool.ts, h1-parser.ts). Redirects are never followed.
 */
export function transportFor(
  origin: string,
  options: {
    readonly connections: number;
    readonly tls?: TlsSettings;
    readonly proxy: ProxySettings;
    readonly onStray?: (stray: StrayBytes) => void;
  },
): Transport {
  const proxy = proxyFor(new URL(origin), options.proxy);
  return new H1Pool(origin, {
    connections: options.connections,
    ...(options.tls ? { tls: options.tls } : {}),
    ...(proxy ? { proxy } : {}),
    ...(options.onStray ? { onStray: options.onStray } : {}),
  });
}
