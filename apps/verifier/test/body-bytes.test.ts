// A body generated in the sending thread is sent as its pieces written into one buffer
// (rules/body-bytes.ts): the same bytes as its text encoded whole, for any pieces, repeats included
// (a repeated piece is copied from where it was just written, so a wrong offset would show here).
import { stressBodyArb } from "@idp/generators";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bodyBytes, writePieces } from "../src/rules/body-bytes.ts";

const piece = fc.oneof(fc.string({ unit: "grapheme", maxLength: 6 }), fc.constant("é😀"));
/** Pieces with runs of one piece repeated, as a long stressed string is built. */
const pieces = fc
  .array(fc.tuple(piece, fc.integer({ min: 1, max: 5 })), { maxLength: 12 })
  .map((runs) => runs.flatMap(([p, n]) => Array.from({ length: n }, () => p)));

describe("a stressed body's bytes", () => {
  it("are its text's UTF-8, with or without the length counted as it was built", () => {
    fc.assert(
      fc.property(pieces, fc.boolean(), (ps, counted) => {
        const text = ps.join("");
        const expected = Buffer.from(text, "utf8");
        const body = {
          text,
          kind: "stress" as const,
          note: "",
          pieces: ps,
          ...(counted ? { byteLength: expected.length } : {}),
        };
        expect(bodyBytes(body)?.equals(expected)).toBe(true);
      }),
    );
  });

  it("write after what is already in the buffer, and say where they end", () => {
    fc.assert(
      fc.property(fc.string(), pieces, (before, ps) => {
        const head = Buffer.from(before, "utf8");
        const out = Buffer.alloc(head.length + Buffer.byteLength(ps.join(""), "utf8"));
        head.copy(out);
        expect(writePieces(ps, out, head.length)).toBe(out.length);
        expect(out.toString("utf8")).toBe(before + ps.join(""));
      }),
    );
  });

  it("are the generators' stressed bodies' own text, byte for byte", () => {
    fc.assert(
      fc.property(stressBodyArb("createSchema"), (c) => {
        const body = {
          text: c.text,
          kind: "stress" as const,
          note: "",
          pieces: c.pieces,
          byteLength: c.bytes,
        };
        expect(bodyBytes(body)?.equals(Buffer.from(c.text, "utf8"))).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it("are left to the text for a body without pieces, and kept for one already encoded", () => {
    expect(bodyBytes({ text: "{}", kind: "valid", note: "" })).toBeUndefined();
    const bytes = Buffer.from("{}");
    expect(bodyBytes({ text: "{}", kind: "valid", note: "", bytes })).toBe(bytes);
  });
});
