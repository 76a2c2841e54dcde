import { createApp } from "./app.ts";
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
import { type RunningServer, startServer } from "./server.ts";

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
}

export interface ListenResult {
  /** e.g. "http://127.0.0.1:PORT/v1" */
  baseUrl: string;
  /** e.g. "http://127.0.0.1:PORT/_pact/provider-states" */
  providerStatesUrl: string;
  port: number;
}

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
  });
  let server: RunningServer | undefined;
  let closed = false;

  return {
    fetch: async (request) => app.fetch(request),
    async listen({ port = 0, host = "127.0.0.1" } = {}) {
      if (closed) throw new Error("createProvider: listen() after close()");
      if (server !== undefined) throw new Error("createProvider: already listening");
      server = await startServer(app.fetch, port, host, (error) =>
        log({ level: "warn", msg: "client error", error: String(error) }),
      );
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
