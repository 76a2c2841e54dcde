import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance } from "../src/did-you-mean.ts";

const word = fc.string({ maxLength: 12 });

describe("editDistance (Levenshtein)", () => {
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

  test.prop([word, word, word])("obeys the triangle inequality", (a, b, c) => {
    expect(editDistance(a, c)).toBeLessThanOrEqual(editDistance(a, b) + editDistance(b, c));
  });

  test.prop([word, fc.nat(12), fc.string({ minLength: 1, maxLength: 1 })])(
    "is 1 for one inserted character",
    (a, at, ch) => {
      const i = Math.min(at, a.length);
      expect(editDistance(a, a.slice(0, i) + ch + a.slice(i))).toBe(1);
    },
  );
});

describe("closest / didYouMean", () => {
  const flags = ["--to-environment", "--pacticipant", "--version"];

  test.prop([fc.constantFrom(...flags)])("a known word is its own closest", (flag) => {
    expect(closest(flag, flags)).toBe(flag);
  });

  it("names the flag a slip or a truncation was meant to be, and nothing for an unrelated word", () => {
    expect(didYouMean("--to-env", flags)).toBe(" (did you mean --to-environment?)");
    expect(didYouMean("--environment", flags)).toBe(" (did you mean --to-environment?)");
    expect(didYouMean("--verison", flags)).toBe(" (did you mean --version?)");
    expect(didYouMean("--zzzzzzzzzzzzzzzzzzzz", flags)).toBe("");
    expect(didYouMean("x", [])).toBe("");
  });
});
