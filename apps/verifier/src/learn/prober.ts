import {
  type ContractProfile,
  type DetailedOperationId,
  detailedOperations,
  operationPath,
  PROVIDER_STATES,
  type ProviderStateName,
} from "@idp/contracts";
import type { ConformanceOutcome } from "../engine/conformance.ts";
import { ProviderStates, stateParams } from "../engine/states.ts";
import { type Answer, Client, THROTTLED_OUT } from "../http/client.ts";
import type { OutgoingRequest } from "../http/exchange.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import type { TransportSettings } from "../http/settings.ts";
import { NONE_CREATED, type WriteLedger } from "../restore/ledger.ts";
import { ledgerFor, targetOf } from "../restore/probe.ts";
import type { Credentials } from "../rules/auth.ts";
import { type AuthSpec, validAuth } from "../rules/auth.ts";
import type { Secrets } from "../secrets.ts";
import type { Evidence } from "./types.ts";

// The learning phase's own way to the provider (conformance.md §6, "Learning a profile"): a client
// of its own, so its requests are never judged by a rule, never counted in the run's status grid,
// and never seen by the run's observers; the run's rate limit, HAR file, secrets and --cleanup
// ledger still apply. Push requests run in a provider state set up once per kind.

/** What the learning phase needs of the run. */
export interface ProberSetup {
  readonly providerUrl: string;
  readonly credentials: Credentials;
  readonly profile: ContractProfile;
  readonly states?: { readonly url: string; readonly authorization?: string };
  readonly secrets: Secrets;
  readonly runId: string;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly transport: TransportSettings;
  readonly deadlineEpochMs: number;
  readonly rateLimiter?: RateLimiter;
  readonly har?: (entry: string) => void;
  readonly cleanup: boolean;
}

const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} characters in all)` : text;

/** The push states the learning phase uses, each under one id of its own. */
const PUSH_STATES = {
  user: PROVIDER_STATES.loginUserExists,
  unknown: PROVIDER_STATES.noLoginUserExists,
  otherApp: PROVIDER_STATES.loginUserOfAnotherAppExists,
} as const satisfies Record<string, ProviderStateName>;
export type PushState = keyof typeof PUSH_STATES;

export class Prober {
  readonly setup: ProberSetup;
  readonly client: Client;
  readonly #ledger: WriteLedger | undefined;
  readonly #states: ProviderStates | undefined;
  readonly #ready = new Map<PushState, Promise<string | undefined>>();
  readonly #origin: string;
  readonly #basePath: string;
  #names = 0;

  constructor(setup: ProberSetup) {
    this.setup = setup;
    const base = new URL(setup.providerUrl);
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, "");
    // --cleanup asks the profile's getSchema before a create, as the run's own requests do.
    const target = targetOf(setup.providerUrl, setup.credentials, setup.profile);
    this.#ledger = setup.cleanup ? ledgerFor(() => this.client, target) : undefined;
    this.client = new Client({
      timeoutMs: setup.timeoutMs,
      connections: setup.concurrency,
      maxConsecutiveFailures: 5,
      secrets: setup.secrets,
      transport: setup.transport,
      deadlineEpochMs: setup.deadlineEpochMs,
      ...(setup.rateLimiter ? { rateLimiter: setup.rateLimiter } : {}),
      ...(setup.har ? { har: setup.har } : {}),
      ...(this.#ledger ? { writes: this.#ledger } : {}),
    });
    this.#states = setup.states
      ? new ProviderStates(setup.states.url, this.client, setup.secrets, setup.states.authorization)
      : undefined;
  }

  get statesAvailable(): boolean {
    return this.#states !== undefined;
  }

  /** A schema name never sent before (the run id makes it this run's). */
  freshName(): string {
    return `idpv-${this.setup.runId}-l${++this.#names}`;
  }

  /** The time is up (`--max-duration`): no more probes. */
  get outOfTime(): boolean {
    return Date.now() >= this.setup.deadlineEpochMs;
  }

  /** The login user id of a push state, set up once; undefined when it could not be. */
  stateId(state: PushState): Promise<string | undefined> {
    let ready = this.#ready.get(state);
    if (!ready) {
      const id = `idpv-${this.setup.runId}-learn-${state}`;
      const states = this.#states;
      ready = states
        ? states
            .change(PUSH_STATES[state], stateParams(PUSH_STATES[state], id), "setup")
            .then((r) => (r.ok ? id : undefined))
        : Promise.resolve(undefined);
      this.#ready.set(state, ready);
    }
    return ready;
  }

  /** Sends one body; push goes to the login user of `state` (default: one of this login app). */
  async send(
    op: DetailedOperationId,
    body: string,
    options: { readonly state?: PushState; readonly auth?: AuthSpec; readonly source: string },
  ): Promise<Answer | undefined> {
    if (this.outOfTime) return undefined;
    let id: string | undefined;
    if (op === "pushToUserDevices") {
      id = this.#states ? await this.stateId(options.state ?? "user") : "idpv-learn";
      if (id === undefined) return undefined;
    }
    const auth = options.auth ?? validAuth(this.setup.credentials);
    const spec = detailedOperations[op];
    const req: OutgoingRequest = {
      operation: op,
      method: spec.method,
      origin: this.#origin,
      path: `${this.#basePath}${operationPath(spec, id === undefined ? {} : { id })}`,
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...(auth.header === undefined ? {} : { authorization: auth.header }),
      },
      body,
      credentials: auth.description,
      curlAuth: auth.curlAuth,
    };
    const answer = await this.client.send(req, options.source);
    if (answer.raw.kind === "transport-error" && answer.raw.code === THROTTLED_OUT)
      return undefined;
    return answer;
  }

  /** The exchange of an answer as evidence: the run id and base address left out, so the same
   * provider and seed give the same text. */
  evidence(check: string, answer: Answer): Evidence {
    const ex = answer.exchange();
    const runId = this.setup.runId;
    const stable = (t: string) => t.replaceAll(runId, "{run}");
    const path = ex.request.url.slice(this.#origin.length + this.#basePath.length);
    const body = ex.request.body ?? "";
    const result = ex.result;
    const answerText =
      result.kind === "response"
        ? `${result.status}${result.bodyPreview ? ` ${cut(result.bodyPreview, 300)}` : ""}`
        : `no answer: ${result.code}`;
    return {
      check,
      request: stable(`${ex.request.method} ${path} ${cut(body, 600)}`),
      answer: stable(answerText),
    };
  }

  /** Tears the states down and closes the client; what the phase sent, for the restore phase. */
  async close(): Promise<ConformanceOutcome> {
    const states = this.#states;
    if (states)
      await Promise.all(
        [...this.#ready].map(async ([state, ready]) => {
          const id = await ready;
          if (id)
            await states.change(
              PUSH_STATES[state],
              stateParams(PUSH_STATES[state], id),
              "teardown",
            );
        }),
      );
    const outcome: ConformanceOutcome = {
      observations: { first: new Map() },
      tally: this.client.tally,
      sent: this.client.sent,
      answered: this.client.answered,
      throttled: this.client.throttled,
      resent: { gateway: this.client.gateway, connection: this.client.resent },
      created: this.#ledger?.created ?? NONE_CREATED,
    };
    await this.client.close();
    return outcome;
  }
}
