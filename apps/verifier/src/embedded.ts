import { randomBytes } from "node:crypto";
import type { Credentials } from "./config.ts";
import { VerifyError } from "./errors.ts";

export interface EmbeddedProvider {
  readonly baseUrl: string;
  readonly providerStatesUrl: string;
  readonly credentials: Credentials;
  close(): Promise<void>;
}

/** Starts apps/provider in-process: in-memory database, provider states on, fresh credentials, port 0. */
export async function startEmbeddedProvider(
  warn: (line: string) => void,
): Promise<EmbeddedProvider> {
  const credentials = {
    username: `idp-verify-${randomBytes(4).toString("hex")}`,
    password: randomBytes(24).toString("base64url"),
  };
  try {
    const { createProvider } = await import("@idp/provider");
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
    throw new VerifyError(
      "E_EMBEDDED_PROVIDER",
      `could not start the embedded provider (apps/provider): ${(e as Error).message.split("\n")[0]}; build it with "pnpm --filter @idp/provider build", or pass --provider-url`,
      { cause: e },
    );
  }
}
