import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  credentialParts,
  REDACTED,
  redactAuthorization,
  Secrets,
  splitUserInfo,
} from "../src/secrets.ts";

describe("Secrets", () => {
  it("scrubs the password, user:password and its base64 from provider text", () => {
    const s = new Secrets();
    s.addBasic("user", "hunter22", "password");
    const token = Buffer.from("user:hunter22").toString("base64");
    expect(s.scrub(`got Basic ${token} for user:hunter22 (hunter22)`)).toBe(
      `got Basic ${REDACTED} for ${REDACTED} (${REDACTED})`,
    );
  });

  it("scrubs what one request sent: a near-miss password, its user:password and token", () => {
    const s = new Secrets();
    s.addBasic("user", "hunter22", "password");
    // The first 7 characters of the real password, as the wrong-password near miss sends them.
    const header = `Basic ${Buffer.from("user:hunter2").toString("base64")}`;
    const parts = credentialParts(header);
    const echoed = `bad password hunter2 for user:hunter2, ${header.slice(6)}`;
    expect(s.scrub(echoed)).toContain("hunter2");
    expect(s.scrub(echoed, parts)).toBe(`bad password ${REDACTED} for ${REDACTED}, ${REDACTED}`);
  });

  it("never scrubs a value too short to cut out safely, and says so once", () => {
    const s = new Secrets();
    s.addBasic("u", "e", "password");
    expect(s.scrub('the error body: {"e": "e"}')).toBe('the error body: {"e": "e"}');
    expect(s.warnings()).toEqual([
      expect.stringMatching(
        /^warning: the password is 1 character long, too short to remove safely/,
      ),
    ]);
  });

  it("scrubs every string of a JSON value and keeps it JSON", () => {
    const s = new Secrets();
    s.add("t0ken", "broker token");
    const out = s.scrubJson({ a: ["t0ken", 1, { "t0ken!": true }] });
    expect(out).toEqual({ a: [REDACTED, 1, { [`${REDACTED}!`]: true }] });
  });

  test.prop([fc.string({ minLength: 4 }), fc.string(), fc.string()])(
    "leaves no registered value in the text",
    (secret, before, after) => {
      const s = new Secrets();
      s.add(secret, "password");
      expect(s.scrub(`${before}${secret}${after}`)).not.toContain(secret);
    },
  );
});

describe("where secrets are placed", () => {
  it("records an Authorization header by its scheme only", () => {
    expect(redactAuthorization("Basic dTpw")).toBe(`Basic ${REDACTED}`);
    expect(redactAuthorization("dTpw")).toBe(REDACTED);
  });

  it("splits user-info off a URL", () => {
    expect(splitUserInfo("https://a:b%3Ac@h:1/p?q")).toEqual({
      url: "https://h:1/p?q",
      credentials: { username: "a", password: "b:c" },
    });
    expect(splitUserInfo("https://h/p")).toEqual({ url: "https://h/p" });
  });
});
