import { startEmbeddedEarly } from "./embedded.ts";
import {
  CONFORMANCE_CHECK_COUNT,
  caseThreadPays,
  startCaseThreadEarly,
} from "./engine/case-threads.ts";
import { startPactWorkerEarly } from "./pact/host.ts";

/** The value of `--name V` or `--name=V` in argv, the last one given. */
function flagValue(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (const [i, a] of argv.entries()) {
    if (a === name) value = argv[i + 1];
    else if (a.startsWith(`${name}=`)) value = a.slice(name.length + 1);
  }
  return value;
}

/**
 * The CLI's first step, before it loads the rest of the verifier (a third of a second of loading):
 * the threads and Pact's process a run of these arguments will need start now, so their own
 * loading (half a second each) overlaps the CLI's instead of following it. The arguments are read
 * for a guess only (the shared flag table would load zod first, a tenth of a second of what this
 * saves): the run parses them as always, takes what it needs, and what it does not take keeps
 * nothing alive (all start unreferenced).
 */
export function startEarly(argv: readonly string[]): void {
  if (argv.some((a) => a === "--help" || a === "-h" || a === "--version" || a === "--")) return;
  const embedded = flagValue(argv, "--provider-url") === undefined;
  if (embedded) startEmbeddedEarly();
  // The case thread generates the conformance checks' cases: not needed when only pacts are asked,
  // nor when it would not pay (caseThreadPays; `--runs N` gives an upper bound of the cases).
  const checks = flagValue(argv, "--checks")
    ?.split(",")
    .map((c) => c.trim());
  const runs = Number(flagValue(argv, "--runs") ?? Number.POSITIVE_INFINITY);
  if (
    caseThreadPays(runs * CONFORMANCE_CHECK_COUNT, embedded) &&
    (checks === undefined || checks.some((c) => !c.startsWith("pact")))
  )
    startCaseThreadEarly();
  // Pact's verifier runs in a process of its own (pact/host.ts), for the pacts of any source.
  if (checks === undefined || checks.some((c) => c.startsWith("pact"))) startPactWorkerEarly();
}
