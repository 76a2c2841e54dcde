import type { Config } from "../../src/config/parse.ts";
import type { ProviderTarget } from "../../src/config/provider.ts";

/** The provider of a config that names one by URL (fails the test otherwise). */
export function urlProvider(c: Config): Extract<ProviderTarget, { kind: "url" }> {
  if (c.provider.kind !== "url") throw new Error(`expected a provider URL, got ${c.provider.kind}`);
  return c.provider;
}
