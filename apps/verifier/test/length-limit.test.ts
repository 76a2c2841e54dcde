// The searches --learn and R4's size message rely on, against a simulated provider (a predicate),
// as properties: the exact limit and the unit of a string place (rules/length-limit.ts), and the
// bisection of numbers in the order of doubles (learn/bounds.ts).
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { Answer } from "../src/http/client.ts";
import { between } from "../src/learn/bounds.ts";
import { findLengthLimit, type Tried } from "../src/rules/length-limit.ts";

// The measures by hand (the oracle is not @idp/contracts' lengthIn).
const measure = {
  codePoints: (s: string) => [...s].length,
  utf16: (s: string) => s.length,
  bytes: (s: string) => Buffer.byteLength(s, "utf8"),
};
type Unit = keyof typeof measure;
const answer = (status: number) =>
  ({ raw: { kind: "response", status }, request: {}, exchange: () => ({}) }) as unknown as Answer;

/** A provider that accepts a string of at most `max` in `unit` with 200 and refuses longer with 422. */
const provider = (max: number, unit: Unit) => {
  const sent: string[] = [];
  const send = async (text: string): Promise<Tried> => {
    sent.push(text);
    const ok = measure[unit](text) <= max;
    return { text, outcome: ok ? "accepted" : "refused", answer: answer(ok ? 200 : 422) };
  };
  return { send, sent };
};

describe("findLengthLimit", () => {
  test.prop([
    fc.integer({ min: 1, max: 400 }),
    fc.constantFrom<Unit>("codePoints", "utf16", "bytes"),
    fc.string({ unit: "grapheme", maxLength: 30 }),
    fc.integer({ min: 1, max: 600 }),
    fc.boolean(),
  ])(
    "finds the exact limit and the unit the provider counts, in about log2(bytes) + 5 requests",
    async (max, unit, start, extra, prefixed) => {
      // A fresh name leaves room for the heavier characters only past its own length: a schema
      // name's unit is told apart when its limit is longer than a name never sent (~20).
      const withPrefix = prefixed && max > 8;
      // A refused string: whatever it starts with, past the limit in the provider's unit.
      const refused = start + "x".repeat(max + extra);
      const { send, sent } = provider(max, unit);
      let names = 0;
      const prefix = withPrefix ? () => `n${++names}-` : undefined;
      const found = await findLengthLimit(refused, send, prefix);
      expect(found).toMatchObject({ max, unit });
      if (!("unit" in found)) return;
      expect(measure[unit](found.accepted.text)).toBe(max);
      expect(measure[unit](found.refused.text)).toBe(max + 1);
      expect(sent.length).toBeLessThanOrEqual(Math.ceil(Math.log2(measure.bytes(refused) + 1)) + 5);
      // Every probe but the refused string itself starts with a name never sent before.
      if (prefix) expect(new Set(sent.slice(1).map((s) => s.slice(0, 5))).size).toBeGreaterThan(1);
    },
  );

  test.prop([fc.integer({ min: 1, max: 300 })])(
    "names a provider whose answers no unit explains as inconsistent",
    async (max) => {
      // Counts code points in a string with an astral character, bytes in any other.
      const send = async (text: string): Promise<Tried> => {
        const astral = /[\u{10000}-\u{10ffff}]/u.test(text);
        const ok = (astral ? measure.codePoints : measure.bytes)(text) <= max;
        return { text, outcome: ok ? "accepted" : "refused", answer: answer(ok ? 200 : 422) };
      };
      const found = await findLengthLimit("x".repeat(max + 1), send);
      expect(found).toMatchObject({ kind: "inconsistent" });
    },
  );
});

describe("between (numbers bisected in the order of doubles)", () => {
  const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e308, max: 1e308 });
  test.prop([finite, finite, fc.boolean()])(
    "gives a value strictly between, an integer when asked, or none only when there is none",
    (a, b, integer) => {
      const m = between(a, b, integer);
      const [lo, hi] = a < b ? [a, b] : [b, a];
      if (m === undefined) {
        if (!integer)
          expect(lo === hi || (lo < hi && Number.isFinite(lo) && nextUp(lo) === hi)).toBe(true);
        else {
          // The first integer above lo (every double from 2^53 on is an integer).
          const firstInteger = Math.abs(lo) < 2 ** 53 ? Math.floor(lo) + 1 : nextUp(lo);
          expect(lo === hi || firstInteger >= hi).toBe(true);
        }
        return;
      }
      expect(m).toBeGreaterThan(lo);
      expect(m).toBeLessThan(hi);
      if (integer) expect(Number.isInteger(m)).toBe(true);
    },
  );

  it("gives an integer between bounds that are not integers themselves", () => {
    // Found by the property above (seed 20261123): the midpoint of two non-integers is no integer.
    expect([-2, -1]).toContain(between(-2.0000000000000004, 0, true));
    expect(between(0.5, 1.5, true)).toBe(1);
    expect(between(0.5, 0.9, true)).toBeUndefined();
  });

  test.prop([fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.boolean()])(
    "finds an integer maximum from 1e308 in at most 70 steps",
    (limit, positive) => {
      const t = positive ? Math.abs(limit) : limit;
      let accepted = Math.min(t, 0);
      let refused = 1e308;
      let steps = 0;
      for (let m = between(accepted, refused, true); m !== undefined; steps++) {
        if (m <= t) accepted = m;
        else refused = m;
        m = between(accepted, refused, true);
      }
      expect(accepted).toBe(t);
      expect(refused).toBe(t + 1);
      expect(steps).toBeLessThanOrEqual(70);
    },
  );
});

/** The next double above x (x finite). */
function nextUp(x: number): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x === 0 ? 0 : x);
  const bits = dv.getBigInt64(0);
  if (x >= 0) dv.setBigInt64(0, bits + 1n);
  else dv.setBigInt64(0, bits - 1n);
  return dv.getFloat64(0);
}
