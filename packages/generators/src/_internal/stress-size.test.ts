import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sizeArb } from "./stress-text.ts";

// What the stress sizes promise (README "Sizes" and "Shrinking"), judged on draws, not on the map.
describe("stress sizes", () => {
  it("are whole numbers in [1, max] for any max", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer(), (max, seed) => {
        for (const size of fc.sample(sizeArb(max), { seed, numRuns: 20 })) {
          expect(Number.isInteger(size)).toBe(true);
          expect(size).toBeGreaterThanOrEqual(1);
          expect(size).toBeLessThanOrEqual(max);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("are the maximum about a quarter of the time, and below it reach every order of magnitude", () => {
    const max = 100_000;
    const sizes = fc.sample(sizeArb(max), { seed: 7, numRuns: 4000 });
    const share = (keep: (s: number) => boolean) => sizes.filter(keep).length / sizes.length;
    expect(share((s) => s === max)).toBeGreaterThan(0.2);
    expect(share((s) => s === max)).toBeLessThan(0.32);
    for (const [low, high] of [
      [1, 10],
      [10, 100],
      [100, 1_000],
      [1_000, 10_000],
      [10_000, max],
    ] as const) {
      expect(
        share((s) => s >= low && s < high),
        `sizes in [${low}, ${high})`,
      ).toBeGreaterThan(0.05);
    }
    // The volume a run sends: a uniform draw below the maximum averaged 62 % of it.
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    expect(mean / max).toBeLessThan(0.45);
  });

  it("shrink to the smallest failing size: exactly up to 64, within 1/64 of it above", () => {
    for (const [limit, seed] of [
      [3, 1],
      [40, 2],
      [5_000, 3],
      [77_777, 4],
    ] as const) {
      const r = fc.check(
        fc.property(sizeArb(100_000), (s) => s <= limit),
        { seed },
      );
      const found = r.counterexample?.[0];
      expect(found, `limit ${limit}`).toBeGreaterThan(limit);
      if (limit < 64) expect(found).toBe(limit + 1);
      else expect(found).toBeLessThanOrEqual(Math.ceil((limit + 1) * (1 + 1 / 64)));
    }
  });
});
