import {
  BOUND_PATHS,
  BOUND_UNITS,
  type BoundPath,
  type BoundUnit,
  type ContractProfile,
  type DetailedOperationId,
  detailedOperations,
  type JsonPath,
  lengthIn,
  UNIT_WORDS,
} from "@idp/contracts";
import type { Answer } from "../http/client.ts";

// The exact limit of one string place, and the unit it is counted in (conformance.md §6 `unit`),
// found by asking the provider: R4 names it when a shrunk failure is a length, and --learn pins it.
// ASCII strings weigh the same in every unit, so bisecting over them finds the limit T itself;
// three strings of T code points, UTF-16 units and bytes made of heavier characters then tell the
// units apart, and the unit kept is the one that explains every string tried.

/** What the provider did with one string: accepted it, refused it with a 4xx, or something else. */
export interface Tried {
  readonly text: string;
  readonly outcome: "accepted" | "refused" | "other";
  readonly answer: Answer;
}

/** What an answer to a valid body is: its success status, a 4xx, or anything else. */
export function outcomeOf(op: DetailedOperationId, answer: Answer): Tried["outcome"] {
  if (answer.raw.kind !== "response") return "other";
  const { status } = answer.raw;
  if (status === detailedOperations[op].successStatus) return "accepted";
  return status >= 400 && status < 500 ? "refused" : "other";
}

/** A string place's limit: the most it accepts, in `unit`, and every string that showed it. */
export interface LengthLimit {
  readonly max: number;
  readonly unit: BoundUnit;
  readonly tried: readonly Tried[];
  /** The longest string accepted and the shortest refused, in `unit`. */
  readonly accepted: Tried;
  readonly refused: Tried;
}

/** Why no limit was found: the provider answered otherwise, or no unit explains what it did. */
export type NoLimit =
  | { readonly kind: "other"; readonly tried: Tried }
  | { readonly kind: "inconsistent"; readonly accepted: Tried; readonly refused: Tried }
  /** The longest string was accepted (`tried`), or even the empty one refused: no maxLength. */
  | { readonly kind: "not-refused" | "refused-at-0"; readonly tried: Tried };

/** How the characters of a probe weigh: ASCII (the same in all units), or heavier ones. */
const ASTRAL = "😀";
const CJK = "中";
const LATIN = "é";

/** The unit in which every accepted string is at most `max` and every refused one longer, if any. */
export function unitExplaining(tried: readonly Tried[], max: number): BoundUnit | undefined {
  return BOUND_UNITS.find((unit) =>
    tried.every(
      (t) =>
        t.outcome === "other" ||
        (t.outcome === "accepted" ? lengthIn(t.text, unit) <= max : lengthIn(t.text, unit) > max),
    ),
  );
}

/**
 * Finds the limit of a place that refused `refused`. `send` puts one string at the place and says
 * what the provider did; `prefix` (a name never sent, for a schema name) starts every probe so
 * each is new to the provider; `known` is what `refused` got already, if it was sent. Sends about
 * log2(bytes of `refused`) + 4 requests.
 */
export async function findLengthLimit(
  refused: string,
  send: (text: string) => Promise<Tried>,
  prefix: () => string = () => "",
  known?: Tried,
): Promise<LengthLimit | NoLimit> {
  const tried: Tried[] = [];
  const probe = async (length: number, heavy = "") => {
    // `length` ASCII-wide positions: a fresh prefix, then the characters asked for.
    const head = prefix().slice(0, length);
    const rest = length - head.length;
    const text = head + (heavy === "" ? "x".repeat(rest) : heavy.repeat(rest));
    const t = await send(text);
    tried.push(t);
    return t;
  };
  const first = known ?? (await send(refused));
  tried.push(first);
  if (first.outcome === "other") return { kind: "other", tried: first };
  // ASCII as long as the refused string's largest measure is refused too, by a provider that
  // counts any unit; the bisection keeps accepted < T + 1 <= refused.
  let hi = lengthIn(refused, "bytes");
  const top = hi === refused.length ? first : await probe(hi);
  if (top.outcome === "other") return { kind: "other", tried: top };
  if (top.outcome === "accepted") return { kind: "not-refused", tried: top };
  let lo = -1;
  let best: Tried | undefined;
  let worst = top;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const t = await probe(mid);
    if (t.outcome === "other") return { kind: "other", tried: t };
    if (t.outcome === "accepted") {
      lo = mid;
      best = t;
    } else {
      hi = mid;
      worst = t;
    }
  }
  if (!best) return { kind: "refused-at-0", tried: worst };
  const max = lo;
  // T code points of astral characters (2T UTF-16 units, 4T bytes), T of CJK (3T bytes), and T
  // bytes of 2-byte letters: which are accepted tells the units apart.
  for (const heavy of [ASTRAL, CJK]) {
    const t = await probe(max, heavy);
    if (t.outcome === "other") return { kind: "other", tried: t };
  }
  const bytes = await probe(Math.floor(max / 2), LATIN);
  if (bytes.outcome === "other") return { kind: "other", tried: bytes };
  const unit = unitExplaining(tried, max);
  if (!unit) {
    const a = tried.find((t) => t.outcome === "accepted") ?? best;
    const r = tried.find((t) => t.outcome === "refused") ?? worst;
    return { kind: "inconsistent", accepted: a, refused: r };
  }
  const inUnit = (t: Tried) => lengthIn(t.text, unit);
  const accepted = tried
    .filter((t) => t.outcome === "accepted")
    .reduce((a, b) => (inUnit(b) > inUnit(a) ? b : a));
  const shortest = tried
    .filter((t) => t.outcome === "refused")
    .reduce((a, b) => (inUnit(b) < inUnit(a) ? b : a));
  return { max, unit, tried, accepted, refused: shortest };
}

/** The bound path of a concrete path: `[]` for an array index, `*` for a key of the features map. */
export function patternOf(path: JsonPath): string {
  let out = "";
  path.forEach((seg, i) => {
    if (typeof seg === "number") out += "[]";
    else if (i === 2 && path[0] === "rules" && path[1] === "features") out += ".*";
    else out += i === 0 ? seg : `.${seg}`;
  });
  return out;
}

/**
 * When the profile pins a bound where a valid string was refused: the bound, what it allows and
 * its source (a learned profile's names the evidence it was learned from), for R4's message.
 */
export function profileBoundNote(path: JsonPath, profile: ContractProfile): string | undefined {
  const pattern = patternOf(path);
  if (!Object.hasOwn(BOUND_PATHS, pattern)) return undefined;
  const key = pattern as BoundPath;
  const bound = profile.bounds[key];
  if (bound?.maxLength === undefined) return undefined;
  const ref = profile.sourceOf(`bounds.${key}`);
  return `the profile's bounds.${key} allows ${bound.maxLength} ${UNIT_WORDS[bound.unit ?? "codePoints"]} (source: ${ref.source}, ${ref.ref})`;
}
