import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PACT_WRONG_AUTHORIZATION } from "@idp/contracts";
import type { Release, StateLock } from "../engine/state-lock.ts";
import type { ProviderStates } from "../engine/states.ts";
import { type Answer, type Client, THROTTLED_OUT } from "../http/client.ts";
import { shq } from "../http/exchange.ts";
import { operationOfRequest } from "../report/findings.ts";
import { wireProblem } from "../rules/wire.ts";
import type { Secrets } from "../secrets.ts";

// Not `import { createServer } from "node:http"`: an ESM import of node:http builds its namespace,
// reading the lazy WebSocket, MessageEvent and CloseEvent getters, which load undici, unused here
// (process.cpuUsage: 165 CPU-ms for the ESM import alone against 25; the CLI's load 370 -> 330).
const { createServer } = process.getBuiltinModule("node:http");

/** Where Pact's verifier sends state changes: the guard answers them (forwarding real ones). */
export const GUARD_STATES_PATH = "/__idp-verify/provider-states";
/** Pact's own requests are small; anything larger is not a pact's request. */
const MAX_PACT_REQUEST_BYTES = 16 * 1024 * 1024;
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "host",
  "content-length",
  // The verifier sends no Accept-Encoding (conformance.md §9), Pact's requests included.
  "accept-encoding",
]);

/** Everything that happened for one interaction: its state setups and its request. */
export interface GuardGroup {
  readonly states: { name: string; params: Readonly<Record<string, unknown>>; failure?: string }[];
  answer?: Answer;
  /** Why the provider's answer was not passed on to Pact as it was (cap, no answer). */
  withheld?: string;
  /** Still throttled when the run's time was up: the interaction is incomplete, not failed. */
  throttled?: string;
  /**
   * Resolves true when bytes nobody asked for followed the answer on its connection: it may be
   * another request's, so Pact's verdict on it is not reported (conformance.md §9).
   */
  suspect?: Promise<boolean>;
  /** The answer was found suspect: Pact's verdict on it is not reported. */
  suspected?: true;
  /** Wall time of the group, from its first message to its last. */
  startedAt: number;
  endedAt: number;
  tornDown: boolean;
}

export interface GuardOptions {
  readonly client: Client;
  /** The provider's origin; Pact's paths already carry the base path. */
  readonly providerOrigin: string;
  readonly placeholderAuthorization: string;
  readonly realAuthorization: string;
  readonly states?: ProviderStates;
  /**
   * One provider state at a time: held from an interaction's first setup to its last teardown
   * (Pact's verifier runs one instance's interactions one after another).
   */
  readonly stateLock?: StateLock;
  readonly secrets: Secrets;
}

/**
 * The verifier's guard between Pact's verifier and the provider: every request Pact sends goes
 * through the same client as the conformance checks (1 MiB body cap, per-request deadline, no
 * redirects followed, the circuit breaker), the pacts' placeholder credential is swapped for the
 * real one, state changes are forwarded to `--provider-states-url`, and each exchange is recorded
 * (scrubbed), grouped per interaction, so a failing interaction gets its request, answer, curl line
 * and state setup like any other failure. Pact's verifier never reads more than 1 MiB of an answer.
 */
export class PactGuard {
  readonly groups: GuardGroup[] = [];
  readonly #options: GuardOptions;
  #server: Server | undefined;
  /** The state lock while this guard's interaction holds it, and its states set up and not torn down. */
  #held: { readonly release: Release; setUp: number } | undefined;
  #origin = "";

  constructor(options: GuardOptions) {
    this.#options = options;
  }

