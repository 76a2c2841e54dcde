// Runs Pact's verifier (pact-core, the Rust FFI) in a child process: the core prints its own report
// on stdout and may panic; isolated here, the parent keeps stdout for its result and survives a
// crash. The jobs come over IPC (never argv or env: they carry broker credentials), one at a time;
// the results go back the same way. The parent keeps the process for its next run (host.ts). The
// provider is never reached directly: Pact talks to the parent's guard.
import { Verifier, type VerifierOptions } from "@pact-foundation/pact-core";
import { JOB_END } from "./job-end.ts";

export interface PactJob {
  readonly options: VerifierOptions;
  /** The environment to run the job in, whole (what Pact's core reads of it: proxies, CA file). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface PactJobResult {
  /** pact-core's JSON results, when it produced them. */
  readonly results?: string;
  /** Set when the verifier could not run. */
  readonly error?: string;
}

/** Makes the process's environment (which Pact's core reads) exactly `env`. */
function takeEnv(env: Readonly<Record<string, string>>): void {
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  Object.assign(process.env, env);
}

async function run(job: PactJob): Promise<PactJobResult> {
  try {
    if (job.env) takeEnv(job.env);
    return { results: await new Verifier(job.options).verify() };
  } catch (e) {
    // pact-core rejects a failed verification with the results JSON as the error's message.
    const message = e instanceof Error ? e.message : String(e);
    return message.trimStart().startsWith("{") ? { results: message } : { error: message };
  }
}

/** The job's output ends here, on both streams (written after all of Pact's own), then its result. */
function answer(result: PactJobResult): void {
  process.stdout.write(`${JOB_END}\n`);
  process.stderr.write(`${JOB_END}\n`);
  process.send?.(result);
}

process.on("message", (job: PactJob) => {
  run(job).then(answer, (e: unknown) => answer({ error: String(e) }));
});
// The parent is gone (it ended, or dropped this idle worker): so is the work.
process.on("disconnect", () => process.exit(0));
