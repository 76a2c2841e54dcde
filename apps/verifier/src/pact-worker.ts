// Runs Pact's Verifier in a child process: the Rust core prints its own report on stdout and may
// panic; isolated here, the parent keeps stdout for its result and survives a crash. The job comes
// over IPC (never argv or env, it carries credentials); the result goes back the same way.
import { Verifier, type VerifierOptions } from "@pact-foundation/pact";

export interface PactJob {
  readonly options: Omit<VerifierOptions, "requestFilter" | "stateHandlers"> & {
    providerBaseUrl: string;
  };
  /** Exactly this Authorization value is replaced by `realAuthorization`; others pass untouched. */
  readonly placeholderAuthorization: string;
  readonly realAuthorization: string;
  readonly statesUrl?: string;
  /** Authorization for `statesUrl` (from its user-info, which the URL no longer carries). */
  readonly statesAuthorization?: string;
  readonly stateNames: readonly string[];
  readonly timeoutMs: number;
}

export interface StateFailure {
  readonly state: string;
  readonly action: "setup" | "teardown";
  readonly reason: string;
}

export interface PactJobResult {
  /** pact-core's JSON results (pactffi_verifier_json), when it produced them. */
  readonly results?: string;
  /** Set when the verifier could not run. */
  readonly error?: string;
  readonly stateFailures: readonly StateFailure[];
}

async function changeState(
  job: PactJob,
  url: string,
  state: string,
  params: unknown,
  action: "setup" | "teardown",
  failures: StateFailure[],
): Promise<void> {
  let reason: string | undefined;
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(job.statesAuthorization ? { authorization: job.statesAuthorization } : {}),
      },
      body: JSON.stringify({ state, params: params ?? {}, action }),
      redirect: "manual",
      signal: AbortSignal.timeout(job.timeoutMs),
    });
    const text = (await res.text()).slice(0, 200);
    if (res.status < 200 || res.status > 299)
      reason = `${action} of state "${state}" answered ${res.status}${text ? `: ${text}` : ""}`;
  } catch (e) {
    reason = `${action} of state "${state}": no answer (${(e as Error).message})`;
  }
  if (reason) {
    failures.push({ state, action, reason });
    // pact-js answers 200 whatever a handler throws; the parent attributes the failure instead.
    throw new Error(reason);
  }
}

async function run(job: PactJob): Promise<PactJobResult> {
  const stateFailures: StateFailure[] = [];
  const { statesUrl } = job;
  const forward = (url: string, state: string) => ({
    setup: async (params: unknown) => {
      await changeState(job, url, state, params, "setup", stateFailures);
    },
    teardown: async (params: unknown) => {
      await changeState(job, url, state, params, "teardown", stateFailures);
    },
  });
  // Pacts from a broker are known only once Pact has fetched them, so every state name is
  // forwarded (pact-js looks a handler up by name: `stateHandlers[state]`).
  const stateHandlers = statesUrl
    ? new Proxy(
        Object.fromEntries(job.stateNames.map((state) => [state, forward(statesUrl, state)])),
        {
          get: (known, state) =>
            typeof state !== "string"
              ? undefined
              : Object.hasOwn(known, state)
                ? known[state]
                : forward(statesUrl, state),
        },
      )
    : {};
  const options: VerifierOptions = {
    ...job.options,
    stateHandlers,
    requestFilter: (req: { headers: Record<string, unknown> }, _res: unknown, next: () => void) => {
      if (req.headers.authorization === job.placeholderAuthorization)
        req.headers.authorization = job.realAuthorization;
      next();
    },
  } as VerifierOptions;
  try {
    const results = await new Verifier(options).verifyProvider();
    return { results, stateFailures };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return message.trimStart().startsWith("{")
      ? { results: message, stateFailures }
      : { error: message, stateFailures };
  }
}

process.once("message", (job: PactJob) => {
  run(job).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (e: unknown) => process.send?.({ error: String(e), stateFailures: [] }, () => process.exit(0)),
  );
});
