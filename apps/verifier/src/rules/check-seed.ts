/**
 * The fast-check seed of one check: the run's seed mixed with the check's id (FNV-1a), so checks that
 * share an arbitrary (R2, R3; the six R1 variants) send different cases, and `--seed S --checks ID`
 * replays exactly the cases ID had in the whole run.
 */
export function checkSeed(runSeed: number, checkId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < checkId.length; i++) {
    h ^= checkId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (runSeed ^ h) | 0;
}
