import fc from "fast-check";
import { xorshift128plus } from "pure-rand/generator/xorshift128plus";

/**
 * The cases of an arbitrary in exactly the order `fc.check(property, { seed })` generates them,
 * one at a time (`fc.sample` builds them all, and sampling chunks by path replays the random stream
 * from the start each time). This mirrors fast-check 4's runner: xorshift128plus from the seed (its
 * default random type), one jump per run, a fresh `Random` of that state, and the run's bias
 * `2 + floor(ln(runId + 1) * log10(e))`. Pinned by `test/cases.test.ts`, which compares it with
 * `fc.sample` for the verifier's own arbitraries: a fast-check upgrade that changes any of this fails
 * there, not in a user's replay.
 */
export function* casesOf<T>(arb: fc.Arbitrary<T>, seed: number): Generator<T, never, undefined> {
  const rng = xorshift128plus(seed);
  for (let runId = 0; ; runId++) {
    rng.jump();
    yield arb.generate(new fc.Random(rng), 2 + ~~(Math.log(runId + 1) * Math.LOG10E)).value;
  }
}

/**
 * The fast-check seed of one check: the run's seed mixed with the check's id (FNV-1a), so checks that
 * share an arbitrary (R2, R3; the six R1 variants) send different cases, and `--seed S --checks ID`
 * replays exactly the cases ID had in the whole run.
 */
export function checkSeed(runSeed: number, checkId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < checkId.length; i++) {
    h ^= checkId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (runSeed ^ h) | 0;
}
