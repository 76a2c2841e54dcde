import { createApp, unreadableBodyStatus } from "./app.ts";
import type { Credentials } from "./auth.ts";
import { OTHER_LOGIN_APP_ID, Store, THIS_LOGIN_APP_ID } from "./db.ts";
import { type LogSink, stderrJsonLines } from "./log.ts";
import {
  createOutboxSender,
  type OutboxRow,
  type PushSender,
  readOutbox,
} from "./outbox-sender.ts";
import { PROVIDER_STATES_PATH } from "./provider-states.ts";
import { type RunningServer, SERVER_LIMITS, type ServerLimits, startServer } from "./server.ts";

/** Options of `createProvider`: database, credentials, provider states, log, sender, seed, limits. */
export interface ProviderOptions {
  /**
   * SQLite file path, or ":memory:".
   * @defaultValue ":memory:"
   */
  db?: string;
  /** The Basic credentials every /v1 request must carry (R1). */
  credentials: Credentials;
  /**
   * Serve Pact's state-change endpoint at /_pact/provider-states (unauthenticated: tests only).
   * @defaultValue false
   */
  providerStates?: boolean;
  /** Structured log sink; never receives credentials. Default: JSON lines on stderr. */
  log?: (entry: Record<string, unknown>) => void;
  /** Where push notifications go. Default: the SQLite outbox. */
  sender?: PushSender;
  /** Login users to create at start (each with an Android and an iOS device). */
  seed?: {
    /** Ids of login users of the login app this provider serves. */
    loginUsers?: readonly string[];
    /** Ids of login users of another login app (push to them answers 403). */
    otherLoginAppUsers?: readonly string[];
  };
  /**
   * Timeouts and header size; each one left out keeps its documented default (`SERVER_LIMITS`:
   * headers 10 s, body 30 s, keep-alive 5 s, headers 16 KiB, checked every 250 ms). The body
   * timeout applies in-process too.
   */
  limits?: Partial<ServerLimits>;
}

/** Where a listening provider answers: its base URL (ending in /v1) and its provider-states URL. */
export interface ListenResult {
  /** e.g. "http://127.0.0.1:PORT/v1" */
  baseUrl: string;
  /** e.g. "http://127.0.0.1:PORT/_pact/provider-states" */
  providerStatesUrl: string;
  port: number;
}

/** A created provider: `fetch()` in-process, `listen()`, `close()` and its `outbox()`. */
export interface IdpProvider {
  /** Answers one request in-process, no socket. */
  fetch(request: Request): Promise<Response>;
  /** Starts an HTTP server; port 0 (the default) lets the OS choose a free port. */
  listen(options?: { port?: number; host?: string }): Promise<ListenResult>;
  /** Stops the server (if listening) and closes the database. Safe to call twice. */
  close(): Promise<void>;
  /** Deliveries recorded by the default outbox sender, oldest first (empty with a custom sender). */
  outbox(userId?: string): OutboxRow[];
}

const urlHost = (host: string): string => {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
};

/** The reference IDP provider, as a library: the verifier embeds it, the CLI serves it. */
export function createProvider(options: ProviderOptions): IdpProvider {
  const { username, password } = options.credentials;
  if (typeof username !== "string" || typeof password !== "string") {
    throw new TypeError(
      "createProvider: credentials.username and credentials.password must be strings",
    );
  }
  const log: LogSink = options.log ?? stderrJsonLines;
  const limits = checkLimits({ ...SERVER_LIMITS, ...options.limits });
  const store = new Store(options.db ?? ":memory:");
  for (const id of options.seed?.loginUsers ?? []) store.upsertLoginUser(id, THIS_LOGIN_APP_ID);
  for (const id of options.seed?.otherLoginAppUsers ?? [])
    store.upsertLoginUser(id, OTHER_LOGIN_APP_ID);
  const app = createApp({
    store,
    sender: options.sender ?? createOutboxSender(store),
    credentials: { username, password },
    providerStates: options.providerStates ?? false,
    log,
    bodyTimeoutMs: limits.bodyTimeoutMs,
  });
  let server: RunningServer | undefined;
  let closed = false;

  return {
    fetch: async (request) => app.fetch(request),
    async listen({ port = 0, host = "127.0.0.1" } = {}) {
      if (closed) throw new Error("createProvider: listen() after close()");
      if (server !== undefined) throw new Error("createProvider: already listening");
      server = await startServer({
        fetch: app.fetch,
        port,
        host,
        limits,
        log,
        unreadableBodyStatus,
      });
      const origin = `http://${urlHost(host)}:${server.port}`;
      log({
        level: "info",
        msg: "listening",
        url: `${origin}/v1`,
        providerStates: options.providerStates ?? false,
      });
      return {
        baseUrl: `${origin}/v1`,
        providerStatesUrl: `${origin}${PROVIDER_STATES_PATH}`,
        port: server.port,
      };
    },
    outbox: (userId) => readOutbox(store, userId),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await server?.close();
      } finally {
        store.close();
      }
    },
  };
}

function checkLimits(limits: ServerLimits): ServerLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(
        `createProvider: limits.${name} must be a positive integer, got ${value}`,
      );
    }
  }
  return limits;
}
