import type { ProviderStateName } from "@idp/contracts";
import type { Release, StateLock } from "./state-lock.ts";
import { type ProviderStates, type StateResult, stateParams } from "./states.ts";

/** A group of consecutive cases that share one provider state (one setup, one teardown). */
export interface Batch {
  readonly id: string;
  readonly params: Readonly<Record<string, string>>;
  readonly ready: Promise<StateResult>;
  inFlight: number;
  sealed: boolean;
  /** One state at a time: gives the lock back (after the teardown). */
  release?: Release;
}

/**
 * Provider states per batch: cases [k*size, (k+1)*size) of a check run in one state set up once,
 * under an id of their own (`<prefix>-<k>`), and torn down when the last of them has been judged.
 * Cases are dispatched in index order, so entering batch k seals every batch before it.
 *
 * With a lock (the provider's setups are not additive, conformance.md §4), a batch's setup waits
 * for the lock and its teardown gives it back: no state is set up or torn down while another
 * state's cases are in flight, this check's or any other's. Without one, states overlap: the next
 * batch is set up while the one before it is still in flight.
 */
export class Batches {
  readonly #states: ProviderStates;
  readonly #name: ProviderStateName;
  readonly #prefix: string;
  readonly #size: number;
  readonly #lock: StateLock | undefined;
  readonly #open = new Map<number, Batch>();
  readonly #teardowns: Promise<unknown>[] = [];

  constructor(
    states: ProviderStates,
    name: ProviderStateName,
    prefix: string,
    size: number,
    lock?: StateLock,
  ) {
    this.#states = states;
    this.#name = name;
    this.#prefix = prefix;
    this.#size = size;
    this.#lock = lock;
  }

  get name(): ProviderStateName {
    return this.#name;
  }

  /** The batch of case `index` (set up when first entered); call {@link leave} when judged. */
  enter(index: number): Batch {
    const k = Math.floor(index / this.#size);
    let batch = this.#open.get(k);
    if (!batch) {
      for (const [j, earlier] of this.#open) if (j < k) this.#seal(j, earlier);
      batch = this.#create(`${this.#prefix}-${k}`);
      this.#open.set(k, batch);
    }
    batch.inFlight++;
    return batch;
  }

  /**
   * Sets up the batch of case `index` ahead of its first case (entering it later seals the ones
   * before it as usual): its cases then find their state ready instead of waiting a round trip.
   */
  prepare(index: number): void {
    // One state at a time: set up only when its turn comes (it would wait for the lock anyway).
    if (this.#lock) return;
    const k = Math.floor(index / this.#size);
    if (!this.#open.has(k)) this.#open.set(k, this.#create(`${this.#prefix}-${k}`));
  }

  leave(batch: Batch): void {
    batch.inFlight--;
    if (batch.sealed && batch.inFlight === 0) this.#teardown(batch);
  }

  /** A batch outside the numbering (shrinking): the caller tears it down with {@link close}. */
  dedicated(suffix: string): Batch {
    return this.#create(`${this.#prefix}-${suffix}`);
  }

  close(batch: Batch): void {
    this.#teardown(batch);
  }

  /** Seals every open batch and waits for all teardowns. */
  async drain(): Promise<void> {
    for (const [k, batch] of this.#open) this.#seal(k, batch);
    await Promise.all(this.#teardowns);
  }

  #create(id: string): Batch {
    const params = stateParams(this.#name, id);
    const setup = () => this.#states.change(this.#name, params, "setup");
    const lock = this.#lock;
    const batch: Batch = {
      id,
      params,
      ready: lock
        ? lock.acquire().then((release) => {
            batch.release = release;
            return setup();
          })
        : setup(),
      inFlight: 0,
      sealed: false,
    };
    return batch;
  }

  #seal(k: number, batch: Batch): void {
    batch.sealed = true;
    this.#open.delete(k);
    if (batch.inFlight === 0) this.#teardown(batch);
  }

  #teardown(batch: Batch): void {
    // A teardown waits for its setup; its own failure is not the provider's answer to any rule.
    this.#teardowns.push(
      batch.ready
        .then((r) => (r.ok ? this.#states.change(this.#name, batch.params, "teardown") : undefined))
        .finally(() => batch.release?.()),
    );
  }
}
