// utf8Text replaces TextDecoder (fatal, BOM kept) on the provider's hot path: it must give the
// library's answer on every input, malformed bytes included.
import { fc, test } from "@fast-check/vitest";
import { binaryString } from "@idp/test-utils/arbitraries";
import { describe, expect } from "vitest";
import { utf8Text } from "../src/utf8-text.ts";

const library = (bytes: Uint8Array): string | undefined => {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
};
const BOM = [0xef, 0xbb, 0xbf];
const encoded = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

describe("utf8Text gives TextDecoder's answer", () => {
  test.prop([fc.uint8Array({ maxLength: 64 })], { numRuns: 2000 })("on any bytes", (bytes) => {
    expect(utf8Text(bytes)).toBe(library(bytes));
  });
  test.prop([binaryString({ maxLength: 64 }), fc.boolean()], { numRuns: 1000 })(
    "on UTF-8 text (lone surrogates become U+FFFD when encoded), with or without a BOM",
    (s, bom) => {
      const bytes = new Uint8Array([...(bom ? BOM : []), ...encoded(s)]);
      expect(utf8Text(bytes)).toBe(library(bytes));
    },
  );
  test.prop(
    [binaryString({ minLength: 1, maxLength: 32 }), fc.nat(), fc.integer({ min: 0, max: 255 })],
    { numRuns: 2000 },
  )("on UTF-8 text with one byte changed (cut sequences, overlongs, surrogates)", (s, at, byte) => {
    const bytes = encoded(s);
    bytes[at % bytes.length] = byte;
    expect(utf8Text(bytes)).toBe(library(bytes));
  });
  test.prop([fc.uint8Array({ maxLength: 16 }), fc.nat(40)], { numRuns: 500 })(
    "on a view into a larger buffer",
    (bytes, offset) => {
      const big = new Uint8Array(offset + bytes.length + 7);
      big.set(bytes, offset);
      const view = big.subarray(offset, offset + bytes.length);
      expect(utf8Text(view)).toBe(library(view));
    },
  );
});
