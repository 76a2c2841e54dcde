// `--rate-limit N/s`: one budget for the whole run, worker threads included. The state is one
// 64-bit slot in a SharedArrayBuffer: the earliest time (in microseconds of the epoch) the next
// request may start. Each request claims the slot with compare-and-swap and moves it on by one
// interval (GCRA with a burst of one): requests are spaced evenly, never bunched, so a gateway's
// token bucket of the same rate never runs dry.

export class RateLimiter {
  readonly ratePerSecond: number;
  /** The state to hand to another thread's limiter. */
  readonly shared: SharedArrayBuffer;
  readonly #next: BigInt64Array;
  readonly #intervalUs: bigint;

  /** `shared` comes from another thread's limiter (`.shared`), or is made here. */
  constructor(ratePerSecond: number, shared?: SharedArrayBuffer) {
    this.ratePerSecond = ratePerSecond;
    this.shared = shared ?? new SharedArrayBuffer(8);
    this.#next = new BigInt64Array(this.shared);
    this.#intervalUs = BigInt(Math.max(1, Math.round(1e6 / ratePerSecond)));
  }

  /** Microseconds of the epoch, comparable between threads. */
  static nowUs(): bigint {
    return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000));
  }

  /** Claims the next slot; resolves when it starts (at once when the run is below the rate). */
  async take(): Promise<void> {
    for (;;) {
      const now = RateLimiter.nowUs();
      const seen = Atomics.load(this.#next, 0);
      // biome-ignore lint/complexity/useMathMinMax: bigints (Math.max takes numbers only)
      const start = seen > now ? seen : now;
      if (Atomics.compareExchange(this.#next, 0, seen, start + this.#intervalUs) !== seen) continue;
      const waitMs = Number(start - now) / 1000;
      if (waitMs >= 1) await new Promise((r) => setTimeout(r, waitMs));
      return;
    }
  }
}

/**
 * Parses `N/s` or `N/m` (N a positive number): requests per second. `undefined` when the text is
 * not one.
 */
export function parseRate(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*\/\s*(s|sec|second|m|min|minute)\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  if (!(n > 0)) return undefined;
  return /^m/i.test(m[2] as string) ? n / 60 : n;
}
