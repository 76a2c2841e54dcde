import { randomBytes } from "node:crypto";
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
 * Starts apps/provider in-process: in-memory database, provider states on, fresh credentials, port 0.
 * @param load - how to load @idp/provider; tests replace it to simulate an install without it.
 * @throws VerifyError E_EMBEDDED_PROVIDER when @idp/provider is not installed or does not start.
 */
export async function startEmbeddedProvider(
  warn: (line: string) => void,
  load: () => Promise<ProviderModule> = () => import("@idp/provider"),
): Promise<EmbeddedProvider> {
  const credentials = {
    username: `idp-verify-${randomBytes(4).toString("hex")}`,
    password: randomBytes(24).toString("base64url"),
  };
  let createProvider: ProviderModule["createProvider"];
  try {
    ({ createProvider } = await load());
  } catch (e) {
    if (isProviderMissing(e))
      throw new VerifyError("E_EMBEDDED_PROVIDER", NO_EMBEDDED_PROVIDER, { cause: e });
    throw notStarted(e);
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

const notStarted = (e: unknown): VerifyError =>
  new VerifyError(
    "E_EMBEDDED_PROVIDER",
    `could not start the embedded provider (apps/provider): ${firstLineOf(e)}; build it with "pnpm --filter @idp/provider build", or pass --provider-url`,
    { cause: e },
  );
