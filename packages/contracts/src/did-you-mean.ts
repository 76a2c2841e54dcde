/** Edit distance (insertions, deletions, substitutions), for "did you mean" hints. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The candidate closest to `word` (ignoring case), if it is close enough to be a likely typo. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase());
    if (best === undefined || d < best.d) best = { candidate, d };
  }
  // Up to a third of the word's length, at least 1 and at most 3 edits.
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  return best !== undefined && best.d <= limit ? best.candidate : undefined;
}
