import { randomBytes } from "node:crypto";
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

async function startInItsThread(
  credentials: Credentials,
  warn: (line: string) => void,
): Promise<EmbeddedProvider> {
  const start: EmbeddedStart = { credentials };
  const worker = startWorker("embedded-worker", "../embedded-worker", start);
  let closed: (() => void) | undefined;
  const listening = new Promise<EmbeddedReply & { type: "listening" }>((resolve, reject) => {
    worker.on("message", (m: EmbeddedReply) => {
      if (m.type === "listening") resolve(m);
      else if (m.type === "failed")
        reject(startFailure(Object.assign(new Error(m.message), m.code ? { code: m.code } : {})));
      else if (m.type === "log") warn(`embedded provider: ${m.message}`);
      else if (m.type === "closed") closed?.();
    });
    worker.on("error", (e) => reject(notStarted(e)));
    worker.on("exit", (code) =>
      reject(notStarted(new Error(`its thread ended (exit code ${code}) before it listened`))),
    );
  });
  try {
    const { baseUrl, providerStatesUrl } = await listening;
    return {
      baseUrl,
      providerStatesUrl,
      credentials,
      close: async () => {
        const done = new Promise<void>((resolve) => {
          closed = resolve;
        });
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
