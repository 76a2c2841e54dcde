import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CliError } from "@idp/contracts/cli";
import { z } from "zod";
import { ProxyVariableError, proxySettingsFrom } from "../http/proxy.ts";
import { parseRate } from "../http/rate-limit.ts";
import { refusedHeader, type TransportSettings } from "../http/settings.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `--header "Name: value"`: a name and a value; the verifier's own headers are refused. */
export const headerSchema = z.string().transform((text, ctx) => {
  const colon = text.indexOf(":");
  const name = colon > 0 ? text.slice(0, colon).trim() : "";
  const value = colon > 0 ? text.slice(colon + 1).trim() : "";
  if (!TOKEN.test(name) || value === "") {
    ctx.addIssue({
      code: "custom",
      message: `--header must be "Name: value", e.g. --header "X-Api-Key: $KEY" (received a value ${colon > 0 ? `for ${JSON.stringify(name)} that is empty or not a field name` : "without a colon"})`,
    });
    return z.NEVER;
  }
  const refused = refusedHeader(name);
  if (refused === "owned") {
    ctx.addIssue({
      code: "custom",
      message: `--header ${name}: the verifier sets ${name} itself (conformance.md §7)${name.toLowerCase() === "authorization" ? "; give the provider's credentials with IDP_USERNAME/IDP_PASSWORD" : ""}`,
    });
    return z.NEVER;
  }
  if (refused === "framing") {
    ctx.addIssue({
      code: "custom",
      message: `--header ${name}: a header that frames or routes the message is not sent, on any path (conformance.md §7: Transfer-Encoding, TE, Trailer, Connection, Keep-Alive, Upgrade, Expect, Proxy-*); the verifier frames each request with Content-Length`,
    });
    return z.NEVER;
  }
  return [name, value] as const;
});

/** A PEM file's text, or a one-line error naming the flag, the file and what was expected. */
function pem(flag: string, path: string, cwd: string, kind: "certificate" | "key"): string {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, path), "utf8");
  } catch (e) {
    throw new CliError(
      `${flag} ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  const marker =
    kind === "certificate" ? /-----BEGIN CERTIFICATE-----/ : /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
  if (!marker.test(text))
    throw new CliError(
      `${flag} ${path}: expected a PEM ${kind === "certificate" ? "certificate (-----BEGIN CERTIFICATE-----)" : "private key (-----BEGIN ... PRIVATE KEY-----)"}`,
    );
  return text;
}

/** The §7 options and the environment's proxies and CA, as the transport takes them. */
export function transportSettings(
  flags: {
    readonly "rate-limit"?: string | undefined;
    readonly header?: readonly string[] | undefined;
    readonly "ca-cert"?: string | undefined;
    readonly "client-cert"?: string | undefined;
    readonly "client-key"?: string | undefined;
    readonly insecure?: boolean | undefined;
  },
  env: Env,
  cwd: string,
): TransportSettings {
  const rate = flags["rate-limit"];
  const ratePerSecond = rate === undefined ? undefined : parseRate(rate);
  if (rate !== undefined && ratePerSecond === undefined)
    throw new CliError(
      `--rate-limit must be N/s or N/m with N > 0, e.g. --rate-limit 250/s (received ${JSON.stringify(rate)})`,
    );
  const headers: (readonly [string, string])[] = [];
  const seen = new Set<string>();
  for (const h of flags.header ?? []) {
    const r = headerSchema.safeParse(h);
    if (!r.success) throw new CliError(r.error.issues[0]?.message ?? "--header is not valid");
    if (seen.has(r.data[0].toLowerCase()))
      throw new CliError(`--header ${r.data[0]} is given twice`);
    seen.add(r.data[0].toLowerCase());
    headers.push(r.data);
  }
  if ((flags["client-cert"] === undefined) !== (flags["client-key"] === undefined))
    throw new CliError("--client-cert and --client-key go together (mutual TLS needs both)");
  // NODE_EXTRA_CA_CERTS is read here too: a CA of our own replaces Node's defaults in a pool.
  const extra = env.NODE_EXTRA_CA_CERTS;
  const cas = [
    ...(extra ? [pem("NODE_EXTRA_CA_CERTS", extra, cwd, "certificate")] : []),
    ...(flags["ca-cert"] ? [pem("--ca-cert", flags["ca-cert"], cwd, "certificate")] : []),
  ];
  const cert = flags["client-cert"];
  const key = flags["client-key"];
  const ca = flags["ca-cert"];
  const files = {
    ...(ca ? { ca: resolve(cwd, ca) } : {}),
    ...(cert ? { cert: resolve(cwd, cert) } : {}),
    ...(key ? { key: resolve(cwd, key) } : {}),
    ...(extra ? { extraCa: true as const } : {}),
  };
  return {
    ...(ratePerSecond !== undefined ? { ratePerSecond } : {}),
    headers,
    tls: {
      ...(cas.length > 0 ? { ca: cas.join("\n") } : {}),
      ...(cert ? { cert: pem("--client-cert", cert, cwd, "certificate") } : {}),
      ...(key ? { key: pem("--client-key", key, cwd, "key") } : {}),
      insecure: flags.insecure === true,
      ...(Object.keys(files).length > 0 ? { files } : {}),
    },
    proxy: proxySettings(env),
  };
}

/** The environment's proxies; a variable that cannot be read is exit 2 naming it. */
function proxySettings(env: Env) {
  try {
    return proxySettingsFrom(env);
  } catch (e) {
    if (e instanceof ProxyVariableError) throw new CliError(e.message);
    throw e;
  }
}
