import {
  classifyRequestBody,
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  type LoginUserKind,
  type ViolationKind,
} from "@idp/contracts";
import { invalidBodyArb, invalidBodyExamples, requestBodyText } from "@idp/generators";
import fc from "fast-check";
import { checkSeed } from "../rules/check-seed.ts";
import { baseBody } from "./bodies.ts";
import { inPool, type Learning, neverLearned, type Seen, statusOf } from "./learning.ts";
import type { PushState } from "./prober.ts";

// statusMapping (with documentedStatuses) and loginUserStatuses, learned from what the provider
// answers to every kind of invalid body (R5's examples, then --runs generated ones) and to valid
// pushes in the two login-user states (R7's): one status for every body of a kind is learned; two
// are named as inconsistent, with one exchange of each.

/** Groups answers by a key, in the order they were sent. */
function byStatus(seen: readonly Seen[]): Map<number, Seen[]> {
  const out = new Map<number, Seen[]>();
  for (const s of seen) {
    const status = statusOf(s.answer);
    if (status === undefined) continue;
    const list = out.get(status) ?? [];
    list.push(s);
    out.set(status, list);
  }
  return out;
}

/**
 * The one status every answer had, with the answers; undefined (and named as seen both ways, one
 * exchange of each status) when there were several, or when there was no answer.
 */
function oneStatus(
  l: Learning,
  key: string,
  seen: readonly Seen[],
  what: string,
): { status: number; all: Seen[]; first: Seen } | undefined {
  const groups = byStatus(seen);
  if (groups.size > 1)
    l.not(
      "inconsistent",
      key,
      `${[...groups].map(([s, g]) => `${s} to ${g.length}`).join(", ")} of ${what}`,
      [...groups.values()].map((g) => g[0] as Seen),
    );
  if (groups.size !== 1) return undefined;
  const [[status, all]] = [...groups] as [[number, Seen[]]];
  return { status, all, first: all[0] as Seen };
}

/**
 * Every invalid body of each operation the profile asserts (bounds aside: those are learned by
 * probing), sent once: statusMapping.<op>.<kind> where one 400 or 422 answered every body of the
 * kind and it is not the profile's already.
 */
export async function learnStatusMapping(
  l: Learning,
  seed: number,
  runs: number,
  concurrency: number,
): Promise<void> {
  const { profile, prober } = l;
  for (const op of DETAILED_OPERATION_IDS) {
    const check = `R5.invalid-rejected.${op}`;
    if (op === "pushToUserDevices" && prober.statesAvailable && !(await prober.stateId("user"))) {
      l.not(
        "not-surveyed",
        `statusMapping.${op}`,
        'the state "a login user exists" could not be set up',
      );
      continue;
    }
    const cases = [
      ...invalidBodyExamples(op, { profile }),
      ...fc.sample(invalidBodyArb(op, { profile }), {
        seed: checkSeed(seed, `learn ${check}`),
        numRuns: runs,
      }),
    ]
      .map(requestBodyText)
      .map((text) => ({ text, verdict: classifyRequestBody(op, text, profile) }))
      .filter(
        (c) => c.verdict.outcome === "invalid" && c.verdict.violation.kind !== "out-of-bounds",
      );
    const answers = await inPool(cases, concurrency, async (c) => {
      const answer = await prober.send(op, c.text, { source: check });
      l.saw(check, answer);
      return answer;
    });
    const byKind = new Map<ViolationKind, { seen: Seen[]; example: string }>();
    cases.forEach((c, i) => {
      const answer = answers[i];
      if (!answer || c.verdict.outcome !== "invalid") return;
      const kind = c.verdict.violation.kind as ViolationKind;
      const entry = byKind.get(kind) ?? { seen: [], example: c.verdict.violation.message };
      entry.seen.push({ check, answer });
      byKind.set(kind, entry);
    });
    for (const [kind, { seen, example }] of byKind) {
      const key = `statusMapping.${op}.${kind}` as const;
      const pinned = profile.statusMapping[op][kind];
      const one = oneStatus(l, key, seen, `the bodies with ${kind}`);
      if (!one || one.status === pinned) continue;
      const { status, all, first } = one;
      const never = neverLearned(status);
      if (never) {
        l.not("refused", key, never, [first]);
        continue;
      }
      if (status !== 400 && status !== 422) {
        l.not(
          "refused",
          key,
          `${status} answered every body with ${kind}: statusMapping holds 400 or 422, the statuses the spec documents for a bad request body`,
          [first],
        );
        continue;
      }
      const source = l.source(
        check,
        `${status} to all ${all.length} bodies with ${kind} (e.g. ${example}); the profile pinned ${pinned}`,
        first.answer,
      );
      l.learn(key, status, source);
      l.documents(op, status, source);
    }
  }
}

const LOGIN_CASES: readonly [LoginUserKind, PushState, string, string][] = [
  ["unknown", "unknown", "R7.push-404", "an id no login user has"],
  ["otherLoginApp", "otherApp", "R7.push-403", "a login user of another login app"],
];

/** loginUserStatuses.<case>: one 4xx for every small valid push to that kind of id. */
export async function learnLoginUserStatuses(l: Learning, concurrency: number): Promise<void> {
  const { profile, prober } = l;
  const op: DetailedOperationId = "pushToUserDevices";
  for (const [kind, state, check, words] of LOGIN_CASES) {
    const key = `loginUserStatuses.${kind}` as const;
    if (!prober.statesAvailable) {
      l.not("not-surveyed", key, "needs --provider-states-url (conformance.md §4)");
      continue;
    }
    if (!(await prober.stateId(state))) {
      l.not("not-surveyed", key, `the provider state for ${words} could not be set up`);
      continue;
    }
    // Small valid bodies only: a generated one may be past a bound the provider keeps (an answer
    // about the body, not the user).
    const base = baseBody(op, profile, "") as { data: Record<string, unknown> };
    const bodies = ["m", "message", "é", "x y"].map((message) =>
      JSON.stringify({ data: { ...base.data, message } }),
    );
    const seen = (
      await inPool(bodies, concurrency, async (text) => {
        const answer = await prober.send(op, text, { state, source: check });
        l.saw(check, answer);
        return answer ? [{ check, answer }] : [];
      })
    ).flat();
    const one = oneStatus(l, key, seen, `the pushes to ${words}`);
    if (!one || one.status === profile.loginUserStatuses[kind]) continue;
    const { status, all, first } = one;
    const never =
      status < 400 || status > 499
        ? `${status} to a valid push to ${words}: loginUserStatuses holds a 4xx; ${neverLearned(status) ?? "a success is never learned (R7)"}`
        : undefined;
    if (never) {
      l.not("refused", key, never, [first]);
      continue;
    }
    const source = l.source(
      check,
      `${status} to all ${all.length} valid pushes to ${words}; the profile pinned ${profile.loginUserStatuses[kind]}`,
      first.answer,
    );
    l.learn(key, status, source);
    l.documents(op, status, source);
  }
}
