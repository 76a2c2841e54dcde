import { nextEmbeddedCredentials, startEmbeddedProvider } from "../embedded.ts";
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

/** A provider being reached: its credentials at once, the provider once it listens. */
export interface ProviderStart {
  readonly credentials: Credentials;
  /** Whether it has a provider-states URL. */
  readonly hasStates: boolean;
  readonly ready: Promise<ProviderUnderTest>;
}

/**
 * The provider at --provider-url, or the embedded reference provider, started in a thread of its
 * own. Its credentials are known (and registered as secrets) at once, before it listens, so the
 * case thread can start beside it.
 */
export function beginProvider(run: RunContext): ProviderStart {
  const target = run.config.provider;
  if (target.kind === "url")
    return {
      credentials: target.credentials,
      hasStates: target.states !== undefined,
      ready: Promise.resolve({
        url: target.url,
        credentials: target.credentials,
        ...(target.states ? { states: target.states } : {}),
        embedded: false,
        close: async () => {},
      }),
    };
  const credentials = nextEmbeddedCredentials();
  run.secrets.addBasic(credentials.username, credentials.password, "password");
  return {
    credentials,
    hasStates: true,
    ready: startEmbeddedProvider(run.progress, undefined, credentials).then((embedded) => ({
      url: embedded.baseUrl,
      credentials,
      states: { url: embedded.providerStatesUrl },
      embedded: true,
      close: () => embedded.close(),
    })),
  };
}
