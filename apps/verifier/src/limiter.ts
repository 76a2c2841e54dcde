/** At most `limit` tasks at once; the rest wait in order. */
export class Limiter {
  #active = 0;
  readonly #queue: (() => void)[] = [];
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((r) => this.#queue.push(r));
    this.#active++;
    try {
      return await task();
    } finally {
      this.#active--;
      this.#queue.shift()?.();
    }
  }
}

/** Runs `worker` over `items` with at most `limit` in flight; results in input order. */
export async function mapBounded<I, O>(
  items: readonly I[],
  limit: number,
  worker: (item: I) => Promise<O>,
): Promise<O[]> {
  const limiter = new Limiter(limit);
  return Promise.all(items.map((item) => limiter.run(() => worker(item))));
}
