const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** At most one cut per this long (one burst of 429s is one signal), and the window measured. */
const CUT_MS = 200;
/** The pace rises by 5% each this long without a throttled answer. */
const RAISE_MS = 100;

/**
 * How fast, and how many at once, requests go to a provider that may be throttled (conformance.md
 * §7: "lowers its concurrency while throttled"). Unthrottled, up to `ceiling` in flight and no
 * pacing. At a throttled answer (at most once per 200 ms): half as many in flight, and a pace of 70%
 * of what was being sent (the rate of the last 200 ms, or the pace already set), so the requests
 * waiting out a Retry-After come back spread out instead of all at once. Each 100 ms without a
 * throttled answer raises the pace by 5% (and, each second, lets one more in flight): the pace
 * settles just under the gateway's rate, as TCP's does under a link's.
 */
export class AdaptiveGate {
  readonly ceiling: number;
  #limit: number;
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];
  /** Requests per second while paced; undefined: not paced. */
  #rate: number | undefined;
  #nextAt = 0;
  #lastCut = Number.NEGATIVE_INFINITY;
  #lastRaise = Number.NEGATIVE_INFINITY;
  #lastWiden = Number.NEGATIVE_INFINITY;
  /** When the requests of the last second went (timestamps, oldest first). */
  #sends: number[] = [];

  constructor(ceiling: number) {
    this.ceiling = Math.max(1, ceiling);
    this.#limit = this.ceiling;
  }

  /** Requests allowed in flight now (for tests and reports). */
  get limit(): number {
    return this.#limit;
  }
  /** The pace, in requests per second, or undefined when not paced. */
  get rate(): number | undefined {
    return this.#rate;
  }

  /**
   * Waits for a place in flight, then for the request's turn at the current pace; `undefined` when
   * the request may go at once (the hot path: no promise).
   */
  acquire(): Promise<void> | undefined {
    this.#sends.push(performance.now());
    if (this.#sends.length > 8192) this.#sends = this.#sends.slice(-4096);
    if (this.#rate === undefined && this.#inFlight < this.#limit) {
      this.#inFlight++;
      return undefined;
    }
    return this.#acquireSlowly();
  }

  async #acquireSlowly(): Promise<void> {
    if (this.#inFlight < this.#limit) this.#inFlight++;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    if (this.#rate === undefined) return;
    const now = performance.now();
    const start = Math.max(now, this.#nextAt);
    this.#nextAt = start + 1000 / this.#rate;
    if (start - now >= 1) await sleep(start - now);
  }

  release(): void {
    this.#inFlight--;
    this.#wake();
  }

  /** A throttled answer: fewer in flight, and a slower pace. */
  throttled(now = performance.now()): void {
    if (now - this.#lastCut < CUT_MS) return;
    this.#lastCut = now;
    this.#limit = Math.max(1, Math.floor(this.#limit / 2));
    this.#rate = Math.max(5, 0.7 * (this.#rate ?? this.#sentPerSecond(now)));
  }

  /** An answer that was not throttled: after a quiet second, a faster pace and one more in flight. */
  answered(now = performance.now()): void {
    if (now - this.#lastCut < RAISE_MS || now - this.#lastRaise < RAISE_MS) return;
    if (this.#rate !== undefined) this.#rate *= 1.05;
    if (now - this.#lastWiden >= 1000 && this.#limit < this.ceiling) {
      this.#lastWiden = now;
      this.#limit++;
      this.#wake();
    }
    this.#lastRaise = now;
  }

  /** The rate sent over the last 200 ms, per second. */
  #sentPerSecond(now: number): number {
    let i = 0;
    while (i < this.#sends.length && (this.#sends[i] as number) < now - CUT_MS) i++;
    this.#sends = this.#sends.slice(i);
    return this.#sends.length * (1000 / CUT_MS);
  }

  #wake(): void {
    while (this.#inFlight < this.#limit && this.#waiting.length > 0) {
      this.#inFlight++;
      (this.#waiting.shift() as () => void)();
    }
  }
}
