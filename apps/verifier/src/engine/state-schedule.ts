import {
  type ContractProfile,
  detailedOperations,
  operationPath,
  PROVIDER_STATES,
} from "@idp/contracts";
import { validBodyArb } from "@idp/generators";
import fc from "fast-check";
import type { Client } from "../http/client.ts";
import type { StatesSchedule } from "../results.ts";
import type { Credentials } from "../rules/auth.ts";
import { validAuth } from "../rules/auth.ts";
import { type ProviderStates, type StateUse, stateParams } from "./states.ts";

/** Where the provider is, how to log in, and how bodies are read: what a probe's push needs. */
export interface PushTarget {
  readonly origin: string;
  readonly basePath: string;
  readonly credentials: Credentials;
  readonly profile: ContractProfile;
}

const LOGIN_USER = PROVIDER_STATES.loginUserExists;

/**
 * Before the first check: every state the run will use is set up and torn down once (a state
 * without a working handler is a setup problem, reported by name), and, around those, the run
 * learns whether setups are additive. A login user is set up first (`…-additive-a`) and a valid push
 * to it must succeed; then every state the run uses, and a second login user, are set up (at once)
 * and torn down (at once), and after each of the two steps the push to the first must still
 * succeed. Only then do states overlap; a provider whose handlers start from a clean slate, or
 * whose teardown removes every login user, gets one state at a time, and one the probe cannot read
 * (the push does not succeed) too: overlapping is only ever a speed-up.
 */
export async function probeStates(
  states: ProviderStates,
  client: Client,
  target: PushTarget,
  uses: readonly StateUse[],
  runId: string,
): Promise<{ readonly missing: Map<string, string>; readonly schedule: StatesSchedule }> {
  const missing = new Map<string, string>();
  const firstId = `idpv-${runId}-additive-a`;
  const first = stateParams(LOGIN_USER, firstId);
  const usesLoginUser = uses.some((u) => u.name === LOGIN_USER);
  const oneAtATime = (additive: false | "unknown", detail: string) => ({
    missing,
    schedule: { additive, scheduling: "one-at-a-time" as const, detail },
  });

  const setUp = await states.change(LOGIN_USER, first, "setup");
  if (!setUp.ok && !setUp.wire && usesLoginUser) missing.set(LOGIN_USER, setUp.reason);
  const before = setUp.ok
    ? await pushProblem(client, target, firstId)
    : `the setup of "${LOGIN_USER}" answered: ${setUp.reason}`;
  // One of each name the run uses (the handler probe), and a second login user.
  const byName = new Map<string, StateUse>();
  for (const u of uses) if (!byName.has(u.name)) byName.set(u.name, u);
  const others: StateUse[] = [
    ...byName.values(),
    { name: LOGIN_USER, params: stateParams(LOGIN_USER, `idpv-${runId}-additive-b`) },
  ];
  const setups = await Promise.all(others.map((u) => states.change(u.name, u.params, "setup")));
  setups.forEach((r, i) => {
    const name = (others[i] as StateUse).name;
    if (!r.ok && !r.wire && i < byName.size && !missing.has(name)) missing.set(name, r.reason);
  });
  const afterSetups = before === undefined ? await pushProblem(client, target, firstId) : undefined;
  await Promise.all(
    others.map((u, i) =>
      setups[i]?.ok ? states.change(u.name, u.params, "teardown") : Promise.resolve(),
    ),
  );
  const afterTeardowns =
    before === undefined && afterSetups === undefined
      ? await pushProblem(client, target, firstId)
      : undefined;
  if (setUp.ok) await states.change(LOGIN_USER, first, "teardown");

  const what = `every state this run uses (${byName.size}) and a second login user`;
  if (before !== undefined)
    return oneAtATime(
      "unknown",
      `could not tell whether setups are additive: ${before}; states one at a time`,
    );
  if (afterSetups !== undefined)
    return oneAtATime(
      false,
      `setups not additive: once ${what} were set up, ${afterSetups}; states one at a time`,
    );
  if (afterTeardowns !== undefined)
    return oneAtATime(
      false,
      `teardowns not additive: once ${what} were torn down, ${afterTeardowns}; states one at a time`,
    );
  return {
    missing,
    schedule: {
      additive: true,
      scheduling: "overlapped",
      detail: `setups found additive: a login user set up first was still there once ${what} were set up and torn down; states overlapped`,
    },
  };
}

/**
 * Why a valid push to the login user `id` did not succeed, or undefined when it did. The body is
 * one valid push under the run's profile, the same every run.
 */
async function pushProblem(
  client: Client,
  target: PushTarget,
  id: string,
): Promise<string | undefined> {
  const op = detailedOperations.pushToUserDevices;
  const auth = validAuth(target.credentials);
  const answer = await client.send(
    {
      // Untagged: a probe of the states, not one of the run's requests of the operation (the grid).
      method: op.method,
      origin: target.origin,
      path: `${target.basePath}${operationPath(op, { id })}`,
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        authorization: auth.header as string,
      },
      body: probeBody(target.profile),
      credentials: auth.description,
      curlAuth: auth.curlAuth,
    },
    "provider-state",
  );
  const raw = answer.raw;
  if (raw.kind !== "response")
    return `a push to the login user set up first got no answer (${raw.code})`;
  return raw.status === op.successStatus
    ? undefined
    : `a push to the login user set up first answered ${raw.status}`;
}

const probeBodies = new WeakMap<ContractProfile, string>();
function probeBody(profile: ContractProfile): string {
  let text = probeBodies.get(profile);
  if (text === undefined) {
    const [body] = fc.sample(validBodyArb("pushToUserDevices", { profile, maxLength: 2 }), {
      seed: 4,
      numRuns: 1,
    });
    text = JSON.stringify(body);
    probeBodies.set(profile, text);
  }
  return text;
}
