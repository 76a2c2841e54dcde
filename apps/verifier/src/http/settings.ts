import { createSecureContext, rootCertificates, type SecureContext } from "node:tls";

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
  /**
   * Where they came from, for replays (curl lines, replay files and commands name the files,
   * never their contents): `--ca-cert`'s, `--client-cert`'s and `--client-key`'s absolute paths,
   * and whether NODE_EXTRA_CA_CERTS gave a CA.
   */
  readonly files?: {
    readonly ca?: string;
    readonly cert?: string;
    readonly key?: string;
    readonly extraCa?: true;
  };
}

/** The environment variable a replay reads a `--header`'s value from: `IDP_HEADER_X_API_KEY`. */
export const headerVariable = (name: string): string =>
  `IDP_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}`;

export interface ProxySettings {
  readonly httpProxy?: string;
  readonly httpsProxy?: string;
  readonly noProxy?: string;
}

/** The run's TLS, built once: one secure context, and the sessions to resume per host. */
export interface TlsContext {
  /** Undefined: Node's default context (the system's roots, no client certificate). */
  readonly secureContext: SecureContext | undefined;
  readonly insecure: boolean;
  /** host:port -> the last TLS session it gave (resumed by the next connection). */
  readonly sessions: Map<string, Buffer>;
}

const contexts = new WeakMap<TlsSettings, TlsContext>();

/**
 * The secure context of `tls`, made once per settings object (so once per run, in each thread):
 * a CA of our own is trusted beside the system's roots (Node's `ca` alone would replace them), a
 * client certificate, or no check at all. Building a context from the whole root list costs
 * milliseconds of CPU; every connection of the run shares this one and resumes sessions.
 */
export function tlsContextOf(tls: TlsSettings | undefined): TlsContext {
  const settings = tls ?? NO_TLS;
  let context = contexts.get(settings);
  if (!context) {
    const own = settings.ca !== undefined || settings.cert !== undefined;
    context = {
      secureContext: own
        ? createSecureContext({
            ...(settings.ca ? { ca: [...rootCertificates, settings.ca] } : {}),
            ...(settings.cert ? { cert: settings.cert } : {}),
            ...(settings.key ? { key: settings.key } : {}),
          })
        : undefined,
      insecure: settings.insecure,
      sessions: new Map(),
    };
    contexts.set(settings, context);
  }
  return context;
}

const NO_TLS: TlsSettings = { insecure: false };

/** No gateway settings: direct, verified TLS, no extra headers, no rate limit. */
export const DIRECT: TransportSettings = { headers: [], tls: { insecure: false }, proxy: {} };

/** Headers the verifier sets itself: `--header` may not replace them (conformance.md §7). */
export const OWNED_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "content-type",
  "content-length",
  "host",
]);

/**
 * Headers that frame or route a message (conformance.md §7): `--header` may not send them, on any
 * path (`Proxy-*` by prefix). The verifier frames its requests itself, with Content-Length.
 */
export const FRAMING_HEADERS: ReadonlySet<string> = new Set([
  "transfer-encoding",
  "te",
  "trailer",
  "connection",
  "keep-alive",
  "upgrade",
  "expect",
]);

/** Why `--header NAME` is refused, or undefined when it may be sent. */
export function refusedHeader(name: string): "owned" | "framing" | undefined {
  const lower = name.toLowerCase();
  if (OWNED_HEADERS.has(lower)) return "owned";
  if (FRAMING_HEADERS.has(lower) || lower.startsWith("proxy-")) return "framing";
  return undefined;
}
