// "Did you mean ...?" for a mistyped flag, command, operation, kind or profile key: one function for
// every CLI and file reader of the toolkit, so a slip gets the same hint wherever it is made.

/** Edit distance with adjacent swaps counted as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  // Three rows suffice: the swap looks two rows back.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate `word` was most likely meant to be (ignoring case): the closest one within a third
 * of the word's length (at least 1, at most 3 edits); else one the word begins (a truncation, from 3
 * characters); else one holding the word or held in it (from 4). Undefined when nothing is close.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (best === undefined || d < best.d) best = { candidate, d };
  }
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  if (best !== undefined && best.d <= limit) return best.candidate;
  if (lower.length >= 3) {
    const begun = candidates.find((c) => c.toLowerCase().startsWith(lower));
    if (begun !== undefined) return begun;
  }
  if (lower.length >= 4)
    return candidates.find((c) => {
      const l = c.toLowerCase();
      return l.includes(lower) || (l.length >= 4 && lower.includes(l));
    });
  return undefined;
}

/** ` (did you mean X?)` when a candidate X is close to `word` (after `prefix`, such as `--`), else "". */
export function didYouMeanHint(word: string, candidates: readonly string[], prefix = ""): string {
  const match = didYouMean(word, candidates);
  return match === undefined ? "" : ` (did you mean ${prefix}${match}?)`;
}
