import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  basicAuthorization,
  DETAILED_OPERATION_IDS,
  defaultProfile,
  defineProfile,
  PACT_PLACEHOLDER_AUTHORIZATION,
  PACT_PLACEHOLDER_CREDENTIALS,
  PACT_WRONG_AUTHORIZATION,
  PINNED_STATUS_MAPPING,
  PROFILE_KEYS,
  type ProfileKey,
  RULE_IDS,
  RULES,
  strictProfile,
} from "../src/index.ts";
import { conformanceText, specText, tableAfter } from "./spec-text.ts";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The sections a ref names ("file: Heading, Heading; conformance.md §N ...") that do not exist. */
function missingSections(ref: string): string[] {
  return ref.split("; ").flatMap((part) => {
    const section = /^conformance\.md §(\d+)/.exec(part);
    if (section) return new RegExp(`^## ${section[1]}\\.`, "m").test(conformanceText) ? [] : [part];
    const [file, names = ""] = part.split(": ");
    if (file !== "service-interface.md") return [part];
    return names
      .replace(/ \(.*?\)/g, "")
      .split(", ")
      .map((name) => name.replace(/ \d.*$/, ""))
      .filter((name) => !new RegExp(`^#{2,3} ${escapeRegExp(name)}`, "m").test(specText));
  });
}

describe("RULES: R1-R8 with the source column of conformance.md §1, R9 of §8, R10 of §10", () => {
  const rows = tableAfter(conformanceText, "## 1. Rules");

  it("should have R9 as §8 states it: opt-in, pinned", () => {
    expect(conformanceText).toMatch(/\*\*R9 read your writes \(opt-in: `--checks R9`/);
    expect(RULES.R9).toMatchObject({
      title: "read your writes",
      source: "pinned",
      ref: "conformance.md §8",
    });
  });

  it("should have R10 as §10 states it: opt-in, pinned", () => {
    expect(conformanceText).toMatch(/## 10\. R10 errors name the field \(opt-in: `--checks R10`/);
    expect(RULES.R10).toMatchObject({
      title: "errors name the field",
      source: "pinned",
      ref: "conformance.md §10",
    });
  });

  it("should have one entry per row, with its title and source", () => {
    expect(rows.map((r) => r[0]?.split(" ")[0])).toEqual(
      RULE_IDS.filter((id) => id !== "R9" && id !== "R10"),
    );
    for (const [idAndTitle = "", , source = ""] of rows) {
      const [id = "", ...title] = idAndTitle.split(" ");
      const rule = RULES[id as keyof typeof RULES];
      expect(rule.title, id).toBe(title.join(" "));
      // The column reads "spec (...)", "pinned", "spec + pinned" or "spec lists both; the conditions are pinned".
      const expected = /pinned/.test(source)
        ? /^spec/.test(source)
          ? "spec + pinned"
          : "pinned"
        : "spec";
      expect(rule.source, id).toBe(expected);
    }
  });

  it("should name sections that exist in the spec files", () => {
    expect(missingSections("service-interface.md: Errors, Nope; conformance.md §11")).toEqual([
      "Nope",
      "conformance.md §11",
    ]);
    for (const rule of Object.values(RULES)) expect(missingSections(rule.ref), rule.id).toEqual([]);
    for (const key of PROFILE_KEYS)
      expect(missingSections(defaultProfile.sourceOf(key).ref), key).toEqual([]);
  });
});

describe("profile sources", () => {
  it("should name the spec or conformance.md for every key of the built-in profiles", () => {
    for (const key of PROFILE_KEYS) {
      const source = defaultProfile.sourceOf(key);
      expect(["spec", "pinned"], key).toContain(source.source);
      expect(source.ref, key).toMatch(/^(service-interface\.md: |conformance\.md §)/);
      expect(strictProfile.sourceOf(key)).toEqual(source);
    }
    expect(defaultProfile.sourceOf("documentedStatuses.pushToUserDevices")).toEqual({
      source: "spec",
      ref: "service-interface.md: Send push notification to all user devices",
    });
    expect(defaultProfile.sourceOf("statusMapping.createSchema.not-json")).toEqual({
      source: "pinned",
      ref: "conformance.md §3",
    });
    expect(defaultProfile.sourceOf("loginUserStatuses.unknown").ref).toBe("conformance.md §1 R7");
    expect(defaultProfile.sourceOf("errorsItems").ref).toBe("service-interface.md: Errors");
  });

  it("should throw for a key that is not a profile key", () => {
    expect(() => defaultProfile.sourceOf("statusMapping.nope" as ProfileKey)).toThrow(
      /"statusMapping.nope" is not a profile key/,
    );
  });

  it("defineProfile: a key whose value changes gets the source profile, the others keep theirs", () => {
    const p = defineProfile(defaultProfile, {
      name: "ours",
      statusMapping: {
        ...PINNED_STATUS_MAPPING,
        pushToUserDevices: { ...PINNED_STATUS_MAPPING.pushToUserDevices, "wrong-type": 422 },
      },
      loginUserStatuses: { unknown: 404, otherLoginApp: 404 },
    });
    const changed = PROFILE_KEYS.filter((k) => p.sourceOf(k).source === "profile");
    expect(changed).toEqual([
      "statusMapping.pushToUserDevices.wrong-type",
      "loginUserStatuses.otherLoginApp",
    ]);
    expect(p.sourceOf("loginUserStatuses.otherLoginApp").ref).toBe(
      "ours: loginUserStatuses.otherLoginApp",
    );
    expect(p.assumptions).toEqual([
      "statusMapping.pushToUserDevices.wrong-type is 422 (ours: statusMapping.pushToUserDevices.wrong-type)",
      "loginUserStatuses.otherLoginApp is 404 (ours: loginUserStatuses.otherLoginApp)",
    ]);
    // Derived again: inherited keys keep the first derivation's source.
    const q = defineProfile(p, { name: "theirs", errorsItems: ["object"] });
    expect(q.sourceOf("loginUserStatuses.otherLoginApp").ref).toBe(
      "ours: loginUserStatuses.otherLoginApp",
    );
    expect(q.sourceOf("errorsItems").ref).toBe("theirs: errorsItems");
    for (const op of DETAILED_OPERATION_IDS)
      expect(q.documentedStatuses[op]).toEqual(defaultProfile.documentedStatuses[op]);
  });
});

describe("pact placeholder credentials", () => {
  it("should be Basic base64 of user:password", () => {
    const { username, password } = PACT_PLACEHOLDER_CREDENTIALS;
    expect(PACT_PLACEHOLDER_AUTHORIZATION).toBe(
      "Basic cGFjdC1wbGFjZWhvbGRlci11c2VyOnBhY3QtcGxhY2Vob2xkZXItcGFzc3dvcmQ=",
    );
    expect(Buffer.from(PACT_PLACEHOLDER_AUTHORIZATION.slice(6), "base64").toString()).toBe(
      `${username}:${password}`,
    );
    expect(PACT_WRONG_AUTHORIZATION).not.toBe(PACT_PLACEHOLDER_AUTHORIZATION);
  });

  test.prop([fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" })])(
    "basicAuthorization encodes UTF-8 as Node's Buffer does",
    (user, password) => {
      expect(basicAuthorization(user, password)).toBe(
        `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`,
      );
    },
  );
});
