import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Starts a worker thread of the run (the conformance worker, the case thread) from the module
 * beside this one: `<built>.mjs` when built, `<source>.ts` from source (tests), which then needs
 * the workspace packages' sources, as vitest reads them.
 */
export function startWorker(built: string, source: string, workerData: unknown): Worker {
  const path = fileURLToPath(new URL(`./${built}.mjs`, import.meta.url));
  const fromSource = !existsSync(path);
  return new Worker(fromSource ? fileURLToPath(new URL(`./${source}.ts`, import.meta.url)) : path, {
    workerData,
    // Stressed bodies (up to 1 MiB each) are short-lived: a young generation larger than this
    // only fills with them before a scavenge. Measured on --runs 5000 with 2 threads: peak RSS
    // of the process tree 537 MiB by default, 378 MiB with 16 MiB, at the same speed; 32 MiB
    // for the case thread was no faster in bench:verifier.
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
    ...(fromSource ? { execArgv: ["--conditions=@idp/source", "--no-warnings"] } : {}),
  });
}
