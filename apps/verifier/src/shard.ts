import { z } from "zod";

/**
 * `--shard i/n`: this run executes the i-th of n disjoint parts of the selected units (1-based).
 * A unit is a conformance check id (`R4.valid-accepted.createSchema`) or a pact interaction
 * (`pact.<description>`); from a broker, where interactions are known only after verifying, the
 * whole pact verification is one unit, `pact`.
 */
export interface Shard {
  readonly index: number;
  readonly total: number;
}

/** The largest n of `--shard i/n`: more jobs than that is a typo, not a CI matrix. */
export const MAX_SHARDS = 256;

/** `"2/3"` -> `{ index: 2, total: 3 }`; NaN where `text` is not of that form. */
function shardOf(text: string): Shard {
  const m = /^([1-9]\d{0,3})\/([1-9]\d{0,3})$/.exec(text.trim());
  return { index: Number(m?.[1]), total: Number(m?.[2]) };
}

/** `--shard i/n` with 1 <= i <= n <= MAX_SHARDS: `"2/3"` -> `{ index: 2, total: 3 }`. */
export const shardSchema = z
  .string()
  .refine(
    (text) => {
      const { index, total } = shardOf(text);
      return index <= total && total <= MAX_SHARDS;
    },
    {
      error: (issue) =>
        `--shard must be i/n with 1 <= i <= n <= ${MAX_SHARDS}, e.g. --shard 2/3 (received "${String(issue.input)}")`,
    },
  )
  .transform(shardOf);

export const shardLabel = (s: Shard): string => `${s.index}/${s.total}`;

/**
 * Deterministic split: the unit ids are sorted by code point (locale-independent) and dealt
 * round-robin, the k-th (0-based) to shard (k mod n) + 1. Shard sizes differ by at most one, and the
 * assignment depends only on the set of ids, never on their order, timing or the machine: every job
 * of one CI run (same tool version, same pacts) computes the same split, so the shards are disjoint
 * and their union is the whole run. Adding a check moves some units to another shard; shards are
 * compared within a run, never across versions.
 */
export function assignShards(units: Iterable<string>, total: number): Map<string, number> {
  const sorted = [...new Set(units)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(sorted.map((id, k) => [id, (k % total) + 1]));
}

/** The units of `shard` among `units` (all of them without a shard). */
export function unitsOfShard(units: Iterable<string>, shard: Shard | undefined): Set<string> {
  const all = [...units];
  if (!shard) return new Set(all);
  const assigned = assignShards(all, shard.total);
  return new Set(all.filter((id) => assigned.get(id) === shard.index));
}
