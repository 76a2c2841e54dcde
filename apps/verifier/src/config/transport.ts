import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { ProxyVariableError, proxySettingsFrom } from "../http/proxy.ts";
import { parseRate } from "../http/rate-limit.ts";
import { refusedHeader, type TransportSettings } from "../http/settings.ts";
import { rule, shared } from "./rule.ts";

// How the provider is reached behind a deployment's gateway (conformance.md §7): a rate limit,
// extra headers, TLS (a private CA, a client certificate) and the environment's proxies.

/** `--rate-limit N/s|N/m`: requests per second. */
const rateSchema = z
  .string()
  .refine((text) => parseRate(text) !== undefined, {
    error: (issue) =>
      `--rate-limit must be N/s or N/m with N > 0, e.g. --rate-limit 250/s (received ${JSON.stringify(issue.input)})`,
  })
  .transform(parseRate)
  .pipe(z.number());

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `Name: value` split at its first colon (none: no name). */
function splitHeader(text: string) {
  const colon = text.indexOf(":");
  return colon > 0
    ? { colon: true, name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() }
    : { colon: false, name: "", value: "" };
}

/**
 * `--header "Name: value"`: a name and a value; the verifier's own headers, and those that frame or
 * route the message, are refused. The value is never shown (it is a credential).
 */
export const headerSchema = z
  .string()
  .transform(splitHeader)
  .check(
    rule(
      (h) => TOKEN.test(h.name) && h.value !== "",
      (h) =>
        `--header must be "Name: value", e.g. --header "X-Api-Key: $KEY" (received a value ${h.colon ? `for ${JSON.stringify(h.name)} that is empty or not a field name` : "without a colon"})`,
    ),
    rule(
      (h) => refusedHeader(h.name) !== "owned",
      (h) =>
        `--header ${h.name}: the verifier sets ${h.name} itself (conformance.md §7)${h.name.toLowerCase() === "authorization" ? "; give the provider's credentials with IDP_USERNAME/IDP_PASSWORD" : ""}`,
    ),
    rule(
      (h) => refusedHeader(h.name) !== "framing",
      (h) =>
        `--header ${h.name}: a header that frames or routes the message is not sent, on any path (conformance.md §7: Transfer-Encoding, TE, Trailer, Connection, Keep-Alive, Upgrade, Expect, Proxy-*); the verifier frames each request with Content-Length`,
    ),
  )
  .transform((h): readonly [name: string, value: string] => [h.name, h.value]);

/** The first header name given twice (names are case-insensitive). */
function repeated(headers: readonly (readonly [string, string])[]): string | undefined {
  const seen = new Set<string>();
  for (const [name] of headers) {
    if (seen.has(name.toLowerCase())) return name;
    seen.add(name.toLowerCase());
  }
  return undefined;
}

const PEM = {
  certificate: {
    marker: /-----BEGIN CERTIFICATE-----/,
    expected: "a PEM certificate (-----BEGIN CERTIFICATE-----)",
  },
  key: {
    marker: /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
    expected: "a PEM private key (-----BEGIN ... PRIVATE KEY-----)",
  },
} as const;

/** A PEM file named by `flag` (a path from `cwd`): its absolute path and its text. */
const pemFile = (flag: string, cwd: string, kind: keyof typeof PEM) =>
  z
    .string()
    .transform((given, ctx) => {
      const path = resolve(cwd, given);
      try {
        return { given, path, text: readFileSync(path, "utf8") };
      } catch (e) {
        ctx.addIssue({
          code: "custom",
          message: `${flag} ${given}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        });
        return z.NEVER;
      }
    })
    .check(
      rule(
        (file) => PEM[kind].marker.test(file.text),
        (file) => `${flag} ${file.given}: expected ${PEM[kind].expected}`,
      ),
    );

/** What the transport reads from the environment: a CA (NODE_EXTRA_CA_CERTS) and the proxies. */
const environmentSchema = (cwd: string) =>
  z
    .object({
      // Read here too: a CA of our own replaces Node's defaults in a pool.
      NODE_EXTRA_CA_CERTS: z
        .string()
        .optional()
        .transform((path) => (path === "" ? undefined : path))
        .pipe(pemFile("NODE_EXTRA_CA_CERTS", cwd, "certificate").optional()),
    })
    .and(
      z.record(z.string(), z.string().optional()).transform((env, ctx) => ({
        proxy: shared(ctx, () => proxySettingsFrom(env), ProxyVariableError),
      })),
    );

/** Mutual TLS takes both files: checked before either is read. */
const certificatePair = z
  .object({ "client-cert": z.string().optional(), "client-key": z.string().optional() })
  .check(
    rule(
      (v) => (v["client-cert"] === undefined) === (v["client-key"] === undefined),
      (v) =>
        `${v["client-cert"] === undefined ? "--client-cert" : "--client-key"} is missing: --client-cert and --client-key go together (mutual TLS needs both)`,
    ),
  )
  .transform(() => ({}));

/** The §7 options and the environment's proxies and CA: `{ transport }`. */
export const transportSchema = (cwd: string) =>
  z
    .object({
      "rate-limit": rateSchema.optional(),
      header: z
        .array(headerSchema)
        .default([])
        .check(
          rule(
            (headers) => repeated(headers) === undefined,
            (headers) => `--header ${repeated(headers)} is given twice; give each header once`,
          ),
        ),
      environment: environmentSchema(cwd),
      "ca-cert": pemFile("--ca-cert", cwd, "certificate").optional(),
      "client-cert": pemFile("--client-cert", cwd, "certificate").optional(),
      "client-key": pemFile("--client-key", cwd, "key").optional(),
      insecure: z.boolean().default(false),
    })
    .transform((v): { transport: TransportSettings } => {
      const extra = v.environment.NODE_EXTRA_CA_CERTS;
      const cas = [extra, v["ca-cert"]].flatMap((f) => (f ? [f.text] : []));
      const { "client-cert": cert, "client-key": key, "ca-cert": ca } = v;
      const files = {
        ...(ca ? { ca: ca.path } : {}),
        ...(cert ? { cert: cert.path } : {}),
        ...(key ? { key: key.path } : {}),
        ...(extra ? { extraCa: true as const } : {}),
      };
      return {
        transport: {
          ...(v["rate-limit"] !== undefined ? { ratePerSecond: v["rate-limit"] } : {}),
          headers: v.header,
          tls: {
            ...(cas.length > 0 ? { ca: cas.join("\n") } : {}),
            ...(cert ? { cert: cert.text } : {}),
            ...(key ? { key: key.text } : {}),
            insecure: v.insecure,
            ...(Object.keys(files).length > 0 ? { files } : {}),
          },
          proxy: v.environment.proxy,
        },
      };
    });

/** How the provider is reached: the certificate pair is checked before any file is read. */
export const deploymentSchema = (cwd: string) => certificatePair.and(transportSchema(cwd));
