import { startEmbeddedProvider } from "../embedded.ts";
import type { Credentials } from "../rules/auth.ts";
import type { RunContext } from "./context.ts";

/** The provider under test, wherever it is. */
export interface ProviderUnderTest {
  /** Base address ending in /v1. */
  readonly url: string;
  readonly credentials: Credentials;
  readonly states?: { readonly url: string; readonly authorization?: string };
  /** The embedded reference provider, started here (and discarded after the run). */
  readonly embedded: boolean;
  close(): Promise<void>;
}

/** The provider at --provider-url, or the embedded reference provider, started in-process. */
export async function startProvider(run: RunContext): Promise<ProviderUnderTest> {
  const target = run.config.provider;
  if (target.kind === "url")
    return {
      url: target.url,
      credentials: target.credentials,
      ...(target.states ? { states: target.states } : {}),
      embedded: false,
      close: async () => {},
    };
  const embedded = await startEmbeddedProvider(run.progress);
  run.secrets.addBasic(embedded.credentials.username, embedded.credentials.password, "password");
  return {
    url: embedded.baseUrl,
    credentials: embedded.credentials,
    states: { url: embedded.providerStatesUrl },
    embedded: true,
    close: () => embedded.close(),
  };
}
