import { ProxyAgent } from "undici";
import { H1Pool } from "./h1-pool.ts";
import { proxyFor } from "./proxy.ts";
import { type HttpRequest, type HttpResult, type SendOptions, send } from "./send.ts";
import { type ProxySettings, type TlsSettings, tlsOptions } from "./settings.ts";

/** Kept-alive connections to one origin that send requests and read their answers. */
export interface Transport {
  send(req: HttpRequest, options: SendOptions): Promise<HttpResult>;
  /** Closes every connection; requests still waiting fail. */
  destroy(): Promise<void>;
}

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
    requestTls: { timeout: options.timeoutMs, ...tlsOptions(tls) },
    connections: options.connections,
    keepAliveTimeout: 4_000,
  });
  return {
    send: (req, sendOptions) => send(agent, req, sendOptions),
    destroy: () => agent.destroy(),
  };
}
