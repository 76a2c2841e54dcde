import {
  BOUND_PATH_NAMES,
  BOUND_PATHS,
  type Bound,
  type BoundPath,
  type DetailedOperationId,
  detailedOperations,
  type JsonPath,
  operationOfBound,
  UNIT_WORDS,
  VALUES_IN_USE_KEYS,
} from "@idp/contracts";
import type { Answer } from "../http/client.ts";
import { findLengthLimit, outcomeOf, type Tried } from "../rules/length-limit.ts";
import { baseBody, placeOf, valueAt, withValue } from "./bodies.ts";
import { type Learning, neverLearned, type Seen, statusOf } from "./learning.ts";

// bounds (conformance.md §6), each found to the exact threshold: the value at one place of a small
// valid body is sent at least as far as anything the run sends there (a string of 400,000 ASCII
// characters: the bytes of the run's longest string, and more code points and UTF-16 units; as many
// items as fit in 900 KB; ±1e308); when that is refused with a 4xx, bisection finds the largest value accepted,
// and for a string the unit that explains every string tried (rules/length-limit.ts).

/** Past every string the run sends: 100,000 code points of up to 4 bytes each. */
export const STRING_CEILING = 400_000;
/** Past every array and map the run sends, as long as the body stays under 1 MiB. */
const ITEMS_CEILING = 100_000;
const BODY_BUDGET = 900_000;
const NUMBER_CEILING = 1e308;

/** A probe that found no answer (the time was up): the bound is not surveyed. */
class NoAnswer extends Error {}

/**
 * A value strictly between two numbers (an integer when `integer`), bisecting in the order of the
 * doubles' bits, so exponents and mantissas halve alike; undefined when there is none.
 */
export function between(a: number, b: number, integer: boolean): number | undefined {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  let m: number;
  if (integer && Math.abs(lo) < 2 ** 53 && Math.abs(hi) < 2 ** 53) {
    // The integers strictly inside, from the first above lo to the last below hi (lo and hi need
    // not be integers themselves: a bound may sit between two).
    const first = Math.floor(lo) + 1;
    const last = Math.ceil(hi) - 1;
    if (first > last) return undefined;
    m = first + Math.floor((last - first) / 2);
  } else {
    const mid = (ordOf(lo) + ordOf(hi)) / 2n;
    m = doubleOf(mid);
    if (integer) {
      // Near 0 the midpoint of the bits is a tiny fraction: the next integer up is between too.
      m = Math.floor(m);
      if (m <= lo) m = Math.abs(lo) < 2 ** 53 ? Math.floor(lo) + 1 : doubleOf(ordOf(lo) + 1n);
    }
  }
  return m > lo && m < hi ? m : undefined;
}

/** A double's place in the order of all doubles (negative ones mirrored), as a bigint. */
function ordOf(x: number): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const v = dv.getBigInt64(0);
  return v < 0n ? -(v & 0x7fffffffffffffffn) : v;
}

function doubleOf(ord: bigint): number {
  const dv = new DataView(new ArrayBuffer(8));
  if (ord >= 0n) dv.setBigInt64(0, ord);
  else dv.setBigUint64(0, -ord | 0x8000000000000000n);
  return dv.getFloat64(0);
}

export async function learnBounds(l: Learning): Promise<void> {
  const usable = new Map<DetailedOperationId, boolean>();
  for (const path of BOUND_PATH_NAMES) {
    // A value in use is never lengthened: a longer one is not in use either.
    if ((VALUES_IN_USE_KEYS as readonly string[]).includes(path)) continue;
    const op = operationOfBound(path);
    const key = `bounds.${path}` as const;
    if (!usable.has(op)) usable.set(op, await baseAccepted(l, op));
    if (!usable.get(op)) continue;
    try {
      await learnBound(l, op, path);
    } catch (e) {
      if (!(e instanceof NoAnswer)) throw e;
      l.not("not-surveyed", key, "no answer (the time was up, or the provider stopped answering)");
    }
  }
}

