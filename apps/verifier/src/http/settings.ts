import { rootCertificates } from "node:tls";

/**
 * How the verifier reaches a provider that sits behind a deployment's gateway (conformance.md §7):
 * plain data, so a conformance worker thread gets a copy with its job. The rate limiter's shared
 * state travels beside it (a SharedArrayBuffer), so every thread draws from one budget.
 */
export interface TransportSettings {
  /** `--rate-limit N/s|N/m`: at most this many requests per second, all parts of the run together. */
  readonly ratePerSecond?: number;
  /** `--header "Name: value"`: sent with every request to the provider and its state URL. */
  readonly headers: readonly (readonly [name: string, value: string])[];
  readonly tls: TlsSettings;
  /** `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY` as read from the environment (curl's reading). */
  readonly proxy: ProxySettings;
}

export interface TlsSettings {
  /** PEM: `--ca-cert` and `NODE_EXTRA_CA_CERTS`, trusted besides the system's roots. */
  readonly ca?: string;
  /** PEM: `--client-cert` and `--client-key` (mutual TLS). */
  readonly cert?: string;
  readonly key?: string;
  /** `--insecure`: no certificate check. */
  readonly insecure: boolean;
}

export interface ProxySettings {
  readonly httpProxy?: string;
  readonly httpsProxy?: string;
  readonly noProxy?: string;
}

/**
 * Node's TLS options for `tls`: a CA of our own is trusted beside the system's roots (Node's `ca`
 * alone would replace them), a client certificate, or no check at all.
 */
export function tlsOptions(tls: TlsSettings | undefined): {
  ca?: string[];
  cert?: string;
  key?: string;
  rejectUnauthorized?: false;
} {
  return {
    ...(tls?.ca ? { ca: [...rootCertificates, tls.ca] } : {}),
    ...(tls?.cert ? { cert: tls.cert } : {}),
    ...(tls?.key ? { key: tls.key } : {}),
    ...(tls?.insecure ? { rejectUnauthorized: false as const } : {}),
  };
}

/** No gateway settings: direct, verified TLS, no extra headers, no rate limit. */
export const DIRECT: TransportSettings = { headers: [], tls: { insecure: false }, proxy: {} };

/** Headers the verifier sets itself: `--header` may not replace them (conformance.md §7). */
export const OWNED_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "content-type",
  "content-length",
  "host",
]);
