import type { Hono } from "hono";
import { ERROR_CODES, errorResponse } from "../error-body.ts";
import { acceptBody } from "../request-body.ts";
import type { RouteDeps } from "./deps.ts";
import { jsonText, methodNotAllowed, noBody } from "./responses.ts";

export const CLUSTERING_RULES_PATH = "/marketing/login/apps/clustering/rules";

/**
 * PUT is the detailed (deprecated) "Update login app clustering rules". GET "Returns login app
 * clustering rules" is in the catalogue without a path: serving it here is an ASSUMPTION.
 */
export function registerClusteringRulesRoutes(v1: Hono, { store, bodyTimeoutMs }: RouteDeps): void {
  // RFC 9745: deprecated since 31 December 2024 (service-interface.md, Versioning 2).
  v1.use(CLUSTERING_RULES_PATH, async (c, next) => {
    await next();
    c.res.headers.set("deprecation", `@${Date.UTC(2024, 11, 31) / 1000}`);
  });
  v1.put(CLUSTERING_RULES_PATH, async (c) => {
    const accepted = await acceptBody("updateClusteringRules", c.req.raw, {
      timeoutMs: bodyTimeoutMs,
    });
    if (!accepted.ok) return accepted.response;
    store.putClusteringRules(accepted.wrapped);
    return noBody(200);
  });
  v1.get(CLUSTERING_RULES_PATH, () => {
    const rules = store.getClusteringRulesJson();
    return rules === undefined
      ? errorResponse(404, ERROR_CODES.recordNotFound, "no clustering rules have been set")
      : jsonText(200, `{"rules":${rules}}`);
  });
  v1.all(CLUSTERING_RULES_PATH, () => methodNotAllowed(["GET", "PUT"]));
}