/** Whether the small valid body of `op` gets the success status: else no bound of it is probed. */
async function baseAccepted(l: Learning, op: DetailedOperationId): Promise<boolean> {
  const check = `R4.valid-accepted.${op}`;
  const subject = `bounds (${op})`;
  if (op === "pushToUserDevices" && !l.prober.statesAvailable) {
    l.not("not-surveyed", subject, "a valid push needs a login user: give --provider-states-url");
    return false;
  }
  if (op === "pushToUserDevices" && !(await l.prober.stateId("user"))) {
    l.not("not-surveyed", subject, 'the state "a login user exists" could not be set up');
    return false;
  }
  const answer = await l.prober.send(
    op,
    JSON.stringify(baseBody(op, l.profile, l.prober.freshName())),
    { source: check },
  );
  l.saw(check, answer);
  if (!answer) {
    l.not("not-surveyed", subject, "no answer (the time was up)");
    return false;
  }
  if (outcomeOf(op, answer) === "accepted") return true;
  const status = statusOf(answer);
  const success = detailedOperations[op].successStatus;
  const why =
    status === undefined
      ? "a small valid body got no answer"
      : status >= 200 && status < 300
        ? `a small valid body got ${status}: a success status other than the spec's ${success} is never learned (R4, spec)`
        : (neverLearned(status) ??
          `a small valid body got ${status}, not ${success}: no limit explains that`);
  l.not("refused", subject, why, [{ check, answer }]);
  return false;
}

