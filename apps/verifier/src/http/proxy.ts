import type { ProxySettings } from "./settings.ts";

/**
 * The proxy settings of an environment, as curl reads them: `https_proxy`/`HTTPS_PROXY` for https
 * URLs, `http_proxy`/`HTTP_PROXY` for http ones (lower case first), `no_proxy`/`NO_PROXY` for the
 * hosts reached directly. Empty values count as unset.
 */
export function proxySettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): ProxySettings {
  const read = (name: string) => {
    const v = env[name.toLowerCase()] ?? env[name.toUpperCase()];
    return v === undefined || v.trim() === "" ? undefined : v.trim();
  };
  const httpProxy = read("http_proxy");
  const httpsProxy = read("https_proxy");
  const noProxy = read("no_proxy");
  return {
    ...(httpProxy ? { httpProxy: withScheme(httpProxy) } : {}),
    ...(httpsProxy ? { httpsProxy: withScheme(httpsProxy) } : {}),
    ...(noProxy ? { noProxy } : {}),
  };
}

/** curl takes `host:port` as `http://host:port`. */
const withScheme = (proxy: string) =>
  /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;

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
