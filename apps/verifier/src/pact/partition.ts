// Splits the interactions to verify among several instances of Pact's verifier, so that those whose
// provider states could interfere are never verified at the same time: Pact verifies one instance's
// interactions one after another, so interactions put together never overlap.

/** Fewer interactions than this per instance are not worth an instance's start-up (~0.3 s). */
export const MIN_INTERACTIONS_PER_INSTANCE = 20;

export interface StatefulItem {
  readonly providerStates: readonly {
    readonly name: string;
    readonly params: Readonly<Record<string, unknown>>;
  }[];
}

/**
 * What a provider state touches, as far as it can be told from a pact: each parameter's value (the
 * same login user id, the same schema name, whatever the state's name), or the state's name when it
 * has no parameters (a state like "no schemas exist" concerns everything it names).
 */
function touches(item: StatefulItem): string[] {
  return item.providerStates.flatMap((s) => {
    const params = Object.entries(s.params);
    return params.length === 0
      ? [`state:${s.name}`]
      : params.map(([k, v]) => `param:${k}=${JSON.stringify(v)}`);
  });
}

/** How many instances to run for `count` interactions with at most `threads` at once. */
export function instanceCount(count: number, threads: number): number {
  return Math.max(1, Math.min(threads, Math.floor(count / MIN_INTERACTIONS_PER_INSTANCE)));
}

/**
 * Deals `items` to at most `instances` parts: items that touch anything in common (directly or
 * through others) stay in one part, in their original order; groups go, largest first, to the
 * smallest part. Stateless items touch nothing and fill parts evenly. Deterministic.
 * @returns the indexes of `items` in each part (no empty parts).
 */
export function partitionByStates(items: readonly StatefulItem[], instances: number): number[][] {
  // Union-find over the items, joined through what they touch.
  const parent = items.map((_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] as number;
    while (parent[i] !== r) {
      const next = parent[i] as number;
      parent[i] = r;
      i = next;
    }
    return r;
  };
  const owner = new Map<string, number>();
  items.forEach((item, i) => {
    for (const key of touches(item)) {
      const j = owner.get(key);
      if (j === undefined) owner.set(key, i);
      else parent[find(i)] = find(j);
    }
  });
  const groups = new Map<number, number[]>();
  items.forEach((_, i) => {
    const root = find(i);
    const g = groups.get(root);
    if (g) g.push(i);
    else groups.set(root, [i]);
  });
  const parts: number[][] = Array.from({ length: Math.max(1, instances) }, () => []);
  // Largest groups first, ties by first index: the result depends on the input only.
  const ordered = [...groups.values()].sort(
    (a, b) => b.length - a.length || (a[0] as number) - (b[0] as number),
  );
  for (const group of ordered) {
    const smallest = parts.reduce((a, b) => (b.length < a.length ? b : a));
    smallest.push(...group);
  }
  return parts.filter((p) => p.length > 0).map((p) => p.sort((a, b) => a - b));
}
