/** A FIFO semaphore: the one in-flight budget every check's cases share (`--concurrency`). */
export class Budget {
  readonly size: number;
  #free: number;
  readonly #waiting: (() => void)[] = [];
  constructor(size: number) {
    this.size = size;
    this.#free = size;
  }

  acquire(): Promise<void> | undefined {
    if (this.#free > 0) {
      this.#free--;
      return undefined;
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}
