/** A small seeded PRNG (splitmix32): the same seed and case number give the same case. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The generator of case `index` of a run with `seed`, independent of the other cases. */
  static forCase(seed: number, index: number): Rng {
    const rng = new Rng((seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0);
    rng.next();
    return rng;
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor((this.next() / 2 ** 32) * (max - min + 1));
  }

  /** An integer in [min, max], small values far more likely (log-uniform). */
  size(min: number, max: number): number {
    const lo = Math.log(min + 1);
    const hi = Math.log(max + 1);
    return Math.min(
      max,
      Math.max(min, Math.floor(Math.exp(lo + (this.next() / 2 ** 32) * (hi - lo)) - 1)),
    );
  }

  chance(p: number): boolean {
    return this.next() / 2 ** 32 < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }

  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    const total = items.reduce((sum, [w]) => sum + w, 0);
    let at = (this.next() / 2 ** 32) * total;
    for (const [w, value] of items) {
      if (at < w) return value;
      at -= w;
    }
    return (items[items.length - 1] as readonly [number, T])[1];
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = this.next() & 0xff;
    return out;
  }
}
