/** Replaces the value of every Authorization header, whatever its scheme. */
export function redactAuthorization(value: string): string {
  const space = value.indexOf(" ");
  const scheme = space > 0 ? value.slice(0, space) : "";
  return scheme && /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/.test(scheme)
    ? `${scheme} <redacted>`
    : "<redacted>";
}

export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = name.toLowerCase() === "authorization" ? redactAuthorization(value) : value;
  return out;
}

/**
 * The last line of defence: every string that leaves the verifier (reports, console, errors) goes
 * through `scrub`, which cuts out each registered secret (the password and every credential token
 * sent), in case a provider echoes them back.
 */
export class Redactor {
  readonly #secrets = new Set<string>();

  addSecret(secret: string): void {
    if (secret.length >= 3) this.#secrets.add(secret);
  }

  addCredentials(username: string, password: string): void {
    this.addSecret(password);
    this.addSecret(Buffer.from(`${username}:${password}`, "utf8").toString("base64"));
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join("<redacted>");
    return out;
  }
}
