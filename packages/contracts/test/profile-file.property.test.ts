import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  defaultProfile,
  ERRORS_ITEM_KINDS,
  LOGIN_USER_KINDS,
  PROFILE_KEYS,
  ProfileError,
  type ProfileKey,
  profileFromFile,
  profileToFile,
  profileValue,
  SPEC_VIOLATION_KINDS,
  strictProfile,
  VALUES_IN_USE_KEYS,
  VIOLATION_KINDS,
} from "../src/index.ts";

const FILE = "gen.json";
const SUCCESS: Record<DetailedOperationId, number> = {
  createSchema: 201,
  pushToUserDevices: 200,
  updateClusteringRules: 200,
};

/** Sparse records: each key present or not. */
const sparse = <T>(keys: readonly string[], value: fc.Arbitrary<T>) =>
  fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] }) as fc.Arbitrary<
    Record<string, T>
  >;

/**
 * Valid profile files: any subset of keys; an operation's documentedStatuses are named (and hold
 * what the rest pins) whenever the built-in list would lack a status the file pins.
 */
const validFileArb = fc
  .record(
    {
      extends: fc.constantFrom("default", "strict"),
      description: fc.string(),
      statusMapping: sparse(
        DETAILED_OPERATION_IDS,
        sparse(VIOLATION_KINDS, fc.constantFrom(400, 422)),
      ),
      loginUserStatuses: sparse(LOGIN_USER_KINDS, fc.integer({ min: 400, max: 499 })),
      errorsItems: fc.subarray([...ERRORS_ITEM_KINDS], { minLength: 1 }),
      valuesInUse: sparse(
        VALUES_IN_USE_KEYS,
        fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 5 }),
      ),
      extra: sparse(
        DETAILED_OPERATION_IDS,
        fc.uniqueArray(fc.integer({ min: 100, max: 599 }), { maxLength: 4 }),
      ),
    },
    { requiredKeys: ["extends"] },
  )
  .map(({ extra, ...file }) => {
    const kinds = file.extends === "strict" ? VIOLATION_KINDS : SPEC_VIOLATION_KINDS;
    const documented: Record<string, number[]> = {};
    for (const op of DETAILED_OPERATION_IDS) {
      const pinned = kinds.map(
        (k) => file.statusMapping?.[op]?.[k] ?? defaultProfile.statusMapping[op][k],
      );
      const login =
        op === "pushToUserDevices"
          ? LOGIN_USER_KINDS.map(
              (k) => file.loginUserStatuses?.[k] ?? defaultProfile.loginUserStatuses[k],
            )
          : [];
      const needed = [SUCCESS[op], 401, ...pinned, ...login];
      const mustName = needed.some((s) => !defaultProfile.documentedStatuses[op].includes(s));
      const more = extra?.[op];
      if (mustName || more !== undefined)
        documented[op] = [...new Set([...needed, ...(more ?? [])])];
    }
    return { name: "generated", ...file, documentedStatuses: documented };
  });

/** Where a profile key sits in a file (valuesInUse keys hold dots themselves). */
function fileValue(file: Record<string, unknown>, key: ProfileKey): unknown {
  const [head = "", ...rest] = key.split(".");
  const path = head === "valuesInUse" ? [head, rest.join(".")] : [head, ...rest];
  let node: unknown = file;
  for (const seg of path) node = (node as Record<string, unknown> | undefined)?.[seg];
  return node;
}

describe("profile files (fast-check)", () => {
  test.prop([validFileArb])(
    "should take every key the file names from the file, sourced to it, and every other from its base",
    (file) => {
      const profile = profileFromFile(file, FILE);
      const base = file.extends === "strict" ? strictProfile : defaultProfile;
      for (const key of PROFILE_KEYS) {
        const inFile = fileValue(file, key);
        if (inFile === undefined) {
          expect(profileValue(profile, key), key).toEqual(profileValue(base, key));
          expect(profile.sourceOf(key), key).toEqual(base.sourceOf(key));
        } else {
          expect(profileValue(profile, key), key).toEqual(inFile);
          expect(profile.sourceOf(key), key).toEqual({ source: "profile", ref: `${FILE}: ${key}` });
        }
      }
      // And written back, it is the same file (empty objects aside).
      const again = profileFromFile(profileToFile(profile), FILE);
      for (const key of PROFILE_KEYS) expect(again.sourceOf(key)).toEqual(profile.sourceOf(key));
      expect(profileToFile(again)).toEqual(profileToFile(profile));
    },
  );

  test.prop([
    fc.oneof(
      fc.jsonValue(),
      fc.dictionary(
        fc.constantFrom(...Object.keys(strictProfile), "name", "statusMapping", "extends"),
        fc.jsonValue(),
      ),
    ),
  ])(
    "should either read any JSON as a profile or throw a one-line ProfileError naming the file",
    (json) => {
      try {
        profileFromFile(json, FILE);
      } catch (error) {
        expect(error).toBeInstanceOf(ProfileError);
        const { message, file } = error as ProfileError;
        expect(file).toBe(FILE);
        expect(message).toMatch(/^profile gen\.json: [^\n\r]* ?expected [^\n\r]+$/);
      }
    },
  );
});
