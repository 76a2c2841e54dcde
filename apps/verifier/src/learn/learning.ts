import type {
  ContractProfile,
  DetailedOperationId,
  LearnedSource,
  ProfileKey,
} from "@idp/contracts";
import type { Answer } from "../http/client.ts";
import type { Prober } from "./prober.ts";
import type { Evidence, LearnedKey, NotLearned } from "./types.ts";

// What the learning phase found, as it finds it: keys with their evidence, and what it would not
// or could not learn. A 4xx a learned key maps to that the operation does not document is added
// to `documentedStatuses` too (conformance.md §6), with the same evidence.

/** One answer of the phase with the check whose rule it concerns. */
export interface Seen {
  readonly check: string;
  readonly answer: Answer;
}

export class Learning {
  readonly profile: ContractProfile;
  readonly prober: Prober;
  readonly #learned = new Map<ProfileKey, LearnedKey>();
  readonly notLearned: NotLearned[] = [];
  /** Every answer >= 400 of the phase: what `errorsItems` is learned from. */
  readonly errorAnswers: Seen[] = [];
  readonly #documented = new Map<DetailedOperationId, Set<number>>();

  constructor(profile: ContractProfile, prober: Prober) {
    this.profile = profile;
    this.prober = prober;
  }

  /** Records an answer's error body for `errorsItems` (called for every answer of the phase). */
  saw(check: string, answer: Answer | undefined): void {
    if (answer?.raw.kind === "response" && answer.raw.status >= 400)
      this.errorAnswers.push({ check, answer });
  }

  source(check: string, seen: string, answer: Answer): LearnedSource {
    const e = this.prober.evidence(check, answer);
    return { check, seen, request: e.request, answer: e.answer };
  }

  learn(key: ProfileKey, value: unknown, source: LearnedSource): void {
    this.#learned.set(key, { key, value, source });
  }

  /** `status` is what a learned key of `op` maps to: documented, or added with the same evidence. */
  documents(op: DetailedOperationId, status: number, source: LearnedSource): void {
    const current = this.profile.documentedStatuses[op];
    if (current.includes(status)) return;
    const added = this.#documented.get(op) ?? new Set<number>();
    added.add(status);
    this.#documented.set(op, added);
    const value = [...new Set([...current, ...added])].sort((a, b) => a - b);
    const key: ProfileKey = `documentedStatuses.${op}`;
    const earlier = this.#learned.get(key);
    this.learn(key, value, earlier?.source ?? source);
  }

  not(kind: NotLearned["kind"], subject: string, why: string, answers: readonly Seen[] = []): void {
    const exchanges: Evidence[] = answers.map((s) => this.prober.evidence(s.check, s.answer));
    this.notLearned.push({ kind, subject, why, exchanges });
  }

  get learned(): readonly LearnedKey[] {
    return [...this.#learned.values()];
  }

  has(key: ProfileKey): boolean {
    return this.#learned.has(key);
  }
}

/** Runs `f` over `items` with at most `n` at once; results in the items' order. */
export async function inPool<T, R>(
  items: readonly T[],
  n: number,
  f: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
  return out;
}

/** The status of an answer, or undefined when there was none. */
export const statusOf = (answer: Answer | undefined): number | undefined =>
  answer?.raw.kind === "response" ? answer.raw.status : undefined;

/** Why a status is never learned as a rejection, if it is not one (conformance.md §6). */
export function neverLearned(status: number): string | undefined {
  if (status >= 500) return `${status} is a server error: a 5xx is never learned (R6)`;
  if (status < 400)
    return `${status} is not a refusal: a success or another status is never learned as one (R5, spec)`;
  return undefined;
}
