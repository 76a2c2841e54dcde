/**
 * Redaction by construction. Credentials are removed where they are placed (Authorization headers
 * are recorded as `<scheme> <redacted>`, URL user-info is split off when options are parsed), and
 * every credential value the run sends is registered here, so that text the provider controls
 * (bodies, headers, error messages, Pact's mismatch descriptions) is scrubbed when it enters a
 * record, before anything is serialized. Nothing ever substring-replaces finished JSON, XML or HTML.
 */
export const REDACTED = "<redacted>";

/** Shorter values cannot be cut out of free text without mangling it (a one-letter password). */
export const MIN_SCRUBBABLE_LENGTH = 4;

export class Secrets {
  readonly #values = new Set<string>();
  readonly #tooShort = new Map<string, string>();
  /** Longest first, so a value containing another is cut whole; rebuilt on change. */
  #ordered: string[] = [];

  /**
   * Registers a credential value the run holds or sends. `what` names it in the warning given when
   * it is too short to scrub from free text.
   */
  add(value: string | undefined, what: string | undefined): void {
    if (!value || this.#values.has(value)) return;
    if (value.length < MIN_SCRUBBABLE_LENGTH) {
      // `what` undefined: a made-up value that only holds part of a secret; no warning for it.
      if (what !== undefined && !this.#tooShort.has(value)) this.#tooShort.set(value, what);
      return;
    }
    this.#values.add(value);
    this.#ordered = [...this.#values].sort((a, b) => b.length - a.length);
  }

  /** The password, `user:password` and its base64: what a Basic header carries, raw and encoded. */
  addBasic(username: string, password: string, what: string | undefined): void {
    this.add(password, what);
    this.add(`${username}:${password}`, what);
    this.add(base64(`${username}:${password}`), what);
  }

  /**
   * Removes every registered value from provider-controlled text, and `extra` values (those one
   * request sent: its own Authorization token and what it decodes to, which a made-up wrong
   * credential may share a part of the real one with).
   */
  scrub(text: string, extra: readonly string[] = []): string {
    let out = text;
    for (const value of extra)
      if (value.length >= MIN_SCRUBBABLE_LENGTH && out.includes(value))
        out = out.split(value).join(REDACTED);
    for (const value of this.#ordered)
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    return out;
  }

  /** The values to scrub (for a worker thread's own registry). */
  values(): string[] {
    return [...this.#values];
  }

  /** Scrubs every string inside a parsed JSON value (keys included), leaving its structure whole. */
  scrubJson(value: unknown): unknown {
    if (typeof value === "string") return this.scrub(value);
    if (Array.isArray(value)) return value.map((v) => this.scrubJson(v));
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [this.scrub(k), this.scrubJson(v)]),
      );
    return value;
  }

  /** One line per credential with a value too short to scrub (nothing is replaced: reports parse). */
  warnings(): string[] {
    const shortest = new Map<string, number>();
    for (const [value, what] of this.#tooShort)
      shortest.set(what, Math.min(shortest.get(what) ?? Number.POSITIVE_INFINITY, value.length));
    return [...shortest].map(
      ([what, length]) =>
        `warning: the ${what} is ${length} character${length === 1 ? "" : "s"} long, too short to remove safely from what the provider sends back; if the provider echoes it, it can appear in the reports (use ${MIN_SCRUBBABLE_LENGTH} or more characters)`,
    );
  }
}

export const base64 = (s: string): string => Buffer.from(s, "utf8").toString("base64");

/**
 * The credential parts of one Authorization value: the token after the scheme and, when it is
 * base64, what it decodes to and the password in it (longest first). What an echoing provider could send back of it.
 */
export function credentialParts(authorization: string | undefined): string[] {
  if (!authorization) return [];
  const token = authorization.slice(authorization.indexOf(" ") + 1).trim();
  const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(token)
    ? Buffer.from(token, "base64").toString("utf8")
    : "";
  // After the first colon is the password (a made-up wrong one may hold part of the real one).
  const colon = decoded.indexOf(":");
  const password = colon >= 0 ? decoded.slice(colon + 1) : "";
  return [token, decoded, password].filter((v) => v !== "").sort((a, b) => b.length - a.length);
}

/** An Authorization value as recorded: its scheme, never its credentials. */
export function redactAuthorization(value: string): string {
  const space = value.indexOf(" ");
  const scheme = space > 0 ? value.slice(0, space) : "";
  return scheme && /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/.test(scheme)
    ? `${scheme} ${REDACTED}`
    : REDACTED;
}

/** Headers as recorded: Authorization (and Proxy-Authorization, Cookie) without their values. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[name] =
      lower === "authorization" || lower === "proxy-authorization"
        ? redactAuthorization(value)
        : lower === "cookie"
          ? REDACTED
          : value;
  }
  return out;
}

/**
 * Splits URL user-info off where a URL is placed: the URL to record and print, and the
 * credentials it carried (to use, never to show).
 */
export function splitUserInfo(url: string): {
  readonly url: string;
  readonly credentials?: { readonly username: string; readonly password: string };
} {
  const u = new URL(url);
  if (u.username === "" && u.password === "") return { url };
  const credentials = {
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
  };
  u.username = "";
  u.password = "";
  return { url: u.toString(), credentials };
}
