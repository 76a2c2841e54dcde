import { randomBytes } from "node:crypto";
import type { Worker } from "node:worker_threads";
import type { EmbeddedReply, EmbeddedRequest, EmbeddedStart } from "./embedded-messages.ts";
import { startWorker } from "./engine/worker-file.ts";
import { firstLineOf, VerifyError } from "./errors.ts";
import type { Credentials } from "./rules/auth.ts";

export interface EmbeddedProvider {
  readonly baseUrl: string;
  readonly providerStatesUrl: string;
  readonly credentials: Credentials;
  close(): Promise<void>;
}

type ProviderModule = typeof import("@idp/provider");

/** The message when @idp/provider is absent: the published idp-verify does not bring it along. */
export const NO_EMBEDDED_PROVIDER =
  "no embedded reference provider: @idp/provider is not installed next to idp-verify (install its release tarball beside it), or pass --provider-url URL (ending in /v1) with --username and --password (or IDP_USERNAME and IDP_PASSWORD)";

// Node names the package only when the package itself is missing; a missing file inside an
// unbuilt @idp/provider, or a missing dependency of it, is a different failure.
const isProviderMissing = (e: unknown): boolean =>
  (e as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
  String((e as Error).message).includes("'@idp/provider'");

/**
 * Starts apps/provider in a thread of its own (embedded-worker.ts): in-memory database, provider
 * states on, fresh credentials, port 0.
 * @param load - tests only: start it in this thread from this loader (to simulate an install
 *   without @idp/provider); the thread loads the installed package.
 * @throws VerifyError E_EMBEDDED_PROVIDER when @idp/provider is not installed or does not start.
 */
export async function startEmbeddedProvider(
  warn: (line: string) => void,
  load?: () => Promise<ProviderModule>,
  credentials: Credentials = embeddedCredentials(),
): Promise<EmbeddedProvider> {
  return load ? startInThisThread(credentials, warn, load) : startInItsThread(credentials, warn);
}

/** Fresh credentials for one run of the embedded provider. */
export const embeddedCredentials = (): Credentials => ({
  username: `idp-verify-${randomBytes(4).toString("hex")}`,
  password: randomBytes(24).toString("base64url"),
});

/** The embedded provider's thread, its listeners attached from its start (no message is lost). */
interface Spawned {
  readonly worker: Worker;
  readonly credentials: Credentials;
  readonly listening: Promise<EmbeddedReply & { type: "listening" }>;
  /** Where its error-level log lines go; those that come before one is set wait for it. */
  warn(to: (line: string) => void): void;
  /** Called once the provider has closed. */
  onClosed(then: () => void): void;
}

function spawnEmbedded(credentials: Credentials): Spawned {
  const start: EmbeddedStart = { credentials };
  const worker = startWorker("embedded-worker", "../embedded-worker", start);
  let closed: (() => void) | undefined;
  let warn: ((line: string) => void) | undefined;
  const early: string[] = [];
  const listening = new Promise<EmbeddedReply & { type: "listening" }>((resolve, reject) => {
    worker.on("message", (m: EmbeddedReply) => {
      if (m.type === "listening") resolve(m);
      else if (m.type === "failed")
        reject(startFailure(Object.assign(new Error(m.message), m.code ? { code: m.code } : {})));
      else if (m.type === "log") {
        const line = `embedded provider: ${m.message}`;
        if (warn) warn(line);
        else early.push(line);
      } else if (m.type === "closed") closed?.();
    });
    worker.on("error", (e) => reject(notStarted(e)));
    worker.on("exit", (code) =>
      reject(notStarted(new Error(`its thread ended (exit code ${code}) before it listened`))),
    );
  });
  // Awaited by the run that takes it; a thread started early and never taken fails unheard.
  listening.catch(() => undefined);
  return {
    worker,
    credentials,
    listening,
    warn: (to) => {
      warn = to;
      for (const line of early.splice(0)) to(line);
    },
    onClosed: (then) => {
      closed = then;
    },
  };
}

/** The thread started by startEmbeddedEarly, until a run takes it. */
let early: Spawned | undefined;

/**
 * Starts the embedded provider's thread now, with fresh credentials, for the run to come (the CLI,
 * before it loads the rest of the verifier: the thread's half second of loading @idp/provider then
 * overlaps the CLI's own). Unreferenced until a run takes it: a run that never does (bad
 * arguments, --help) exits as if it had not been started.
 */
export function startEmbeddedEarly(): void {
  if (early) return;
  early = spawnEmbedded(embeddedCredentials());
  early.worker.unref();
}

/** The credentials the next embedded provider will have: the early thread's, or fresh ones. */
export const nextEmbeddedCredentials = (): Credentials =>
  early?.credentials ?? embeddedCredentials();

function takeSpawned(credentials: Credentials): Spawned {
  const kept = early;
  early = undefined;
  if (kept && kept.credentials === credentials) {
    kept.worker.ref();
    return kept;
  }
  if (kept) void kept.worker.terminate();
  return spawnEmbedded(credentials);
}

async function startInItsThread(
  credentials: Credentials,
  warn: (line: string) => void,
): Promise<EmbeddedProvider> {
  const spawned = takeSpawned(credentials);
  const { worker } = spawned;
  spawned.warn(warn);
  try {
    const { baseUrl, providerStatesUrl } = await spawned.listening;
    return {
      baseUrl,
      providerStatesUrl,
      credentials,
      close: async () => {
        const done = new Promise<void>((resolve) => spawned.onClosed(resolve));
        worker.postMessage({ type: "close" } satisfies EmbeddedRequest);
        await done;
        await worker.terminate();
      },
    };
  } catch (e) {
    await worker.terminate();
    throw e;
  }
}

async function startInThisThread(
  credentials: Credentials,
  warn: (line: string) => void,
  load: () => Promise<ProviderModule>,
): Promise<EmbeddedProvider> {
  let createProvider: ProviderModule["createProvider"];
  try {
    ({ createProvider } = await load());
  } catch (e) {
    throw startFailure(e);
  }
  try {
    const provider = createProvider({
      db: ":memory:",
      credentials,
      providerStates: true,
      log: (entry) => {
        if (entry.level === "error") warn(`embedded provider: ${String(entry.msg)}`);
      },
    });
    const { baseUrl, providerStatesUrl } = await provider.listen({ port: 0, host: "127.0.0.1" });
    return { baseUrl, providerStatesUrl, credentials, close: () => provider.close() };
  } catch (e) {
    throw notStarted(e);
  }
}

/** Why loading or starting @idp/provider failed, in the run's words. */
const startFailure = (e: unknown): VerifyError =>
  isProviderMissing(e)
    ? new VerifyError("E_EMBEDDED_PROVIDER", NO_EMBEDDED_PROVIDER, { cause: e })
    : notStarted(e);

const notStarted = (e: unknown): VerifyError =>
  new VerifyError(
    "E_EMBEDDED_PROVIDER",
    `could not start the embedded provider (apps/provider): ${firstLineOf(e)}; build it with "pnpm --filter @idp/provider build", or pass --provider-url`,
    { cause: e },
  );
