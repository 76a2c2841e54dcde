import { PROVIDER_STATE_PARAM, type ProviderStateName } from "@idp/contracts";
import { type Client, THROTTLED_OUT } from "../http/client.ts";
import { curlVia, shq } from "../http/exchange.ts";
import { wireProblem } from "../rules/wire.ts";
import type { Secrets } from "../secrets.ts";

export type StateAction = "setup" | "teardown";
export type StateResult =
  | { readonly ok: true }
  /**
   * `throttled`: the state URL's gateway still said "not now" at the time limit (incomplete);
   * `wire`: no answer on the wire (malformed, cut short, ...: R6, conformance.md §9), which says
   * nothing of the handler.
   */
  | {
      readonly ok: false;
      readonly reason: string;
      readonly throttled?: true;
      readonly wire?: true;
    };

export interface StateUse {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/**
 * Pact's state-change protocol (conformance.md §4) against `--provider-states-url`, over the run's
 * keep-alive connections. `authorization` is the URL's user-info, if it had one (never recorded).
 */
export class ProviderStates {
  readonly url: string;
  readonly #origin: string;
  readonly #path: string;
  readonly #client: Client;
  readonly #secrets: Secrets;
  readonly #authorization: string | undefined;

  constructor(url: string, client: Client, secrets: Secrets, authorization?: string) {
    const u = new URL(url);
    this.url = url;
    this.#origin = u.origin;
    this.#path = `${u.pathname}${u.search}`;
    this.#client = client;
    this.#secrets = secrets;
    this.#authorization = authorization;
  }

  async change(
    state: string,
    params: StateUse["params"],
    action: StateAction,
  ): Promise<StateResult> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
    };
    if (this.#authorization) headers.authorization = this.#authorization;
    let answer = await this.#client.send(
      {
        method: "POST",
        origin: this.#origin,
        path: this.#path,
        headers,
        body: JSON.stringify({ state, params, action }),
        credentials: this.#authorization ? "the state URL's user-info" : "none",
        curlAuth: [],
      },
      "provider-state",
    );
    // A refusal is never read from an answer that may be another request's (conformance.md §9).
    if (answer.raw.kind === "response" && (answer.raw.status < 200 || answer.raw.status > 299))
      answer = await this.#client.confirm(answer);
    const raw = answer.raw;
    if (raw.kind === "transport-error")
      return {
        ok: false,
        reason: `${action} of state "${state}": ${raw.code === THROTTLED_OUT ? "" : "no answer "}(${raw.code}: ${this.#secrets.scrub(raw.message)})`,
        ...(raw.code === THROTTLED_OUT ? { throttled: true as const } : {}),
        ...(wireProblem(raw) ? { wire: true as const } : {}),
      };
    if (raw.status < 200 || raw.status > 299) {
      const text = this.#secrets
        .scrub(raw.body.subarray(0, 300).toString("utf8"))
        .replace(/\s+/g, " ");
      return {
        ok: false,
        reason: `${action} of state "${state}" answered ${raw.status}${text ? `: ${text.slice(0, 200)}` : ""}`,
      };
    }
    return { ok: true };
  }

  /** A curl command that sets `state` up with `params` (printed with a failure, run it first). */
  setupCommand(state: string, params: StateUse["params"]): string {
    const body = JSON.stringify({ state, params, action: "setup" });
    const via = curlVia(this.#client.via);
    return `curl -sS -X POST ${shq(this.url)} -H 'content-type: application/json' --data-binary ${shq(body)}${via.length > 0 ? ` ${via.join(" ")}` : ""}`;
  }
}

/** The params of a state for one value (a login user id or a schema name). */
export const stateParams = (name: ProviderStateName, value: string): Record<string, string> => ({
  [PROVIDER_STATE_PARAM[name]]: value,
});
