// Pact's state-change protocol, as conformance.md §4 fixes it: POST {state, params, action}.

/** The state names of conformance.md §4, exactly. */
export const STATE_NAMES = [
  "a login user exists",
  "no login user exists",
  "a login user of another login app exists",
  "no schema with this name exists",
] as const;

export type StateName = (typeof STATE_NAMES)[number];

/** Which login app a login user belongs to. */
export type UserApp = "this" | "other";

/** What the provider holds: login users by id, and schema names (kept only with `uniqueNames`). */
export interface ProviderData {
  readonly users: Map<string, UserApp>;
  readonly schemaNames: Set<string>;
}

export type StateOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * How the state handlers treat what other states made (conformance.md §4 allows all three):
 * `additive` changes only its own id; `reset-on-setup` starts every setup from a clean slate
 * (removes every login user, then makes the one asked for, as Pact's docs write handlers);
 * `reset-on-teardown` removes every login user on every teardown.
 */
export const STATE_HANDLERS = ["additive", "reset-on-setup", "reset-on-teardown"] as const;
export type StateHandlers = (typeof STATE_HANDLERS)[number];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Applies one state change. `missing` names states this provider has no handler for (answered like
 * an unknown state); `ignore` validates the request but changes nothing (fault states-ignored).
 */
export function applyStateChange(
  raw: Buffer | "too-large",
  data: ProviderData,
  missing: ReadonlySet<string>,
  ignore: boolean,
  handlers: StateHandlers = "additive",
): StateOutcome {
  const fail = (message: string): StateOutcome => ({ ok: false, message });
  if (raw === "too-large") return fail("the state-change body is too large");
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return fail("the state-change body is not JSON");
  }
  if (!isObject(body)) return fail("the state-change body is not a JSON object");
  const { state, params = {}, action = "setup" } = body;
  if (typeof state !== "string") return fail("state must be a string");
  if (action !== "setup" && action !== "teardown")
    return fail(`action must be "setup" or "teardown", got ${JSON.stringify(action)}`);
  if (!isObject(params)) return fail("params must be an object");
  // Pact's verifiers announce an interaction without a state with the empty state: a no-op.
  if (state === "") return { ok: true };
  if (missing.has(state) || !(STATE_NAMES as readonly string[]).includes(state))
    return fail(`no handler for provider state ${JSON.stringify(state)}`);

  const key = state === "no schema with this name exists" ? "name" : "id";
  const value = params[key];
  if (typeof value !== "string")
    return fail(`params.${key} must be a string for state ${JSON.stringify(state)}`);
  if (ignore) return { ok: true };

  if (
    (handlers === "reset-on-setup" && action === "setup") ||
    (handlers === "reset-on-teardown" && action === "teardown")
  )
    data.users.clear();
  switch (state as StateName) {
    case "a login user exists":
      if (action === "setup") data.users.set(value, "this");
      else data.users.delete(value);
      break;
    case "a login user of another login app exists":
      if (action === "setup") data.users.set(value, "other");
      else data.users.delete(value);
      break;
    case "no login user exists":
      // Teardown restores nothing: the state only promises absence.
      if (action === "setup") data.users.delete(value);
      break;
    case "no schema with this name exists":
      if (action === "setup") data.schemaNames.delete(value);
      break;
  }
  return { ok: true };
}
