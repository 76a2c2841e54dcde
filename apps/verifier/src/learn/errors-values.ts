import {
  bodyText,
  type DetailedOperationId,
  ERRORS_ITEM_KINDS,
  ErrorItemObject,
  type ErrorsItemKind,
  isJsonContentType,
  VALUES_IN_USE_KEYS,
  VALUES_IN_USE_OPERATION,
  type ValuesInUseKey,
} from "@idp/contracts";
import { outcomeOf } from "../rules/length-limit.ts";
import { baseBody, placeOf, withValue } from "./bodies.ts";
import { inPool, type Learning, neverLearned, type Seen, statusOf } from "./learning.ts";

// errorsItems, from every error answer of the learning phase; valuesInUse, from the values the
// service's public developer documentation lists for a schema field's type, each tried once, and
// a value no documentation lists (accepted, it shows the values are not a closed set).

/** What an `errors` item is: a string, an object {attribute, message, code}, or neither. */
function itemKind(item: unknown): ErrorsItemKind | undefined {
  if (typeof item === "string") return "string";
  return ErrorItemObject.safeParse(item).success ? "object" : undefined;
}

/** Why an error answer is no R2 error body, whatever its items are; undefined when it is one. */
function brokenBody(s: Seen): string | undefined {
  const raw = s.answer.raw;
  if (raw.kind !== "response") return "no answer";
  if (!isJsonContentType(raw.contentType)) return `Content-Type ${raw.contentType ?? "(none)"}`;
  let body: unknown;
  try {
    body = JSON.parse(bodyText(raw.body));
  } catch {
    return "a body that is not JSON";
  }
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== "object" || Array.isArray(b)) return "a body that is not an object";
  if (typeof b.error !== "string" || typeof b.error_description !== "string")
    return "no string error or error_description";
  if (!Array.isArray(b.errors)) return "no errors array";
  return undefined;
}

/**
 * errorsItems: every kind of `errors` item the error answers held, with the profile's own; learned
 * when that is more than the profile allows. Never learned from a broken error body (R2's shape
 * is the spec's): one broken answer and nothing is learned.
 */
export function learnErrorsItems(l: Learning): void {
  const key = "errorsItems";
  const kinds = new Map<ErrorsItemKind, Seen>();
  for (const s of l.errorAnswers) {
    const broken = brokenBody(s);
    if (broken) {
      l.not(
        "refused",
        key,
        `a ${statusOf(s.answer)} with ${broken}: a broken error body is never learned (R2, spec)`,
        [s],
      );
      return;
    }
    const raw = s.answer.raw as { body: Buffer };
    const errors = (JSON.parse(bodyText(raw.body)) as { errors: unknown[] }).errors;
    for (const item of errors) {
      const kind = itemKind(item);
      if (!kind) {
        l.not(
          "refused",
          key,
          `an errors item that is neither a string nor an object {attribute, message, code}: never learned (R2, spec)`,
          [s],
        );
        return;
      }
      if (!kinds.has(kind)) kinds.set(kind, s);
    }
  }
  const allowed = l.profile.errorsItems;
  const extra = [...kinds.keys()].filter((k) => !allowed.includes(k));
  const first = extra[0];
  if (first === undefined) return;
  const value = ERRORS_ITEM_KINDS.filter((k) => allowed.includes(k) || kinds.has(k));
  const s = kinds.get(first) as Seen;
  l.learn(
    key,
    value,
    l.source(
      "R2.error-body",
      `errors items that are ${first === "object" ? "objects {attribute, message, code}" : "strings"} (the profile allowed ${allowed.join(", ")})`,
      s.answer,
    ),
  );
}

/** Values of a values-in-use key that the service's public developer documentation lists. */
const DOCUMENTED_VALUES: { readonly [K in ValuesInUseKey]: readonly string[] } = {
  "schema.fields[].type": [
    "array",
    "boolean",
    "date",
    "date_time",
    "float",
    "hash",
    "integer",
    "string",
    "time",
  ],
  "rules.features.*.classifier.type": ["likes"],
};
/** A value no documentation lists: a provider that accepts it keeps no closed set of values. */
export const NOT_A_VALUE = "idpv-not-a-value";

/**
 * valuesInUse.<key>: the documented values the provider accepts, with the profile's own, when it
 * refuses a value no documentation lists; never fewer than the profile's (the spec shows its
 * values in use: a provider refusing one of them breaks R4).
 */
export async function learnValuesInUse(l: Learning, concurrency: number): Promise<void> {
  const { profile, prober } = l;
  for (const key of VALUES_IN_USE_KEYS) {
    const op: DetailedOperationId = VALUES_IN_USE_OPERATION[key];
    const check = `R4.valid-accepted.${op}`;
    const subject = `valuesInUse.${key}` as const;
    const current = profile.valuesInUse[key];
    const candidates = [...new Set([...current, ...DOCUMENTED_VALUES[key], NOT_A_VALUE])];
    const base = baseBody(op, profile, "");
    const place = placeOf(base, key);
    if (!place) continue;
    const answers = await inPool(candidates, concurrency, async (value) => {
      const body = withValue(baseBody(op, profile, prober.freshName()), place, value);
      const answer = await prober.send(op, JSON.stringify(body), { source: check });
      l.saw(check, answer);
      return answer;
    });
    if (answers.some((a) => a === undefined)) {
      l.not("not-surveyed", subject, "no answer (the time was up)");
      continue;
    }
    const seen = candidates.map((value, i) => ({
      value,
      s: { check, answer: answers[i] } as Seen,
    }));
    const server = seen.find(({ s }) => (statusOf(s.answer) ?? 0) >= 500);
    if (server) {
      l.not("refused", subject, neverLearned(statusOf(server.s.answer) as number) ?? "", [
        server.s,
      ]);
      continue;
    }
    const accepted = (v: { s: Seen }) => outcomeOf(op, v.s.answer) === "accepted";
    const control = seen[seen.length - 1] as (typeof seen)[number];
    if (accepted(control)) {
      if (profile.builtIn === "strict")
        l.not(
          "refused",
          subject,
          `the provider accepts "${NOT_A_VALUE}", a value no documentation lists: its values are no closed set, which no valuesInUse can say (extend default, not strict)`,
          [control.s],
        );
      continue;
    }
    const lost = seen.find((v) => current.includes(v.value) && !accepted(v));
    if (lost) {
      l.not(
        "refused",
        subject,
        `"${lost.value}" is refused, a value in use the profile gives (${current.join(", ")}): never dropped`,
        [lost.s],
      );
      continue;
    }
    const added = seen.filter((v) => v !== control && !current.includes(v.value) && accepted(v));
    const first = added[0];
    if (!first) continue;
    const value = [...current, ...added.map((v) => v.value)].sort();
    l.learn(
      subject,
      value,
      l.source(
        check,
        `accepted ${added.map((v) => v.value).join(", ")} beyond ${current.join(", ")}; refused "${NOT_A_VALUE}" with ${statusOf(control.s.answer)}`,
        first.s.answer,
      ),
    );
  }
}
