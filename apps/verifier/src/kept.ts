/** A thread or process that can be left out of the event loop's count while it waits. */
export interface Holdable {
  ref(): void;
  unref(): void;
  once(event: "exit", listener: () => void): unknown;
}

/**
 * Workers kept between the runs of one process (the case threads, Pact's worker processes): a run
 * takes an idle one or starts its own, and gives it back when done. Idle, a worker is unreferenced
 * (it keeps no process alive); one that ends while idle is never handed out again.
 */
export class Kept<T extends Holdable> {
  readonly #idle: T[] = [];
  readonly #max: number;
  readonly #start: () => T;
  #started = 0;

  /** @param max - idle workers kept at most; @param start - starts a new one. */
  constructor(max: number, start: () => T) {
    this.#max = max;
    this.#start = start;
  }

  /** An idle worker (referenced again), or a new one. */
  take(): T {
    const kept = this.#idle.pop();
    if (kept) {
      kept.ref();
      return kept;
    }
    return this.#new();
  }

  /** Keeps `w` idle for the next run; false when enough are kept (the caller ends it). */
  keep(w: T): boolean {
    if (this.#idle.length >= this.#max) return false;
    w.unref();
    this.#idle.push(w);
    return true;
  }

  /** Starts one now, idle, for the run to come (unless one is already waiting). */
  warm(): void {
    if (this.#idle.length === 0) this.keep(this.#new());
  }

  /** The idle workers (tests). */
  get idle(): readonly T[] {
    return this.#idle;
  }

  /** How many this pool has started (tests). */
  get started(): number {
    return this.#started;
  }

  #new(): T {
    this.#started += 1;
    const w = this.#start();
    w.once("exit", () => {
      const i = this.#idle.indexOf(w);
      if (i >= 0) this.#idle.splice(i, 1);
    });
    return w;
  }
}
