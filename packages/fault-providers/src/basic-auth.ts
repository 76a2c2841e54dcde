// Basic credentials as service-interface.md "Authentication" and conformance.md R1 describe them,
// parsed strictly by hand: no @idp/* code, no library.

/** Why an Authorization header is not acceptable, or the user and password it carries. */
export type BasicParse =
  | { readonly kind: "ok"; readonly user: string; readonly password: string }
  | { readonly kind: "no-header" | "other-scheme" | "bad-base64" | "not-utf8" | "no-colon" };

// Canonical base64 (RFC 4648 §4): the standard alphabet, padding only at the end, length a multiple
// of 4. Node's decoder is lenient (it skips foreign characters, accepts missing padding and the
// URL-safe alphabet), so the round trip below is what makes "bad base64" a 401.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses `Authorization: Basic <base64(user:password)>`.
 *
 * The scheme is matched case-insensitively: the spec says "the word Basic", and HTTP makes
 * auth-scheme case-insensitive (RFC 9110 §11.1), so `basic` is the same scheme, not "a scheme other
 * than Basic" (R1). One or more spaces may separate it from the token (RFC 9110: 1*SP). The decoded
 * bytes are UTF-8 (RFC 7617 charset); bytes that are not UTF-8 cannot equal a configured
 * credential. The user ends at the first colon; the password may hold colons (RFC 7617 §2).
 */
export function parseBasic(header: string | undefined): BasicParse {
  if (header === undefined) return { kind: "no-header" };
  // "Basic" alone (Node trims the trailing space of "Basic ") carries an empty token: no colon.
  const space = header.indexOf(" ") < 0 ? header.length : header.indexOf(" ");
  if (header.slice(0, space).toLowerCase() !== "basic") return { kind: "other-scheme" };
  let start = space;
  while (header.charCodeAt(start) === 0x20) start++;
  const token = header.slice(start);
  if (token.length % 4 !== 0 || !BASE64.test(token)) return { kind: "bad-base64" };
  const bytes = Buffer.from(token, "base64");
  if (bytes.toString("base64") !== token) return { kind: "bad-base64" };
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { kind: "not-utf8" };
  }
  const colon = text.indexOf(":");
  if (colon < 0) return { kind: "no-colon" };
  return { kind: "ok", user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** The Authorization value a client builds from these credentials (the fast path compares it). */
export function basicHeader(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;
}
