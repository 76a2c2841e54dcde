import { PROVIDER_STATES } from "@idp/contracts";
import { send } from "./http.ts";

export type StateAction = "setup" | "teardown";

export type StateResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Pact's state-change protocol (conformance.md §4) against `--provider-states-url`. */
export class ProviderStates {
  readonly url: string;
  readonly timeoutMs: number;
  /** Sent with every state change when the URL had user-info (kept apart from the URL). */
  readonly authorization: string | undefined;
  constructor(url: string, timeoutMs: number, authorization?: string) {
    this.url = url;
    this.timeoutMs = timeoutMs;
    this.authorization = authorization;
  }

  async change(
    state: string,
    params: Readonly<Record<string, unknown>>,
    action: StateAction,
  ): Promise<StateResult> {
    const res = await send(
      {
        method: "POST",
        url: this.url,
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...(this.authorization ? { authorization: this.authorization } : {}),
        },
        body: JSON.stringify({ state, params, action }),
      },
      { timeoutMs: this.timeoutMs, maxBodyBytes: 4096 },
    );
    if (res.kind === "transport-error")
      return {
        ok: false,
        reason: `${action} of state "${state}": no answer (${res.code}: ${res.message})`,
      };
    if (res.status < 200 || res.status > 299) {
      const preview = res.body.subarray(0, 200).toString("utf8").replace(/\s+/g, " ");
      return {
        ok: false,
        reason: `${action} of state "${state}" answered ${res.status}${preview ? `: ${preview}` : ""}`,
      };
    }
    return { ok: true };
  }

  /** Runs `body` between setup and teardown of `state`; a failed setup is returned, not thrown. */
  async within<T>(
    state: string,
    params: Readonly<Record<string, unknown>>,
    body: () => Promise<T>,
  ): Promise<
    { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string }
  > {
    const setup = await this.change(state, params, "setup");
    if (!setup.ok) return setup;
    try {
      return { ok: true, value: await body() };
    } finally {
      await this.change(state, params, "teardown");
    }
  }

  /**
   * Checks that each state has a handler before any request: setup then teardown with `params`.
   * Returns the reason per state that failed.
   */
  async probe(
    states: readonly {
      readonly name: string;
      readonly params: Readonly<Record<string, unknown>>;
    }[],
  ): Promise<Map<string, string>> {
    const missing = new Map<string, string>();
    for (const { name, params } of states) {
      if (missing.has(name)) continue;
      const setup = await this.change(name, params, "setup");
      if (!setup.ok) {
        missing.set(name, `no handler for provider state "${name}": ${setup.reason}`);
        continue;
      }
      await this.change(name, params, "teardown");
    }
    return missing;
  }
}

/** The states the conformance checks use (conformance.md §4). */
export const STATE = {
  userExists: PROVIDER_STATES.loginUserExists,
  noUser: PROVIDER_STATES.noLoginUserExists,
  otherAppUser: PROVIDER_STATES.loginUserOfAnotherAppExists,
} as const;
