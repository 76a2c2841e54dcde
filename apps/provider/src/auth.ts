import { hash, timingSafeEqual } from "node:crypto";

/** The one username and password the provider accepts. */
export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** The result of parsing an Authorization header: the credentials, or why it is not acceptable. */
export type BasicAuthParse =
  | { readonly ok: true; readonly username: string; readonly password: string }
  | { readonly ok: false; readonly reason: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// Not fatal: invalid UTF-8 decodes to U+FFFD and is then a wrong username or password. One decoder
// for every request (decode() without `stream` keeps no state between calls).
const UTF8 = new TextDecoder("utf-8", { fatal: false });

/** Parses an `Authorization: Basic ...` header (RFC 7617). Never throws. */
export function parseBasicAuth(header: string | null | undefined): BasicAuthParse {
  if (header === null || header === undefined || header === "") {
    return { ok: false, reason: "the Authorization header is missing" };
  }
  const match = /^([^ ]+) +(.*)$/.exec(header.trim());
  if (match === null || match[1]?.toLowerCase() !== "basic") {
    return { ok: false, reason: "the Authorization scheme is not Basic" };
  }
  const token = match[2] ?? "";
  if (token.length % 4 !== 0 || !BASE64.test(token)) {
    return { ok: false, reason: "the Basic credentials are not valid base64" };
  }
  const decoded = UTF8.decode(Buffer.from(token, "base64"));
  const colon = decoded.indexOf(":");
  if (colon < 0) return { ok: false, reason: "the Basic credentials have no colon" };
  return { ok: true, username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

// One-shot hash: a Hash object per value cost every request more than the hashing itself.
const digest = (value: string): Buffer => hash("sha256", value, "buffer");

/**
 * A checker for one set of credentials. Both parts are always compared, on fixed-length digests
 * with `timingSafeEqual`, so neither the length nor which part differs leaks through timing.
 */
export function createCredentialCheck(
  expected: Credentials,
): (header: string | null) => BasicAuthParse {
  const user = digest(expected.username);
  const pass = digest(expected.password);
  return (header) => {
    const parsed = parseBasicAuth(header);
    if (!parsed.ok) return parsed;
    const userOk = timingSafeEqual(user, digest(parsed.username));
    const passOk = timingSafeEqual(pass, digest(parsed.password));
    return userOk && passOk ? parsed : { ok: false, reason: "the username or password is wrong" };
  };
}
