import { IdpInteractionError } from "./errors.ts";

// Pact keeps one interaction per description and provider state name in a pact: a second one with
// both the same replaces the first, silently (the state's params do not tell them apart), and both
// tests pass. So the builders remember what each pact already holds and refuse such a second one,
// naming both. An identical interaction added again (a retried test) loses nothing and is allowed.

/** What an interaction is, for the refusal: where it was built and what tells it apart. */
export interface InteractionKey {
  readonly description: string;
  /** The provider state's name; undefined for a stateless interaction. */
  readonly state: string | undefined;
  /** `pushToUserDevices 200, id "u-1"`: the cell and what the consumer chose. */
  readonly what: string;
  /** Everything the interaction records, as text: equal for an identical interaction. */
  readonly content: string;
}

const seen = new WeakMap<object, Map<string, InteractionKey>>();

/**
 * Records `key` for `pact`.
 * @throws IdpInteractionError when the pact already holds another interaction with the same
 *   description and provider state.
 */
export function claimInteraction(pact: object, where: string, key: InteractionKey): void {
  const held = seen.get(pact) ?? new Map<string, InteractionKey>();
  seen.set(pact, held);
  const id = `${key.description}\u0000${key.state ?? ""}`;
  const first = held.get(id);
  if (first && first.content !== key.content)
    throw new IdpInteractionError(
      `${where}: received a second interaction "${key.description}"${key.state ? ` given "${key.state}"` : ""} (${key.what}); the pact already holds one with that description and provider state (${first.what}), and Pact keeps only the last of the two; expected a description of its own, e.g. { description: "${key.description} (${key.what.replace(/"/g, "'")})" }`,
    );
  held.set(id, key);
}
