import { PROVIDER_STATE_PARAM, PROVIDER_STATES as STATE_NAMES } from "@idp/contracts";
import { Hono } from "hono";
import { z } from "zod";
import { OTHER_LOGIN_APP_ID, type Store, THIS_LOGIN_APP_ID } from "./db.ts";
import { ERROR_CODES, errorResponse } from "./error-body.ts";
import { readBodyText } from "./request-body.ts";
import { json, methodNotAllowed } from "./routes/responses.ts";

/** Where the provider answers Pact state changes (with `providerStates: true`). */
export const PROVIDER_STATES_PATH = "/_pact/provider-states";

interface StateHandler {
  readonly params: Readonly<Record<string, string>>;
  /** The state's one parameter: a login user id or a schema name (conformance.md §4). */
  setup(store: Store, value: string): void;
  teardown(store: Store, value: string): void;
}

/** The state names of conformance.md §4, exactly. */
export const PROVIDER_STATES: Readonly<Record<string, StateHandler>> = {
  [STATE_NAMES.loginUserExists]: {
    params: { id: "string" },
    setup: (store, id) => store.upsertLoginUser(id, THIS_LOGIN_APP_ID),
    teardown: (store, id) => store.deleteLoginUser(id),
  },
  [STATE_NAMES.noLoginUserExists]: {
    params: { id: "string" },
    setup: (store, id) => store.deleteLoginUser(id),
    teardown: () => {},
  },
  [STATE_NAMES.loginUserOfAnotherAppExists]: {
    params: { id: "string" },
    setup: (store, id) => store.upsertLoginUser(id, OTHER_LOGIN_APP_ID),
    teardown: (store, id) => store.deleteLoginUser(id),
  },
  [STATE_NAMES.noSchemaWithName]: {
    params: { name: "string" },
    setup: (store, name) => {
      store.deleteSchema(name);
    },
    teardown: () => {},
  },
};

// Pact's state-change body. Pact sends `action` (default setup); `params` carry the id, which the
// spec types as a string; a number is accepted too because consumers often write ids as numbers.
const StateChange = z.object({
  state: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
  action: z.enum(["setup", "teardown"]).optional(),
});

const invalid = (description: string) =>
  errorResponse(400, ERROR_CODES.invalidRequest, description);

/**
 * Pact's state-change endpoint. Not authenticated (the Pact verifier sends no credentials to it),
 * which is why it exists only when the provider is started with provider states on.
 */
export function providerStateRoutes(store: Store, bodyTimeoutMs = 0): Hono {
  const routes = new Hono();
  // Extension: lets a verifier check that every state in its pacts has a handler before it starts.
  routes.get(PROVIDER_STATES_PATH, () =>
    json(200, {
      states: Object.entries(PROVIDER_STATES).map(([name, h]) => ({ name, params: h.params })),
    }),
  );
  routes.post(PROVIDER_STATES_PATH, async (c) => {
    const read = await readBodyText(c.req.raw, { timeoutMs: bodyTimeoutMs });
    let body: unknown;
    try {
      if (!read.ok) throw new Error(read.reason);
      body = JSON.parse(read.text);
    } catch {
      return invalid('the state change is not JSON; expected {"state", "params", "action"}');
    }
    const parsed = StateChange.safeParse(body);
    if (!parsed.success) {
      return invalid(
        `the state change is not {"state": string, "params"?: object, "action"?: "setup" | "teardown"}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ")}`,
      );
    }
    const { state, params = {}, action = "setup" } = parsed.data;
    // Pact verifiers send the empty state for interactions without one; by convention it is a no-op.
    if (state === "") return json(200, {});
    const handler = Object.hasOwn(PROVIDER_STATES, state) ? PROVIDER_STATES[state] : undefined;
    if (handler === undefined) {
      const known = Object.keys(PROVIDER_STATES).map((n) => `"${n}"`);
      return errorResponse(
        400,
        ERROR_CODES.unknownProviderState,
        `unknown provider state "${state}"; this provider knows ${known.join(", ")}`,
      );
    }
    const key = PROVIDER_STATE_PARAM[state as keyof typeof PROVIDER_STATE_PARAM];
    const value = params[key];
    if (typeof value !== "string" && typeof value !== "number") {
      return invalid(`the provider state "${state}" needs params.${key} (a string)`);
    }
    handler[action](store, String(value));
    return json(200, { [key]: String(value) });
  });
  routes.all(PROVIDER_STATES_PATH, () => methodNotAllowed(["GET", "POST"]));
  return routes;
}
