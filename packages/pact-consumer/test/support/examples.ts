// Example bodies of the pact interactions: drawn from @idp/generators with fixed seeds, so
// re-recording the pacts changes no byte unless the generators (a real contract input) change.
import type {
  ClusteringRules,
  CreateSchemaRequest,
  DetailedOperationId,
  UserPublishRequest,
} from "@idp/contracts";
import {
  clusteringRulesArb,
  createSchemaRequestArb,
  type InvalidBodyCase,
  invalidBodyArb,
  userPublishRequestArb,
} from "@idp/generators";
import fc from "fast-check";
import { pactSafe } from "../../src/index.ts";

/** Small examples keep the pact readable; the generators still choose every value. */
const VALID = { maxLength: 2 } as const;

/**
 * The seeds. Each was chosen so its example survives Pact's JSON handling unchanged (see
 * {@link pactSafe}); if a generator change makes one unsafe, the tests say so, and a new seed is
 * picked here (a reviewed pact diff follows either way).
 */
export const EXAMPLE_SEEDS = {
  createSchema: 3,
  pushToUserDevices: 5,
  updateClusteringRules: 2,
  invalid: {
    createSchema: { 400: 2, 422: 3 },
    pushToUserDevices: { 400: 4 },
    updateClusteringRules: { 422: 2 },
  },
} as const;

function sampleOne<T>(arb: fc.Arbitrary<T>, seed: number, what: string): T {
  const [value] = fc.sample(arb, { seed, numRuns: 1 });
  if (value === undefined) throw new Error(`no example for ${what} with seed ${seed}`);
  return pactSafe(value, `${what} (seed ${seed})`);
}

export function exampleCreateSchemaRequest(): CreateSchemaRequest {
  return sampleOne(createSchemaRequestArb(VALID), EXAMPLE_SEEDS.createSchema, "createSchema");
}

export function exampleUserPublishRequest(): UserPublishRequest {
  return sampleOne(
    userPublishRequestArb(VALID),
    EXAMPLE_SEEDS.pushToUserDevices,
    "pushToUserDevices",
  );
}

export function exampleClusteringRules(): ClusteringRules {
  return sampleOne(
    clusteringRulesArb(VALID),
    EXAMPLE_SEEDS.updateClusteringRules,
    "updateClusteringRules",
  );
}

type InvalidSeeds = typeof EXAMPLE_SEEDS.invalid;

/** An invalid JSON body (not raw text: the typed client sends JSON) with the pinned status. */
export function invalidExample<Op extends DetailedOperationId & keyof InvalidSeeds>(
  operation: Op,
  status: keyof InvalidSeeds[Op] & (400 | 422),
): InvalidBodyCase {
  const seed = (EXAMPLE_SEEDS.invalid[operation] as Record<number, number>)[status];
  if (seed === undefined) throw new Error(`no seed for an invalid ${operation} body (${status})`);
  const arb = invalidBodyArb(operation).filter((c) => c.expectedStatus === status && !c.raw);
  return sampleOne(arb, seed, `invalid ${operation} (${status})`);
}
