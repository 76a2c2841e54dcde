import fc from "fast-check";

// fast-check's `fc.string` draws every character through its own arbitrary (an integer, mapped to
// a character, each a Value) and then an array of them: about 1 µs a string. A valid clustering
// rules body holds ~290 strings, and a large one thousands, so strings were most of what a case
// cost to generate. Here a string is drawn with a few calls to the random generator; shrinking is
// fast-check's own, on the array of the string's unit indices.

/**
 * The units a string is made of: code points by ranges, then whole sequences (several code points
 * that make one character). Index 0 is the simplest unit, the one shrinking goes to.
 */
export class UnitTable {
  readonly size: number;
  /** How many units the ranges hold (the sequences' indices follow them). */
  readonly inRanges: number;
  readonly #ranges: readonly (readonly [number, number])[];
  readonly #starts: readonly number[];
  readonly #sequences: readonly string[];
  /** Each sequence and its index, longest first (a sequence may begin with a unit of the ranges). */
  readonly #sequenceAt: readonly (readonly [string, number])[];

  constructor(ranges: readonly (readonly [number, number])[], sequences: readonly string[] = []) {
    let size = 0;
    const starts: number[] = [];
    for (const [from, to] of ranges) {
      starts.push(size);
      size += to - from + 1;
    }
    this.#ranges = ranges;
    this.#starts = starts;
    this.#sequences = sequences;
    this.#sequenceAt = sequences
      .map((s, i) => [s, size + i] as const)
      .sort((a, b) => b[0].length - a[0].length);
    this.inRanges = size;
    this.size = size + sequences.length;
  }

  /** The unit at `index` (0 <= index < size). */
  unit(index: number): string {
    return index < this.inRanges
      ? String.fromCodePoint(this.#codePoint(index))
      : (this.#sequences[index - this.inRanges] as string);
  }

  #codePoint(index: number): number {
    const ranges = this.#ranges;
    let r = ranges.length - 1;
    while (r > 0 && index < (this.#starts[r] as number)) r--;
    return (ranges[r] as readonly [number, number])[0] + index - (this.#starts[r] as number);
  }

  /** The units' indices of a string made of this table's units, else undefined. */
  indicesOf(text: string): number[] | undefined {
    const out: number[] = [];
    let at = 0;
    outer: while (at < text.length) {
      for (const [s, index] of this.#sequenceAt)
        if (text.startsWith(s, at)) {
          out.push(index);
          at += s.length;
          continue outer;
        }
      const cp = text.codePointAt(at) as number;
      const index = this.#indexOfCodePoint(cp);
      if (index === undefined) return undefined;
      out.push(index);
      at += cp > 0xffff ? 2 : 1;
    }
    return out;
  }

  #indexOfCodePoint(cp: number): number | undefined {
    for (let r = 0; r < this.#ranges.length; r++) {
      const [from, to] = this.#ranges[r] as readonly [number, number];
      if (cp >= from && cp <= to) return (this.#starts[r] as number) + cp - from;
    }
    return undefined;
  }
}

/** Indices drawn toward 0 when a run is biased: the simplest units, as fast-check's own bias does. */
const BIASED_UNITS = 16;
const SEQUENCE_SHARE = 8;

class UnitStringArbitrary extends fc.Arbitrary<string> {
  readonly #table: UnitTable;
  readonly #maxLength: number;
  readonly #shrinker: fc.Arbitrary<string>;

  constructor(table: UnitTable, maxLength: number) {
    super();
    this.#table = table;
    this.#maxLength = maxLength;
    this.#shrinker = fc.array(fc.integer({ min: 0, max: table.size - 1 }), { maxLength }).map(
      (indices) => indices.map((i) => table.unit(i)).join(""),
      (value) => {
        const indices = typeof value === "string" ? table.indicesOf(value) : undefined;
        if (indices === undefined || indices.length > maxLength)
          throw new Error("not a string of this table");
        return indices;
      },
    );
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    const table = this.#table;
    const biased = biasFactor !== undefined && mrng.nextInt(1, biasFactor) === 1;
    const length = mrng.nextInt(0, biased ? Math.min(2, this.#maxLength) : this.#maxLength);
    const simplest = Math.min(BIASED_UNITS, table.size) - 1;
    const sequences = table.size - table.inRanges;
    let text = "";
    for (let i = 0; i < length; i++)
      text += table.unit(
        biased && mrng.nextInt(0, 1) === 0
          ? mrng.nextInt(0, simplest)
          : // A few sequences among a million code points would never be drawn: one unit in
            // SEQUENCE_SHARE is one.
            sequences > 0 && mrng.nextInt(1, SEQUENCE_SHARE) === 1
            ? table.inRanges + mrng.nextInt(0, sequences - 1)
            : mrng.nextInt(0, table.inRanges - 1),
      );
    // No context: the first shrink reads the string back into its units (shrinking only).
    return new fc.Value(text, undefined);
  }

  canShrinkWithoutContext(value: unknown): value is string {
    return this.#shrinker.canShrinkWithoutContext(value);
  }

  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    return this.#shrinker.shrink(value, context);
  }
}

/**
 * Strings of 0 to `maxLength` units of `table`: lengths uniform, code points uniform over the
 * ranges, one unit in 8 a sequence when the table has some; a biased run draws short strings of the
 * simplest units. Shrinks as an array of units: shorter, then simpler units.
 */
export function unitString(table: UnitTable, maxLength = 10): fc.Arbitrary<string> {
  return new UnitStringArbitrary(table, maxLength);
}
