import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { createCredentialCheck, parseBasicAuth } from "./auth.ts";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

describe("parseBasicAuth", () => {
  it("splits at the first colon, so passwords may contain colons", () => {
    expect(parseBasicAuth(`Basic ${b64("ann:pa:ss")}`)).toEqual({
      ok: true,
      username: "ann",
      password: "pa:ss",
    });
  });

  it("accepts the scheme in any case (RFC 7617)", () => {
    expect(parseBasicAuth(`basic ${b64("a:b")}`).ok).toBe(true);
  });

  it.each([
    [undefined, "missing"],
    ["", "missing"],
    ["Bearer abc", "not Basic"],
    ["Basic", "not Basic"],
    ["Basic abc", "not valid base64"],
    ["Basic a$==", "not valid base64"],
    [`Basic ${b64("no-colon")}`, "no colon"],
  ])("rejects %j (%s)", (header, reason) => {
    const result = parseBasicAuth(header);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  test.prop([fc.string()])("never throws", (header) => {
    expect(() => parseBasicAuth(header)).not.toThrow();
  });
});

describe("createCredentialCheck", () => {
  const check = createCredentialCheck({ username: "ann", password: "pw" });

  it("accepts the configured pair only", () => {
    expect(check(`Basic ${b64("ann:pw")}`).ok).toBe(true);
    expect(check(`Basic ${b64("ann:pw ")}`).ok).toBe(false);
    expect(check(`Basic ${b64("Ann:pw")}`).ok).toBe(false);
    expect(check(`Basic ${b64("ann:")}`).ok).toBe(false);
  });

  it("does not say which part was wrong", () => {
    const wrongUser = check(`Basic ${b64("bob:pw")}`);
    const wrongPassword = check(`Basic ${b64("ann:xx")}`);
    expect(wrongUser).toEqual(wrongPassword);
  });
});
