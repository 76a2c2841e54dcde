import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { didYouMean, editDistance } from "../src/did-you-mean.ts";

const word = fc.string({ maxLength: 12 });

describe("editDistance (adjacent swaps count once)", () => {
  test.prop([word, word])(
    "is symmetric, zero only for equal words, and within the length bounds",
    (a, b) => {
      const d = editDistance(a, b);
      expect(editDistance(b, a)).toBe(d);
      expect(d === 0).toBe(a === b);
      expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
    },
  );

  test.prop([word, fc.nat(12), fc.string({ minLength: 1, maxLength: 1 })])(
    "is 1 for one inserted character",
    (a, at, ch) => {
      const i = Math.min(at, a.length);
      expect(editDistance(a, a.slice(0, i) + ch + a.slice(i))).toBe(1);
    },
  );

  test.prop([fc.string({ minLength: 2, maxLength: 12 }), fc.nat(10)])(
    "is at most 1 for two neighbours swapped",
    (a, at) => {
      const i = at % (a.length - 1);
      const swapped = a.slice(0, i) + a[i + 1] + a[i] + a.slice(i + 2);
      expect(editDistance(a, swapped)).toBeLessThanOrEqual(1);
    },
  );
});

describe("didYouMean", () => {
  const names = ["--to-environment", "--pacticipant", "--version", "--pacts-dir", "--count"];

  test.prop([fc.constantFrom(...names)])("a known word is its own suggestion", (name) => {
    expect(didYouMean(name, names)).toBe(name);
  });

  it.each([
    // slips: a letter off, two swapped, another separator, another case
    ["--cout", names, "--count"],
    ["--verison", names, "--version"],
    ["create_schema", ["create-schema", "push"], "create-schema"],
    ["pus", ["create-schema", "push"], "push"],
    ["strcit", ["default", "strict"], "strict"],
    ["STRICT", ["default", "strict"], "strict"],
    ["--environment", names, "--to-environment"],
    // truncations
    ["--to-env", names, "--to-environment"],
    ["--pacts", names, "--pacts-dir"],
    ["deep", ["deep-nesting", "many-keys"], "deep-nesting"],
    ["record-deploy", ["record-deployment", "record-release"], "record-deployment"],
  ])("suggests for %s", (typed, known, meant) => {
    expect(didYouMean(typed, known)).toBe(meant);
  });

  it("suggests nothing for an unrelated word or an empty list", () => {
    expect(didYouMean("--zzzzzzzzzzzzzzzzzzzz", names)).toBeUndefined();
    expect(didYouMean("x", [])).toBeUndefined();
    expect(didYouMean("ab", ["default", "strict"])).toBeUndefined();
  });
});
