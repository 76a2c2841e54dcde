import fc from "fast-check";

// Property tests are reproducible: CI pins the seed (FC_SEED, else a fixed default) and prints it;
// a local run without FC_SEED draws a fresh one and prints it, so any failure can be replayed with
// FC_SEED=<seed>.
const PINNED_CI_SEED = 20261123;
const fromEnv = process.env.FC_SEED;
const seed =
  fromEnv !== undefined && fromEnv !== ""
    ? Number(fromEnv)
    : process.env.CI
      ? PINNED_CI_SEED
      : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got "${fromEnv}"`);
fc.configureGlobal({ seed, numRuns: 100 });
const g = globalThis as { __idpSeedPrinted?: boolean };
if (!g.__idpSeedPrinted) {
  g.__idpSeedPrinted = true;
  process.stderr.write(`fast-check seed: ${seed} (replay with FC_SEED=${seed})\n`);
}
