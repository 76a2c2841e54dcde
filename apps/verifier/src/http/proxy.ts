import type { ProxySettings } from "./settings.ts";

/** A proxy variable that cannot be read: the CLI says which, and what it expected (exit 2). */
export class ProxyVariableError extends Error {}

/**
 * The proxy settings of an environment, as curl reads them: `https_proxy`/`HTTPS_PROXY` for https
 * URLs, `http_proxy`/`HTTP_PROXY` for http ones (lower case first), `no_proxy`/`NO_PROXY` for the
 * hosts reached directly. Empty values count as unset.
 * @throws ProxyVariableError naming the variable whose value is not a proxy URL or a NO_PROXY list.
 */
export function proxySettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): ProxySettings {
  const read = (name: string): [string, string] | undefined => {
    for (const key of [name.toLowerCase(), name.toUpperCase()]) {
      const v = env[key];
      if (v !== undefined && v.trim() !== "") return [key, v.trim()];
    }
    return undefined;
  };
  const httpProxy = read("http_proxy");
  const httpsProxy = read("https_proxy");
  const noProxy = read("no_proxy");
  if (noProxy) checkNoProxy(noProxy[0], noProxy[1]);
  return {
    ...(httpProxy ? { httpProxy: proxyUrl(...httpProxy) } : {}),
    ...(httpsProxy ? { httpsProxy: proxyUrl(...httpsProxy) } : {}),
    ...(noProxy ? { noProxy: noProxy[1] } : {}),
  };
}

/** A value as it may be shown: user-info out (it holds the proxy's password). */
const shown = (value: string) => JSON.stringify(value.replace(/\/\/[^/@]*@/, "//<redacted>@"));

/** curl takes `host:port` as `http://host:port`; anything else must be an http(s) URL of a host. */
function proxyUrl(variable: string, value: string): string {
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ProxyVariableError(
      `${variable} is not a proxy URL (received ${shown(value)}; expected http://[user:password@]host:port)`,
    );
  }
  if ((u.protocol !== "http:" && u.protocol !== "https:") || u.hostname === "")
    throw new ProxyVariableError(
      `${variable} must be an http:// or https:// proxy URL with a host (received ${shown(value)})`,
    );
  return url;
}

/** Each NO_PROXY entry: `*`, a host name (a leading dot allowed), an IP address or CIDR range, `host:port`. */
function checkNoProxy(variable: string, value: string): void {
  for (const raw of value.split(/[,\s]+/)) {
    const entry = raw.trim();
    if (entry === "" || entry === "*") continue;
    const ok =
      /^\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?(:\d{1,5})?$/i.test(entry) ||
      /^\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?(:\d{1,5})?$/.test(entry) ||
      /^\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(entry) ||
      /^[0-9a-f]*:[0-9a-f:.]+(\/\d{1,3})?$/i.test(entry);
    if (!ok)
      throw new ProxyVariableError(
        `${variable} holds ${JSON.stringify(entry)}, which is not a host name, an IP address, a CIDR range or host:port (a comma-separated list, curl's reading)`,
      );
  }
}

/** The proxy to use for `url`, or undefined for a direct connection. */
export function proxyFor(url: URL, proxy: ProxySettings): string | undefined {
  const chosen = url.protocol === "https:" ? proxy.httpsProxy : proxy.httpProxy;
  if (!chosen) return undefined;
  return bypassed(url, proxy.noProxy) ? undefined : chosen;
}

/**
 * Whether NO_PROXY names this URL's host, as curl matches it: a comma (or space) separated list;
 * `*` alone matches every host; a name matches itself and its subdomains (a leading dot is
 * ignored); an IP address matches itself, or a CIDR range holds it; `name:port` matches that port only.
 */
export function bypassed(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  for (const raw of noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    // `name:port`, `[v6]:port`; a bare IPv6 address has colons of its own.
    let name = entry;
    let onlyPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      name = bracketed[1] as string;
      onlyPort = bracketed[2];
    } else if (/^[^:]+:\d+$/.test(entry)) {
      [name, onlyPort] = entry.split(":") as [string, string];
    }
    if (onlyPort && onlyPort !== port) continue;
    if (name.includes("/")) {
      if (inCidr(host, name)) return true;
      continue;
    }
    const bare = name.replace(/^\.+/, "");
    if (host === bare || host.endsWith(`.${bare}`)) return true;
  }
  return false;
}

function ipv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255))
    return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function inCidr(host: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split("/");
  const bits = Number(bitsText);
  const a = ipv4(host);
  const b = ipv4(base ?? "");
  if (a === undefined || b === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32)
    return false;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (a & mask) >>> 0 === (b & mask) >>> 0;
}
