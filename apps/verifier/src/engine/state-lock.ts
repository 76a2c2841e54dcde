// One provider state at a time, across every thread of a run (conformance.md §4): when the
// provider's setups are not additive, a state is set up only after the one before it was torn down,
// and no other state's requests are in flight in between. The lock is one word of shared memory,
// so the conformance threads and the thread that answers Pact's state changes hold it alike.

/** Gives back the lock (a second call does nothing). */
export type Release = () => void;

const FREE = 0;
const HELD = 1;

// ES2024 (in Node since 16); the project's lib is ES2023.
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync.bind(Atomics);

export class StateLock {
  /** What another thread builds its own StateLock over. */
  readonly shared: SharedArrayBuffer;
  readonly #word: Int32Array;
  /** This thread's waiters, first come first served (the word itself promises no order). */
  readonly #queue: (() => void)[] = [];
  #mine = false;

  constructor(shared: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.shared = shared;
    this.#word = new Int32Array(shared);
  }

  /** Resolves once this caller holds the lock; it holds it until it calls the release. */
  async acquire(): Promise<Release> {
    // Within this thread, one holder or candidate at a time, in order.
    if (this.#mine) await new Promise<void>((resolve) => this.#queue.push(resolve));
    this.#mine = true;
    while (Atomics.compareExchange(this.#word, 0, FREE, HELD) !== FREE) {
      const wait = waitAsync(this.#word, 0, HELD);
      if (wait.async) await wait.value;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      Atomics.store(this.#word, 0, FREE);
      Atomics.notify(this.#word, 0);
      const next = this.#queue.shift();
      if (next) next();
      else this.#mine = false;
    };
  }
}

const locks = new WeakMap<SharedArrayBuffer, StateLock>();

/** This thread's lock over `shared` (one per thread, so its waiters queue in one line). */
export function stateLockOf(shared: SharedArrayBuffer): StateLock {
  let lock = locks.get(shared);
  if (!lock) {
    lock = new StateLock(shared);
    locks.set(shared, lock);
  }
  return lock;
}
