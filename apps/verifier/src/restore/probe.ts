import type { ContractProfile } from "@idp/contracts";
import type { Client } from "../http/client.ts";
import type { Credentials } from "../rules/auth.ts";
import { neighbourRequest } from "../rules/requests.ts";
import { WriteLedger } from "./ledger.ts";

/** Where the provider is and how to log in, for the neighbour operations. */
export interface NeighbourTarget {
  readonly origin: string;
  readonly basePath: string;
  readonly credentials: Credentials;
  readonly profile: ContractProfile;
}

export const targetOf = (
  providerUrl: string,
  credentials: Credentials,
  profile: ContractProfile,
): NeighbourTarget => {
  const base = new URL(providerUrl);
  return {
    origin: base.origin,
    basePath: base.pathname.replace(/\/+$/, ""),
    credentials,
    profile,
  };
};

/**
 * A ledger whose question (does the provider hold this name?) is `getSchema` through `client()`:
 * 200 means held; any other answer means not; no answer is kept as such (never remove what this
 * run cannot show it created, and say so).
 */
export function ledgerFor(client: () => Client, target: NeighbourTarget): WriteLedger {
  return new WriteLedger(async (name) => {
    const c = client();
    const a = await c.send(
      neighbourRequest(target, target.credentials, target.profile.neighbours.getSchema, name),
      "cleanup",
    );
    return a.raw.kind === "response"
      ? a.raw.status === 200
      : { unanswered: `getSchema: ${a.raw.code}: ${c.options.secrets.scrub(a.raw.message)}` };
  });
}