async function learnBound(l: Learning, op: DetailedOperationId, path: BoundPath): Promise<void> {
  const { profile, prober } = l;
  const check = `R4.valid-accepted.${op}`;
  const key = `bounds.${path}` as const;
  const isName = path === "schema.name";
  const base = baseBody(op, profile, "");
  const place = placeOf(base, path) as JsonPath;
  const send = async (value: unknown): Promise<Answer> => {
    const body = baseBody(op, profile, prober.freshName());
    const answer = await prober.send(op, JSON.stringify(withValue(body, place, value)), {
      source: check,
    });
    if (!answer) throw new NoAnswer();
    l.saw(check, answer);
    return answer;
  };
  const tried = async (value: unknown) => {
    const answer = await send(value);
    return { value, outcome: outcomeOf(op, answer), answer };
  };
  const kind = BOUND_PATHS[path];
  const current = profile.bounds[path];

  /** What a probe far past the run's values shows: accepted (no bound), a refusal, or neither. */
  const atCeiling = (t: { outcome: string; answer: Answer }, what: string): boolean => {
    if (t.outcome === "refused") return true;
    if (t.outcome === "accepted") {
      if (current)
        l.not(
          "dropped",
          key,
          `the provider accepted ${what}, past the profile's bound: left out of the file`,
          [{ check, answer: t.answer }],
        );
      return false;
    }
    const status = statusOf(t.answer);
    l.not(
      "refused",
      key,
      `${what} got ${status ?? "no answer"}: ${
        status === undefined
          ? "nothing to learn"
          : (neverLearned(status) ??
            `a success status other than the spec's is never learned (R4, spec)`)
      }`,
      [{ check, answer: t.answer }],
    );
    return false;
  };

  /** Learns `bound` from the shortest refusal and the longest acceptance, if its status can be one. */
  const pin = (bound: Omit<Bound, "status">, refusals: readonly Seen[], seen: string) => {
    const statuses = new Set(refusals.map((s) => statusOf(s.answer)));
    if (statuses.size > 1) {
      const one = [...statuses].map((s) => refusals.find((r) => statusOf(r.answer) === s) as Seen);
      l.not("inconsistent", key, `refused with ${[...statuses].join(" and ")}`, one);
      return;
    }
    const status = [...statuses][0] as number;
    const last = refusals[refusals.length - 1] as Seen;
    if (status !== 400 && status !== 422) {
      l.not(
        "refused",
        key,
        `refused with ${status}: a bound's status is 400 or 422, the statuses the spec documents for a bad request body`,
        [last],
      );
      return;
    }
    const value = { ...bound, status } as Bound;
    if (JSON.stringify(value) === JSON.stringify(current)) return;
    const source = l.source(check, seen.replaceAll("{status}", String(status)), last.answer);
    l.learn(key, value, source);
    l.documents(op, status, source);
  };

  if (kind === "string") {
    const fresh = () => (isName ? prober.freshName() : "");
    const ceiling = `${fresh()}`.padEnd(STRING_CEILING, "x");
    const first = await tried(ceiling);
    if (!atCeiling(first, `a ${path} of ${STRING_CEILING} ASCII characters`)) return;
    const found = await findLengthLimit(
      ceiling,
      async (text): Promise<Tried> => {
        const answer = await send(text);
        return { text, outcome: outcomeOf(op, answer), answer };
      },
      fresh,
      { text: ceiling, outcome: first.outcome, answer: first.answer },
    );
    if (!("unit" in found)) {
      if (found.kind === "inconsistent")
        l.not(
          "inconsistent",
          key,
          "no unit (code points, UTF-16 units, bytes) explains every string accepted and refused",
          [
            { check, answer: found.accepted.answer },
            { check, answer: found.refused.answer },
          ],
        );
      else
        l.not(
          "refused",
          key,
          found.kind === "refused-at-0"
            ? "refused at every length, even empty: not a maximum length"
            : "no consistent limit: a shorter string was refused and a longer one accepted",
          [{ check, answer: found.tried.answer }],
        );
      return;
    }
    const { max, unit } = found;
    const refusals = found.tried
      .filter((t) => t.outcome === "refused")
      .map((t) => ({ check, answer: t.answer }));
    const why =
      unit === "utf16"
        ? "an astral character counts two"
        : unit === "bytes"
          ? "a CJK character counts three"
          : "an astral character counts one";
    pin(
      { maxLength: max, unit },
      // The shortest refusal is the evidence: put it last.
      [
        ...refusals.filter((r) => r.answer !== found.refused.answer),
        { check, answer: found.refused.answer },
      ],
      `a ${path} of ${max + 1} ${UNIT_WORDS[unit]} is refused with {status}; ${max} is accepted (${why})`,
    );
    return;
  }

  if (kind === "array" || kind === "map") {
    const container = valueAt(base, place);
    const item =
      kind === "array"
        ? (container as unknown[])[0]
        : Object.values(container as Record<string, unknown>)[0];
    const [firstKey = "k"] = kind === "map" ? Object.keys(container as object) : [];
    const many = (n: number): unknown =>
      kind === "array"
        ? Array.from({ length: n }, () => item)
        : Object.fromEntries(
            Array.from({ length: n }, (_, i) => [i === 0 ? firstKey : `${firstKey}~${i}`, item]),
          );
    const n = Math.min(
      ITEMS_CEILING,
      Math.floor(BODY_BUDGET / (JSON.stringify(item).length + firstKey.length + 8)),
    );
    const words = kind === "array" ? "items" : "keys";
    const top = await tried(many(n));
    if (!atCeiling(top, `a ${path} of ${n} ${words}`)) return;
    const refusals: Seen[] = [{ check, answer: top.answer }];
    let lo = 1;
    let hi = n;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      const t = await tried(many(mid));
      if (t.outcome === "accepted") lo = mid;
      else if (t.outcome === "refused") {
        hi = mid;
        refusals.push({ check, answer: t.answer });
      } else return void atCeiling(t, `a ${path} of ${mid} ${words}`);
    }
    pin(
      { maxItems: lo },
      refusals,
      `a ${path} of ${hi} ${words} is refused with {status}; ${lo} is accepted`,
    );
    return;
  }

  // A number: each side past the base value, bisected in the order of doubles.
  const integer = kind === "integer";
  const start = valueAt(base, place) as number;
  const bound: { minimum?: number; maximum?: number } = {};
  const refusals: Seen[] = [];
  const seen: string[] = [];
  for (const far of [NUMBER_CEILING, -NUMBER_CEILING]) {
    const top = await tried(far);
    if (!atCeiling(top, `a ${path} of ${far}`)) continue;
    refusals.push({ check, answer: top.answer });
    let accepted = start;
    let refused = far;
    for (let m = between(accepted, refused, integer); m !== undefined; ) {
      const t = await tried(m);
      if (t.outcome === "accepted") accepted = m;
      else if (t.outcome === "refused") {
        refused = m;
        refusals.push({ check, answer: t.answer });
      } else return void atCeiling(t, `a ${path} of ${m}`);
      m = between(accepted, refused, integer);
    }
    if (far > 0) bound.maximum = accepted;
    else bound.minimum = accepted;
    seen.push(`${refused} is refused with {status}, ${accepted} is accepted`);
  }
  if (refusals.length > 0) pin(bound, refusals, `a ${path} of ${seen.join("; of ")}`);
}
