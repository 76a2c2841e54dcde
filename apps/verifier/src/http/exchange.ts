import type { DetailedOperationId } from "@idp/contracts";
import { credentialParts, redactHeaders, type Secrets } from "../secrets.ts";
import type { HttpResult } from "./send.ts";
import { headerVariable, type TlsSettings, type TransportSettings } from "./settings.ts";

/** How many bytes of an answer's body a record keeps. */
export const BODY_PREVIEW_BYTES = 2048;
/** Sent bodies up to this size are kept whole (a replay needs the exact bytes); larger are cut. */
export const REQUEST_BODY_KEEP_CHARS = 64 * 1024;

/** A request as the verifier sends it (absolute URL, the real headers). Never serialized. */
export interface OutgoingRequest {
  readonly operation?: DetailedOperationId;
  readonly method: string;
  /** scheme://host:port of the provider (no user-info). */
  readonly origin: string;
  /** Path and query. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** `body` as UTF-8, when it is already encoded: sent as it is (the text is then decoded only if read). */
  readonly encoded?: Buffer;
  /** What the Authorization header is, in words (the header itself is never recorded). */
  readonly credentials: string;
  /** curl arguments that rebuild the Authorization header from $IDP_USERNAME / $IDP_PASSWORD. */
  readonly curlAuth: readonly string[];
}

/**
 * How a request reached the provider besides its own headers, for what replays it (curl lines,
 * replay files): each `--header` by the environment variable its value is read from (never the
 * value, never `<redacted>` sent as one), and the TLS files and `--insecure`.
 */
export interface Via {
  /** Header name as sent -> the environment variable holding its value (`IDP_HEADER_X_API_KEY`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly tls?: NonNullable<TlsSettings["files"]> & { readonly insecure?: true };
}

/** A request as recorded: safe to print. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  /** Authorization is always `<scheme> <redacted>`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly credentials: string;
  readonly curlAuth: readonly string[];
  readonly body?: string;
  readonly bodyBytes?: number;
  readonly bodyTruncated?: boolean;
  readonly via?: Via;
}

export type RecordedResult =
  | {
      readonly kind: "response";
      readonly status: number;
      /** Provider-controlled: scrubbed of every credential value the run sent. */
      readonly headers: Readonly<Record<string, string>>;
      readonly contentType?: string;
      readonly bodyBytes: number;
      readonly bodyPreview: string;
      readonly truncated: boolean;
      readonly durationMs: number;
    }
  | {
      readonly kind: "transport-error";
      readonly code: string;
      readonly message: string;
      readonly durationMs: number;
    };

/** One request and what came back, safe to print. */
export interface Exchange {
  readonly operation?: DetailedOperationId;
  readonly request: RecordedRequest;
  readonly result: RecordedResult;
}

const headerText = (v: string | string[] | undefined): string =>
  Array.isArray(v) ? v.join(", ") : (v ?? "");

/**
 * Records an exchange: the request without its credentials, the answer scrubbed of every credential
 * value the run sent (a provider may echo them), its body cut to a preview after scrubbing (so a
 * secret cannot survive half-cut at the edge).
 */
export function recordExchange(
  req: OutgoingRequest,
  raw: HttpResult,
  secrets: Secrets,
  via?: Via,
): Exchange {
  const body = req.body;
  const bytes = body === undefined ? 0 : Buffer.byteLength(body, "utf8");
  const request: RecordedRequest = {
    method: req.method,
    url: `${req.origin}${req.path}`,
    headers: redactHeaders(req.headers),
    credentials: req.credentials,
    curlAuth: req.curlAuth,
    ...(via ? { via } : {}),
    ...(body === undefined
      ? {}
      : body.length > REQUEST_BODY_KEEP_CHARS
        ? { body: body.slice(0, REQUEST_BODY_KEEP_CHARS), bodyBytes: bytes, bodyTruncated: true }
        : { body, bodyBytes: bytes }),
  };
  const sent = credentialParts(req.headers.authorization);
  const scrub = (t: string) => secrets.scrub(t, sent);
  let result: RecordedResult;
  if (raw.kind === "response") {
    const text = scrub(raw.body.toString("utf8"));
    const preview = cutAtCodePoint(text, BODY_PREVIEW_BYTES);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw.headers))
      headers[name] = scrub(headerText(value));
    result = {
      kind: "response",
      status: raw.status,
      headers,
      ...(raw.contentType !== undefined ? { contentType: scrub(raw.contentType) } : {}),
      bodyBytes: raw.body.length,
      bodyPreview: preview,
      truncated: raw.truncated,
      durationMs: raw.durationMs,
    };
  } else
    result = {
      kind: "transport-error",
      code: raw.code,
      message: scrub(raw.message),
      durationMs: raw.durationMs,
    };
  return { ...(req.operation ? { operation: req.operation } : {}), request, result };
}

