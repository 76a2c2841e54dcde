import { defaultProfile, detailedOperations } from "@idp/contracts";
import { Hono } from "hono";
import { type Credentials, createCredentialCheck } from "./auth.ts";
import type { Store } from "./db.ts";
import { ERROR_CODES, errorResponse } from "./error-body.ts";
import type { LogSink } from "./log.ts";
import type { PushSender } from "./outbox-sender.ts";
import { providerStateRoutes } from "./provider-states.ts";
import { CLUSTERING_RULES_PATH, registerClusteringRulesRoutes } from "./routes/clustering-rules.ts";
import { registerPushRoutes } from "./routes/push.ts";
import { registerSchemaRoutes } from "./routes/schemas.ts";

export interface AppDeps {
  readonly store: Store;
  readonly sender: PushSender;
  readonly credentials: Credentials;
  readonly providerStates: boolean;
  readonly log: LogSink;
  /** A request body must arrive within this many ms once its headers have (0: no limit). */
  readonly bodyTimeoutMs: number;
}

/** The HTTP application: `/v1` (authenticated first, R1) and, when enabled, Pact's state change. */
export function createApp({
  store,
  sender,
  credentials,
  providerStates,
  log,
  bodyTimeoutMs,
}: AppDeps): Hono {
  const app = new Hono();
  const checkCredentials = createCredentialCheck(credentials);

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    // Path only: a query string could carry anything, and headers are never logged.
    log({
      level: c.res.status >= 500 ? "error" : "info",
      msg: "request",
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 100) / 100,
    });
  });

  if (providerStates) app.route("/", providerStateRoutes(store, bodyTimeoutMs));

  const v1 = new Hono();
  // Every /v1 request is authenticated before anything else, unknown paths included.
  v1.use("*", async (c, next) => {
    const result = checkCredentials(c.req.header("authorization") ?? null);
    if (!result.ok) {
      return errorResponse(401, ERROR_CODES.authenticationFailed, result.reason, [result.reason], {
        "www-authenticate": 'Basic realm="idp", charset="UTF-8"',
      });
    }
    await next();
  });
  const deps = { store, sender, bodyTimeoutMs };
  registerSchemaRoutes(v1, deps);
  registerPushRoutes(v1, deps);
  registerClusteringRulesRoutes(v1, deps);
  app.route("/v1", v1);

  app.notFound((c) =>
    errorResponse(
      404,
      ERROR_CODES.notFound,
      `no operation is served at ${c.req.method} ${c.req.path}`,
    ),
  );
  app.onError((error, c) => {
    log({
      level: "error",
      msg: "unhandled error",
      method: c.req.method,
      path: c.req.path,
      error:
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : String(error),
    });
    return errorResponse(500, ERROR_CODES.serverError, "the server failed to answer this request");
  });
  return app;
}

/**
 * The status for a body that cannot be read at all (malformed chunking, too slow), by request:
 * the pinned "not JSON" status of the operation it was sent to (422 for clustering rules), else 400.
 */
export function unreadableBodyStatus(method: string, target: string): 400 | 422 {
  let path: string;
  try {
    path = new URL(target, "http://localhost").pathname;
  } catch {
    return 400;
  }
  const rules = detailedOperations.updateClusteringRules;
  return method === rules.method && path === `/v1${CLUSTERING_RULES_PATH}`
    ? defaultProfile.statusMapping.updateClusteringRules["not-json"]
    : 400;
}
