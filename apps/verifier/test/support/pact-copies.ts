// Many consumers' worth of one pact: each copy gets its own state parameter values (login user ids,
// schema names) wherever they appear (its states, its path, its body), and its own description.
// Shared by the parallel-verification test and `pnpm bench:pacts`.

interface Interaction {
  description: string;
  providerStates?: { name: string; params?: Record<string, unknown> }[];
}

/** `copies` copies of every interaction of `pact`, copy k's state values suffixed `-k`. */
export function pactCopies<T extends { interactions: unknown[] }>(pact: T, copies: number): T {
  const interactions: Interaction[] = [];
  for (let k = 1; k <= copies; k++)
    for (const original of pact.interactions as Interaction[]) {
      let text = JSON.stringify(original);
      for (const s of original.providerStates ?? [])
        for (const v of Object.values(s.params ?? {})) {
          if (typeof v !== "string") continue;
          const inJson = JSON.stringify(v).slice(1, -1);
          text = text.replaceAll(inJson, `${inJson}-${k}`);
        }
      const copy = JSON.parse(text) as Interaction;
      copy.description = `${original.description} (copy ${k})`;
      interactions.push(copy);
    }
  return { ...pact, interactions };
}
