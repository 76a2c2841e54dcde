import { z } from "zod";
import type { PactMismatch } from "../results.ts";

// pact-core's verifier results (pactffi_verifier_json), as seen from pact-core 20 (pact_ffi 0.4):
// {result, errors, pendingErrors, interactionResults: [{consumer, description, duration, pending,
// providerStates, result: "OK"|"Error", mismatch?}], notices, output}. Parsed, not cast: an answer
// of another shape is Pact's verifier not running as expected, never a pass.

const Mismatch = z.looseObject({
  type: z.string().optional(),
  mismatch: z.string().optional(),
  path: z.string().optional(),
  key: z.string().optional(),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
});

const MismatchResult = z.looseObject({
  type: z.string().optional(),
  message: z.string().optional(),
  mismatches: z.array(Mismatch).optional(),
});

const InteractionResult = z.looseObject({
  consumer: z.string().optional(),
  description: z.string(),
  duration: z.string().optional(),
  pending: z.boolean().optional(),
  providerStates: z.array(z.union([z.string(), z.looseObject({ name: z.string() })])).optional(),
  result: z.string().optional(),
  mismatch: MismatchResult.optional(),
});

const ErrorEntry = z.looseObject({ interaction: z.string().optional(), mismatch: z.unknown() });

const FfiResults = z.looseObject({
  result: z.boolean(),
  errors: z.array(ErrorEntry).optional(),
  pendingErrors: z.array(ErrorEntry).optional(),
  interactionResults: z.array(InteractionResult).optional(),
  notices: z.array(z.unknown()).optional(),
  output: z.array(z.string()).optional(),
});

export interface InteractionOutcome {
  readonly description: string;
  readonly consumer?: string;
  readonly pending: boolean;
  readonly ok: boolean;
  readonly providerStates: readonly string[];
  /** Pact's own timing of the interaction (its verification, loading excluded). */
  readonly durationMs?: number;
  readonly mismatches: readonly PactMismatch[];
  /** When Pact could not verify it at all (no answer, a state change that failed). */
  readonly error?: string;
}

export interface PactOutcome {
  /** Pact's own overall verdict. */
  readonly result: boolean;
  /** In the order Pact verified them. */
  readonly interactions: readonly InteractionOutcome[];
  /** A pact Pact could not load (its errors say "Failed to load pact"). */
  readonly loadError?: string;
  /** Pact's console lines, in order (they name each pact before its interactions), scrubbed. */
  readonly output: readonly string[];
}

const text = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === "string" ? v : JSON.stringify(v);

const durationMs = (d: string | undefined): number | undefined => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|µs|us|ns)$/.exec(d ?? "");
  if (!m) return undefined;
  const n = Number(m[1]);
  return Math.round(
    m[2] === "s" ? n * 1000 : m[2] === "ms" ? n : m[2] === "ns" ? n / 1e6 : n / 1000,
  );
};

function mismatchesOf(
  m: z.infer<typeof MismatchResult> | undefined,
  scrub: (s: string) => string,
): {
  mismatches: PactMismatch[];
  error?: string;
} {
  if (!m) return { mismatches: [] };
  if (m.type === "error" || (m.message && !m.mismatches))
    return { mismatches: [], error: scrub(m.message ?? "Pact could not verify the interaction") };
  return {
    mismatches: (m.mismatches ?? []).map((x) => {
      const type = (x.type ?? "Mismatch").replace(/Mismatch$/, "").toLowerCase() || "mismatch";
      const where = x.key ?? x.path;
      const expected = text(x.expected);
      const actual = text(x.actual);
      return {
        type,
        ...(where !== undefined ? { path: scrub(where) } : {}),
        ...(expected !== undefined ? { expected: scrub(expected) } : {}),
        ...(actual !== undefined ? { actual: scrub(actual) } : {}),
        message: scrub(x.mismatch ?? `${type} mismatch`),
      };
    }),
  };
}

/**
 * Reads Pact's results. `scrub` is applied to every provider-controlled string (mismatch texts
 * quote the provider's answers) as it is read, never to the serialized whole.
 * @returns undefined when the text is not Pact's results at all.
 */
export function parseFfiResults(
  json: string,
  scrub: (s: string) => string,
): PactOutcome | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return undefined;
  }
  const parsed = FfiResults.safeParse(raw);
  if (!parsed.success) return undefined;
  const r = parsed.data;
  const load = (r.errors ?? []).find((e) => e.interaction === "Failed to load pact");
  const loadMessage = load
    ? text((load.mismatch as { message?: unknown } | undefined)?.message ?? load.mismatch)
    : undefined;
  return {
    result: r.result,
    interactions: (r.interactionResults ?? []).map((i) => {
      const { mismatches, error } = mismatchesOf(i.mismatch, scrub);
      const ok = (i.result ?? "").toUpperCase() === "OK";
      const d = durationMs(i.duration);
      return {
        description: i.description,
        ...(i.consumer ? { consumer: i.consumer } : {}),
        pending: i.pending ?? false,
        ok,
        providerStates: (i.providerStates ?? []).map((s) => (typeof s === "string" ? s : s.name)),
        ...(d !== undefined ? { durationMs: d } : {}),
        mismatches,
        ...(error !== undefined ? { error } : {}),
      };
    }),
    ...(loadMessage !== undefined ? { loadError: scrub(loadMessage) } : {}),
    output: (r.output ?? []).map(scrub),
  };
}

/** Pact's own verdict must agree with its per-interaction results; a disagreement is not a pass. */
export function pactVerdictProblem(
  outcome: Pick<PactOutcome, "result" | "interactions">,
): string | undefined {
  const anyFailed = outcome.interactions.some((i) => !i.ok && !i.pending);
  if (outcome.result !== anyFailed) return undefined;
  return outcome.result
    ? "Pact's verifier passed the run although an interaction failed"
    : "Pact's verifier failed the run but no interaction shows a failure (see its output with --report json)";
}
