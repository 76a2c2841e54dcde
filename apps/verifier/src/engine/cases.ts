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