/** At most `max` UTF-16 units, never splitting a surrogate pair. */
export function cutAtCodePoint(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a terminal would obey
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a terminal would obey
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A shell word for `s`: single-quoted; with control characters, ANSI-C quoted (`$'a\x1bb'`), so a
 * printed command line is shown, never obeyed, and still sends the same bytes when pasted.
 */
export const shq = (s: string): string =>
  CONTROL.test(s)
    ? `$'${s.replace(/[\\']/g, "\\$&").replace(CONTROLS, (c) => {
        const n = c.codePointAt(0) ?? 0;
        return n < 0x80
          ? `\\x${n.toString(16).padStart(2, "0")}`
          : `\\u${n.toString(16).padStart(4, "0")}`;
      })}'`
    : `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * A curl command that replays the request: the credentials from $IDP_USERNAME / $IDP_PASSWORD,
 * each `--header` value from its environment variable, the run's TLS files and `--insecure`.
 */
export function curlCommand(exchange: Exchange): string {
  const via = exchange.request.via;
  const parts = ["curl", "-sS", "-i", "-X", exchange.request.method, shq(exchange.request.url)];
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    const variable = via?.headers?.[name];
    if (name.toLowerCase() === "authorization") parts.push(...exchange.request.curlAuth);
    else if (variable) parts.push("-H", `"${name}: $${variable}"`);
    else if (name.toLowerCase() !== "content-length") parts.push("-H", shq(`${name}: ${value}`));
  }
  parts.push(...curlTls(via));
  if (exchange.request.body !== undefined)
    parts.push(
      "--data-binary",
      exchange.request.bodyTruncated
        ? `'<${exchange.request.bodyBytes} bytes: see the replay file>'`
        : shq(exchange.request.body),
    );
  return parts.join(" ");
}

/** curl's options for the run's TLS files and `--insecure`. */
export function curlTls(via: Via | undefined): string[] {
  const tls = via?.tls;
  const parts: string[] = [];
  if (tls?.ca) parts.push("--cacert", shq(tls.ca));
  else if (tls?.extraCa) parts.push("--cacert", '"$NODE_EXTRA_CA_CERTS"');
  if (tls?.cert) parts.push("--cert", shq(tls.cert));
  if (tls?.key) parts.push("--key", shq(tls.key));
  if (tls?.insecure) parts.push("--insecure");
  return parts;
}

/** curl's options for what every request of the run carries: `--header` values by variable, TLS. */
export function curlVia(via: Via | undefined): string[] {
  return [
    ...Object.entries(via?.headers ?? {}).flatMap(([name, variable]) => [
      "-H",
      `"${name}: $${variable}"`,
    ]),
    ...curlTls(via),
  ];
}

/** What every request of a run carries besides its own headers, for its replays (or undefined). */
export function viaOf(transport: TransportSettings): Via | undefined {
  const tls = transport.tls;
  const files = { ...tls.files, ...(tls.insecure ? { insecure: true as const } : {}) };
  const headers = transport.headers;
  if (headers.length === 0 && Object.keys(files).length === 0) return undefined;
  return {
    ...(headers.length > 0
      ? { headers: Object.fromEntries(headers.map(([n]) => [n.toLowerCase(), headerVariable(n)])) }
      : {}),
    ...(Object.keys(files).length > 0 ? { tls: files } : {}),
  };
}

/** idp-verify's options that send again what `via` names (for a replay command). */
export function viaArgs(transport: TransportSettings): string[] {
  const files = transport.tls.files;
  return [
    ...transport.headers.flatMap(([name]) => ["--header", `"${name}: $${headerVariable(name)}"`]),
    ...(files?.ca ? ["--ca-cert", shq(files.ca)] : []),
    ...(files?.cert ? ["--client-cert", shq(files.cert)] : []),
    ...(files?.key ? ["--client-key", shq(files.key)] : []),
    ...(transport.tls.insecure ? ["--insecure"] : []),
  ];
}
