// Runs Pact's verifier (pact-core, the Rust FFI) in a child process: the core prints its own report
// on stdout and may panic; isolated here, the parent keeps stdout for its result and survives a
// crash. The job comes over IPC (never argv or env: it carries broker credentials); the results go
// back the same way. The provider is never reached directly: Pact talks to the parent's guard.
import { Verifier, type VerifierOptions } from "@pact-foundation/pact-core";

export interface PactJob {
  readonly options: VerifierOptions;
}

export interface PactJobResult {
  /** pact-core's JSON results, when it produced them. */
  readonly results?: string;
  /** Set when the verifier could not run. */
  readonly error?: string;
}

async function run(job: PactJob): Promise<PactJobResult> {
  try {
    return { results: await new Verifier(job.options).verify() };
  } catch (e) {
    // pact-core rejects a failed verification with the results JSON as the error's message.
    const message = e instanceof Error ? e.message : String(e);
    return message.trimStart().startsWith("{") ? { results: message } : { error: message };
  }
}

process.once("message", (job: PactJob) => {
  run(job).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (e: unknown) => process.send?.({ error: String(e) }, () => process.exit(0)),
  );
});
