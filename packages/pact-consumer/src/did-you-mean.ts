// "Did you mean ...?" for a mistyped command or flag: the closest known word by edit distance.

/** Levenshtein distance (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known word closest to `word`, when close enough to be a slip (up to 3 edits, or a third of
 * its length) or when one contains the other; undefined otherwise.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(word, candidate);
    if (!best || distance < best.distance) best = { word: candidate, distance };
  }
  if (!best) return undefined;
  const slip = best.distance <= Math.max(3, Math.floor(word.length / 3));
  if (slip) return best.word;
  return word.length >= 4 ? known.find((k) => k.includes(word) || word.includes(k)) : undefined;
}

/** ` (did you mean X?)`, or "" when nothing is close. */
export function didYouMean(word: string, known: readonly string[]): string {
  const match = closest(word, known);
  return match ? ` (did you mean ${match}?)` : "";
}
