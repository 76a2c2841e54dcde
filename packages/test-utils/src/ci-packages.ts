// .ci/run installs the system packages some tests need (the broker kit's Ruby, Chromium) in the
// background, beside pnpm install, the build and the first tests, and writes the job's exit status
// to the file IDP_CI_PACKAGES names when it ends (its log is the file `log` beside it). A test
// that needs one of those packages calls awaitCiPackages() before it looks for them.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Longer than a fresh machine's apt (about 40 s measured): a limit for a hung apt, not a pace. */
const LIMIT_MS = 15 * 60_000;
const POLL_MS = 200;

/**
 * Blocks until .ci/run's package job has ended (at once when IDP_CI_PACKAGES is unset, as outside
 * CI); throws, with the end of its log, when it failed or did not end within 15 minutes.
 * Synchronous, because the tests ask at collection (`describe.skipIf(!brokerAvailable())`).
 */
export function awaitCiPackages(env: NodeJS.ProcessEnv = process.env): void {
  const status = env.IDP_CI_PACKAGES;
  if (!status) return;
  const log = join(dirname(status), "log");
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + LIMIT_MS;
  while (!existsSync(status)) {
    if (Date.now() > deadline)
      throw new Error(
        `IDP_CI_PACKAGES: .ci/run's package job did not end within ${LIMIT_MS / 60_000} minutes (${status} not written; log: ${log})`,
      );
    Atomics.wait(pause, 0, 0, POLL_MS);
  }
  const code = readFileSync(status, "utf8").trim();
  if (code === "0") return;
  let tail = "";
  try {
    tail = readFileSync(log, "utf8").trim().split("\n").slice(-5).join(" | ");
  } catch {
    tail = "(no log)";
  }
  throw new Error(
    `IDP_CI_PACKAGES: .ci/run's package job failed (exit ${code}); ${log} ends: ${tail}`,
  );
}
