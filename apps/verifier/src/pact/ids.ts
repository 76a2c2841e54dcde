/** Pact interactions are checks named `pact.<description>`; `--checks pact` selects them all. */
export const PACT_PREFIX = "pact";

/**
 * Stable check id of a pact interaction. When a run verifies pacts of more than one consumer
 * version, the consumer (and version) is part of the id, so two versions' results never merge.
 */
export function pactCheckId(description: string, qualifier?: string): string {
  return qualifier ? `${PACT_PREFIX}.${qualifier}.${description}` : `${PACT_PREFIX}.${description}`;
}
