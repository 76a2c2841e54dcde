import { Client } from "../http/client.ts";
import { HarWriter } from "../http/har.ts";
import { RateLimiter } from "../http/rate-limit.ts";
import type { WriteLedger } from "../restore/ledger.ts";
import { ledgerFor, targetOf } from "../restore/probe.ts";
import { type Observations, observeWire } from "../rules/index.ts";
import { VERSION } from "../version.ts";
import { epochOf, type RunContext } from "./context.ts";
import type { ProviderUnderTest } from "./provider.ts";

/** The run's way to the provider: this thread's client, the shared rate limit, the HAR file. */
export interface Transport {
  readonly client: Client;
  /** With --cleanup: what this thread's requests (pacts, states) created. */
  readonly ledger?: WriteLedger;
  readonly rateLimiter?: RateLimiter;
  readonly har?: HarWriter;
  /** What conformance.md §9 made of this client's answers (Pact's, the states', preflight's). */
  readonly wire: Observations;
  close(): Promise<void>;
}

/**
 * Opens the one transport of the run (conformance.md §7): every request this thread sends to the
 * provider goes through `client`; worker threads get the same settings and the rate limiter's
 * shared state, and send their HAR entries here.
 */
export function openTransport(run: RunContext, provider: ProviderUnderTest): Transport {
  const { config } = run;
  const rate = config.transport.ratePerSecond;
  const ledger = config.cleanup
    ? ledgerFor(() => client, targetOf(provider.url, provider.credentials, config.profile))
    : undefined;
  const rateLimiter = rate === undefined ? undefined : new RateLimiter(rate);
  let har: HarWriter | undefined;
  if (config.harPath) har = new HarWriter(config.harPath, { name: "idp-verify", version: VERSION });
  const client: Client = new Client({
    timeoutMs: config.timeoutMs,
    connections: config.concurrency,
    maxConsecutiveFailures: config.maxConsecutiveTransportFailures,
    secrets: run.secrets,
    transport: config.transport,
    deadlineEpochMs: epochOf(run.deadline),
    ...(rateLimiter ? { rateLimiter } : {}),
    ...(har ? { har: (entry: string) => har?.write(entry) } : {}),
    ...(ledger ? { writes: ledger } : {}),
  });
  return {
    client,
    wire: observeWire(client),
    ...(ledger ? { ledger } : {}),
    ...(rateLimiter ? { rateLimiter } : {}),
    ...(har ? { har } : {}),
    close: async () => {
      await client.close();
      har?.close();
    },
  };
}
