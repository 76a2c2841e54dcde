import type { PushNotificationData } from "@idp/contracts";
import type { Hono } from "hono";
import { THIS_LOGIN_APP_ID } from "../db.ts";
import { ERROR_CODES, errorResponse } from "../error-body.ts";
import { acceptBody } from "../request-body.ts";
import type { RouteDeps } from "./deps.ts";
import { methodNotAllowed, noBody } from "./responses.ts";

// `[^/]*` so an empty id is a 404 for a missing login user (after auth and body), not an unknown route.
export const PUSH_PATH = "/marketing/push_notifications/login/users/:id{[^/]*}/publish";

/** The detailed "Send push notification to all user devices": 401, then 400, then 404/403 (R7). */
export function registerPushRoutes(v1: Hono, { store, sender, bodyTimeoutMs }: RouteDeps): void {
  v1.post(PUSH_PATH, async (c) => {
    const accepted = await acceptBody("pushToUserDevices", c.req.raw, { timeoutMs: bodyTimeoutMs });
    if (!accepted.ok) return accepted.response;
    const id = c.req.param("id");
    const loginApp = store.loginAppOf(id);
    if (loginApp === undefined) {
      return errorResponse(404, ERROR_CODES.recordNotFound, `no login user has the id "${id}"`);
    }
    if (loginApp !== THIS_LOGIN_APP_ID) {
      return errorResponse(
        403,
        ERROR_CODES.forbidden,
        `the login user "${id}" belongs to another login app`,
      );
    }
    const payload = accepted.wrapped as PushNotificationData;
    await sender.send(store.devicesOf(id).map((device) => ({ userId: id, device, payload })));
    return noBody(200);
  });
  v1.all(PUSH_PATH, () => methodNotAllowed(["POST"]));
}
