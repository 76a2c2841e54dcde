// R1's credentials, read back as a provider reads them (RFC 7617: base64 of user:password, split at
// the first colon; RFC 9110 §11.1: the scheme in any case). The oracle here is Node's base64 and
// String.prototype.indexOf, never the verifier's own builders.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  AUTH_VARIANTS,
  type AuthSpec,
  type AuthVariant,
  authExamples,
  authVariantArb,
  OTHER_SCHEMES,
} from "../src/rules/auth.ts";
import { Secrets } from "../src/secrets.ts";

/** What a conforming provider reads from the header: the scheme, and the user and password. */
function read(header: string | undefined) {
  if (header === undefined) return undefined;
  const space = header.indexOf(" ");
  const token = header.slice(space + 1);
  const text = Buffer.from(token, "base64").toString("utf8");
  const colon = text.indexOf(":");
  return {
    scheme: header.slice(0, space),
    canonical: Buffer.from(text, "utf8").toString("base64") === token,
    text,
    user: colon < 0 ? undefined : text.slice(0, colon),
    password: colon < 0 ? undefined : text.slice(colon + 1),
  };
}

// Usernames never hold a colon (RFC 7617); passwords may, and may be one letter long.
const credentials = fc.record({
  username: fc.string({ minLength: 1, maxLength: 10 }).filter((u) => !u.includes(":")),
  password: fc.oneof(
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.string({ minLength: 1, maxLength: 1 }),
    fc.tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })).map(([a, b]) => `${a}:${b}`),
  ),
});
const sample = (variant: AuthVariant, c: { username: string; password: string }, seed: number) =>
  fc.sample(authVariantArb(variant, c, new Secrets()), { seed, numRuns: 20 });

describe("the R1 variants", () => {
  test.prop([credentials, fc.constantFrom(...AUTH_VARIANTS), fc.integer()], { numRuns: 300 })(
    "never carry acceptable credentials, whatever the password holds",
    (c, variant, seed) => {
      for (const spec of [...sample(variant, c, seed), ...authExamples(variant, c)]) {
        const got = read(spec.header);
        if (got === undefined) continue;
        const acceptable =
          got.scheme.toLowerCase() === "basic" &&
          got.canonical &&
          got.user === c.username &&
          got.password === c.password;
        expect(acceptable, spec.description).toBe(false);
        // Each variant is the defect it names, and only that one.
        if (variant === "no-colon") expect(got.text).not.toContain(":");
        if (variant === "wrong-user") expect(got.password).toBe(c.password);
        if (variant === "wrong-password") expect(got.user).toBe(c.username);
        if (variant === "other-scheme")
          expect(OTHER_SCHEMES.map((s) => s.toLowerCase())).not.toContain("basic");
        else if (variant !== "no-header") expect(got.scheme.toLowerCase()).toBe("basic");
      }
    },
  );

  test.prop([credentials])(
    "send first the near misses a real comparison lets through, on every operation",
    (c) => {
      const passwords = authExamples("wrong-password", c).map((s) => read(s.header)?.password);
      for (const near of [`${c.password}:x`, `${c.password}x`, ` ${c.password}`, `${c.password} `])
        expect(passwords).toContain(near);
      expect(passwords).toContain(c.password.slice(0, -1));
      const users = authExamples("wrong-user", c).map((s) => read(s.header)?.user);
      for (const near of [`${c.username}x`, ` ${c.username}`, `${c.username} `])
        expect(users).toContain(near);
      expect(users.every((u) => !u?.includes(":"))).toBe(true);
    },
  );

  it("reads the scheme in any case: the Basic variants use it so, the other scheme never", () => {
    const c = { username: "ann", password: "secret" };
    const schemes = (v: AuthVariant) =>
      new Set(sample(v, c, 7).map((s: AuthSpec) => s.header?.split(" ")[0]));
    expect([...schemes("wrong-password")].some((s) => s !== "Basic")).toBe(true);
    for (const s of schemes("other-scheme")) expect(s?.toLowerCase()).not.toBe("basic");
  });
});
