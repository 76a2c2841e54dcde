// Interactions whose provider states could interfere never go to two instances of Pact's verifier.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { instanceCount, partitionByStates, type StatefulItem } from "../src/pact/partition.ts";

const stateArb = fc.record({
  name: fc.constantFrom("a login user exists", "no login user exists", "no schemas"),
  params: fc.oneof(
    fc.constant({}),
    fc.record({ id: fc.constantFrom("u1", "u2", "u3", "u4", "u5", "u6") }),
    fc.record({ name: fc.constantFrom("s1", "s2") }),
  ),
});
const itemsArb = fc.array(fc.record({ providerStates: fc.array(stateArb, { maxLength: 2 }) }), {
  maxLength: 60,
});

/** What an item touches, written out again for the test (not the module's own function). */
const keysOf = (item: StatefulItem): string[] =>
  item.providerStates.flatMap((s) =>
    Object.keys(s.params).length === 0
      ? [`name ${s.name}`]
      : Object.entries(s.params).map(([k, v]) => `${k} ${String(v)}`),
  );

describe("partitionByStates", () => {
  test.prop([itemsArb, fc.integer({ min: 1, max: 6 })])(
    "puts every item in exactly one part, never two that share a state value apart",
    (items, instances) => {
      const parts = partitionByStates(items, instances);
      expect(parts.length).toBeLessThanOrEqual(instances);
      expect(parts.flat().sort((a, b) => a - b)).toEqual(items.map((_, i) => i));
      const partOf = new Map<number, number>();
      parts.forEach((p, k) => {
        for (const i of p) partOf.set(i, k);
        expect(p).toEqual([...p].sort((a, b) => a - b));
      });
      for (let i = 0; i < items.length; i++)
        for (let j = i + 1; j < items.length; j++) {
          const a = new Set(keysOf(items[i] as StatefulItem));
          if (keysOf(items[j] as StatefulItem).some((k) => a.has(k)))
            expect(partOf.get(i)).toBe(partOf.get(j));
        }
      expect(partitionByStates(items, instances)).toEqual(parts);
    },
  );

  test.prop([fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: 8 })])(
    "spreads stateless items evenly",
    (n, instances) => {
      const sizes = partitionByStates(
        Array.from({ length: n }, () => ({ providerStates: [] })),
        instances,
      ).map((p) => p.length);
      if (n > 0) expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      expect(sizes.length).toBe(Math.min(n, instances));
    },
  );

  it("starts an instance only for 20 interactions or more each", () => {
    expect(instanceCount(12, 4)).toBe(1);
    expect(instanceCount(39, 4)).toBe(1);
    expect(instanceCount(40, 4)).toBe(2);
    expect(instanceCount(600, 2)).toBe(2);
    expect(instanceCount(600, 1)).toBe(1);
  });
});