  /** Where Pact's verifier sends what it would send to the provider's origin. */
  get origin(): string {
    return this.#origin;
  }
  get statesUrl(): string {
    return `${this.#origin}${GUARD_STATES_PATH}`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      this.#handle(req, res).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(
          `idp-verify guard: ${this.#options.secrets.scrub(String((e as Error)?.message ?? e))}`,
        );
      });
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.#server = server;
    this.#origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.#let();
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Gives back the state lock, if this guard holds it. */
  #let(): void {
    const held = this.#held;
    this.#held = undefined;
    held?.release();
  }

  #current(): GuardGroup {
    const last = this.groups[this.groups.length - 1];
    if (last && !last.tornDown && !last.answer) return last;
    const group: GuardGroup = {
      states: [],
      startedAt: performance.now(),
      endedAt: 0,
      tornDown: false,
    };
    this.groups.push(group);
    return group;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readAll(req);
    if (body === undefined) {
      res
        .writeHead(413, { "content-type": "text/plain" })
        .end("idp-verify guard: request too large");
      return;
    }
    if (req.url === GUARD_STATES_PATH && req.method === "POST") return this.#state(body, res);
    const group = this.#current();
    const { placeholderAuthorization, realAuthorization } = this.#options;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name))
        headers[name] = Array.isArray(value) ? value.join(", ") : value;
    const sent = headers.authorization;
    let credentials = "no Authorization header";
    let curlAuth: string[] = [];
    if (sent === placeholderAuthorization) {
      headers.authorization = realAuthorization;
      credentials = "valid credentials (the pact's placeholder, replaced)";
      curlAuth = ["-u", `"$IDP_USERNAME:$IDP_PASSWORD"`];
    } else if (sent !== undefined) {
      credentials = "the pact's own Authorization value";
      curlAuth = [
        "-H",
        sent === PACT_WRONG_AUTHORIZATION
          ? shq(`Authorization: ${sent}`)
          : `'Authorization: <the value in the pact>'`,
      ];
    }
    const method = req.method ?? "GET";
    // Tagged with its operation, so the status grid counts what Pact's interactions got.
    const operation = operationOfRequest(method, req.url ?? "/");
    const first = await this.#options.client.send(
      {
        ...(operation ? { operation } : {}),
        method,
        origin: this.#options.providerOrigin,
        path: req.url ?? "/",
        headers,
        ...(body.length > 0 ? { body: body.toString("utf8") } : {}),
        credentials,
        curlAuth,
      },
      "pact",
    );
    const answer = first;
    group.answer = answer;
    // Whether bytes nobody asked for followed it: Pact judges at once, the result is read after.
    if (answer.raw.kind === "response" && answer.raw.suspect) group.suspect = answer.raw.suspect();
    group.endedAt = performance.now();
    const raw = answer.raw;
    if (raw.kind === "transport-error" && raw.code === THROTTLED_OUT) {
      group.throttled = raw.message;
      return withheld(res, raw.code, raw.message);
    }
    if (raw.kind === "transport-error") {
      const wire = wireProblem(raw);
      group.withheld = this.#options.secrets.scrub(
        wire ? wire.message : `no answer from the provider: ${raw.code}: ${raw.message}`,
      );
      return withheld(res, raw.code, group.withheld);
    }
    if (raw.truncated) {
      group.withheld = "the provider's answer is longer than 1 MiB (cut; not passed to Pact)";
      return withheld(res, "body-too-large", group.withheld);
    }
    const out: string[] = [];
    for (const [name, value] of Object.entries(raw.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      // Pact gets the body decoded (conformance.md §9): not labelled as still encoded.
      if (raw.decoded && name === "content-encoding") continue;
      for (const v of Array.isArray(value) ? value : [value]) out.push(name, v);
    }
    try {
      res.writeHead(raw.status, out);
    } catch {
      group.withheld = `the provider answered status ${raw.status}, which is not an HTTP status`;
      return withheld(res, "bad-status", group.withheld);
    }
    res.end(raw.body);
  }

  async #state(body: Buffer, res: ServerResponse): Promise<void> {
    let change: { state?: unknown; params?: unknown; action?: unknown };
    try {
      change = JSON.parse(body.toString("utf8")) as typeof change;
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("not JSON");
      return;
    }
    const name = typeof change.state === "string" ? change.state : "";
    const params = (
      typeof change.params === "object" && change.params !== null ? change.params : {}
    ) as Record<string, unknown>;
    const action = change.action === "teardown" ? "teardown" : "setup";
    const group = action === "setup" ? this.#current() : this.groups[this.groups.length - 1];
    if (group && action === "teardown") {
      group.tornDown = true;
      group.endedAt = performance.now();
    }
    // Pact announces stateless interactions with the empty state: nothing to do.
    if (name === "") {
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      return;
    }
    const entry: GuardGroup["states"][number] = { name, params };
    if (action === "setup") group?.states.push(entry);
    const states = this.#options.states;
    const lock = this.#options.stateLock;
    if (lock && states && action === "setup") {
      // A setup whose interaction's teardown never came (Pact skips it after a failed request)
      // keeps the lock it held: this guard's interactions run one after another.
      this.#held ??= { release: await lock.acquire(), setUp: 0 };
      this.#held.setUp++;
    }
    const result = states
      ? await states.change(name, params, action)
      : {
          ok: false as const,
          reason: `the interaction needs provider state "${name}": give --provider-states-url`,
        };
    // Its last state torn down (or a setup failed, so nothing will be): the lock goes on.
    const held = this.#held;
    if (held && (action === "teardown" ? --held.setUp <= 0 : !result.ok)) this.#let();
    if (!result.ok) {
      if (result.throttled && group) group.throttled = result.reason;
      else if (action === "setup") entry.failure = result.reason;
      res.writeHead(500, { "content-type": "text/plain" }).end(result.reason);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  }
}

function withheld(res: ServerResponse, code: string, why: string): void {
  res
    .writeHead(502, { "content-type": "text/plain", "x-idp-verify-guard": code })
    .end(`idp-verify: ${why}`);
}

function readAll(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_PACT_REQUEST_BYTES) {
        req.destroy();
        resolve(undefined);
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
