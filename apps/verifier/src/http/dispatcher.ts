import { rootCertificates } from "node:tls";
import { type Dispatcher, Pool, ProxyAgent } from "undici";
import { proxyFor } from "./proxy.ts";
import type { ProxySettings, TlsSettings } from "./settings.ts";

/**
 * Keep-alive connections to one origin: a pool, or the proxy the environment names for it (curl's
 * reading of HTTPS_PROXY/HTTP_PROXY/NO_PROXY), with the run's TLS settings. Redirects are never
 * followed (undici's dispatch does not).
 */
export function dispatcherFor(
  origin: string,
  options: {
    readonly connections: number;
    readonly timeoutMs: number;
    readonly tls?: TlsSettings;
    readonly proxy: ProxySettings;
  },
): Dispatcher {
  const tls = options.tls;
  const connect = {
    timeout: options.timeoutMs,
    // A CA of our own replaces Node's roots for that pool: keep the system's beside it.
    ...(tls?.ca ? { ca: [...rootCertificates, tls.ca] } : {}),
    ...(tls?.cert ? { cert: tls.cert } : {}),
    ...(tls?.key ? { key: tls.key } : {}),
    ...(tls?.insecure ? { rejectUnauthorized: false } : {}),
  };
  const proxy = proxyFor(new URL(origin), options.proxy);
  return proxy
    ? new ProxyAgent({
        uri: proxy,
        requestTls: connect,
        connections: options.connections,
        keepAliveTimeout: 4_000,
      })
    : new Pool(origin, {
        connections: options.connections,
        pipelining: 1,
        connect,
        keepAliveTimeout: 4_000,
      });
}
