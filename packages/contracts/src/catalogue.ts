import { type DetailedOperationId, detailedOperations, type HttpMethod } from "./operations.ts";
import { NOT_SHOWN, type NotShown } from "./primitives.ts";

/** The twelve operation areas, named as the spec lists them. */
export const AREAS = [
  "OAuth",
  "User management",
  "Login and apps management",
  "Automation engine",
  "Push notifications",
  "Group management",
  "Wi-Fi",
  "RBAC management",
  "Datastore",
  "Multi-factor authentication",
  "OpenID Connect",
  "Deprecated areas",
] as const;
/** One of the 12 areas of the spec's endpoint list. */
export type AreaName = (typeof AREAS)[number];

/** One operation of the spec's endpoint list: its area, name, and method and path where the spec shows them. */
export interface CatalogueEntry {
  /** Stable id: kebab-case of area and name. */
  readonly id: string;
  readonly area: AreaName;
  readonly name: string;
  /** `operation-group`: the spec names a group whose individual operations are not shown. */
  readonly kind: "operation" | "operation-group";
  readonly method: HttpMethod | NotShown;
  /** Relative to the base address, `{param}` style; "not shown" unless the spec gives it. */
  readonly path: string | NotShown;
  readonly deprecated: false | { readonly since: string | NotShown };
  /** Set for the three operations the spec details in full. */
  readonly detailed: DetailedOperationId | null;
  /** The spec's own words naming this entry, verbatim (proven against the text by a test). */
  readonly mentions: readonly string[];
  /** The group label under which "Operation names in the other groups" lists it, verbatim. */
  readonly listedUnder?: string;
}

interface EntrySpec {
  name: string;
  kind?: "operation" | "operation-group";
  method?: HttpMethod;
  path?: string;
  deprecated?: { since: string | NotShown };
  detailed?: DetailedOperationId;
  mentions?: string[];
  listedUnder?: string;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function area(name: AreaName, specs: EntrySpec[]): CatalogueEntry[] {
  return specs.map((s) => {
    const detailed = s.detailed ? detailedOperations[s.detailed] : undefined;
    return {
      id: `${slug(name)}/${slug(s.name)}`,
      area: name,
      name: s.name,
      kind: s.kind ?? "operation",
      method: detailed?.method ?? s.method ?? NOT_SHOWN,
      path: detailed?.path ?? s.path ?? NOT_SHOWN,
      deprecated: s.deprecated ?? false,
      detailed: s.detailed ?? null,
      mentions: s.mentions ?? [s.name],
      ...(s.listedUnder ? { listedUnder: s.listedUnder } : {}),
    };
  });
}

const group = (name: string, mentions?: string[]): EntrySpec => ({
  name,
  kind: "operation-group",
  ...(mentions ? { mentions } : {}),
});
const DEPRECATED_UNDATED = { since: NOT_SHOWN };
const DEPRECATED_CLUSTERING = { since: "2024-12-31" };

/** Every operation and operation group the spec names, with method and path where it shows them. */
export const catalogue: readonly CatalogueEntry[] = [
  ...area("OAuth", [
    { name: "token generation", mentions: ["token generation"] },
    { name: "token revocation", mentions: ["revocation"] },
    { name: "current user information", mentions: ["current user information"] },
    { name: "current user creation", mentions: ["creation"] },
    { name: "current user update", mentions: ["update"] },
    { name: "current user unlock", mentions: ["unlock"] },
    { name: "current user data", mentions: ["data"] },
    { name: "device registration" },
    { name: "relation of a device to the current user" },
  ]),
  ...area("User management", [
    { name: "users: search", mentions: ["users", "search"] },
    { name: "users: find", mentions: ["find"] },
    { name: "users: read", mentions: ["read"] },
    { name: "users: update", mentions: ["update"] },
    { name: "users: delete", mentions: ["delete"] },
    { name: "users: profile", mentions: ["profile"] },
    { name: "users: new user token", mentions: ["new user token"] },
    { name: "users: force update", mentions: ["force update"] },
    { name: "users: move user data", mentions: ["move user data"] },
    {
      name: "current-user password reset by e-mail",
      path: "/marketing/login/users/reset_password/email",
      mentions: ["password reset", "current-user password reset by e-mail"],
    },
    { name: "password reset, token", path: "/marketing/login/users/reset_password/token" },
    { name: "password reset", path: "/marketing/login/users/reset_password" },
    {
      name: "e-mail confirmation, e-mail",
      path: "/marketing/login/users/email_confirmation/email",
      mentions: ["e-mail confirmation", "e-mail confirmation, e-mail"],
    },
    { name: "e-mail confirmation, token", path: "/marketing/login/users/email_confirmation/token" },
    {
      name: "user status: activate",
      path: "/marketing/login/users/{user_id}/activate",
      mentions: ["user status", "activate", "user status: activate"],
    },
    {
      name: "user status: deactivate",
      path: "/marketing/login/users/{user_id}/deactivate",
      mentions: ["deactivate", "user status: deactivate"],
    },
    {
      name: "user status: unlock",
      path: "/marketing/login/users/{user_id}/unlock",
      mentions: ["unlock", "user status: unlock"],
    },
    group("user credentials"),
    group("user custom data"),
    group("user hardware addresses"),
    group("user groups"),
    group("user roles"),
    group("user reviewable access requests"),
    group("user authorized login apps"),
  ]),
  ...area("Login and apps management", [
    { name: "token validation with login information" },
    group("sign ins"),
    { name: "connections: close", mentions: ["connections", "close"] },
    { name: "connections: keep alive", mentions: ["keep alive"] },
    { name: "connections: read", mentions: ["read"] },
    { name: "login apps: search", mentions: ["login apps", "search"] },
    { name: "login apps: create", mentions: ["create"] },
    { name: "login apps: read", mentions: ["read"] },
    { name: "login apps: update", mentions: ["update"] },
    { name: "login apps: delete", mentions: ["delete"] },
    group("social apps of a login app"),
  ]),
  ...area("Automation engine", [{ name: "trigger an event for a login app user" }]),
  ...area("Push notifications", [
    { name: "link a device to a login app user" },
    {
      name: "Send push notification to device",
      method: "POST",
      mentions: ["send a push notification to one device", "Send push notification to device"],
    },
    {
      name: "Send push notification to all Login App devices",
      method: "POST",
      mentions: ["to all login app devices", "Send push notification to all Login App devices"],
    },
    {
      name: "Send push notification to all user devices",
      detailed: "pushToUserDevices",
      mentions: ["to all devices of one user", "Send push notification to all user devices"],
    },
  ]),
  ...area("Group management", [
    group("groups"),
    group("group users"),
    group("roles"),
    group("parents"),
    group("children"),
    group("managers"),
    group("managed groups"),
  ]),
  ...area("Wi-Fi", [
    { name: "venue status monitoring" },
    { name: "Wi-Fi sign ins" },
    { name: "batch creation of coupons" },
  ]),
  ...area("RBAC management", [
    group("roles"),
    group("role users"),
    group("role groups"),
    group("access requests", ["access requests with comments"]),
    group("access request comments", ["access requests with comments"]),
    group("access request reviews", ["reviews"]),
    group("access request events", ["events"]),
    group("access request reviewers", ["reviewers"]),
  ]),
  ...area("Datastore", [
    { name: "Get all schemas", method: "GET", mentions: ["schemas", "Get all schemas"] },
    { name: "Create a new schema", detailed: "createSchema" },
    { name: "Get a specific schema", method: "GET" },
    { name: "Update a schema", method: "PUT" },
    { name: "Remove a schema", method: "DELETE" },
    ...[
      "get all objects from a schema",
      "create",
      "search",
      "get one",
      "update",
      "remove",
      "remove all objects of a user",
    ].map((op) => ({
      name: `objects: ${op}`,
      mentions: ["objects", op],
      listedUnder: "object operations of the datastore",
    })),
  ]),
  ...area("Multi-factor authentication", [
    ...(
      [
        ["MFA users", "users of a tenant", ["list or find", "create", "delete"]],
        [
          "MFA session",
          "sessions",
          ["authorization request", "token request", "finish the authorize flow"],
        ],
        ["MFA validation", "validations", ["check user validations"]],
        ["MFA factors", "factors", ["list all"]],
        [
          "MFA authenticators",
          "authenticators",
          ["associate to user", "generate challenge", "validate", "list", "delete"],
        ],
        ["MFA login", "login challenges", ["generate challenge", "validate authenticator"]],
      ] as const
    ).flatMap(([label, areaWords, ops]) =>
      ops.map((op) => ({
        name: `${label}: ${op}`,
        mentions: [areaWords, op],
        listedUnder: label,
      })),
    ),
  ]),
  ...area("OpenID Connect", [
    { name: "user info (GET)", method: "GET", mentions: ["user info", "GET"] },
    { name: "user info (POST)", method: "POST", mentions: ["user info", "POST"] },
    { name: "logout (GET)", method: "GET", mentions: ["logout", "GET"] },
    { name: "logout (POST)", method: "POST", mentions: ["logout", "POST"] },
    { name: "token revocation" },
  ]),
  ...area("Deprecated areas", [
    {
      ...group("social-network integration group", ["a social-network integration group"]),
      deprecated: DEPRECATED_UNDATED,
    },
    { ...group("client-record group", ["a client-record group"]), deprecated: DEPRECATED_UNDATED },
    {
      // The spec writes this path without the /marketing prefix the tabulated paths carry; it is
      // kept exactly as written, relative to the base address.
      name: "user clustering features (results per user)",
      method: "GET",
      path: "/login/users/{user_id}/clustering/features",
      deprecated: DEPRECATED_UNDATED,
      mentions: [
        "a user clustering-features group in user management",
        "login/users/:user_id/clustering/features",
      ],
    },
    {
      name: "Returns login app clustering rules (deprecated)",
      method: "GET",
      deprecated: DEPRECATED_CLUSTERING,
      mentions: ["login app clustering rules", "Returns login app clustering rules (deprecated)"],
    },
    {
      name: "Updates login app clustering rules (deprecated)",
      detailed: "updateClusteringRules",
      deprecated: DEPRECATED_CLUSTERING,
      mentions: ["login app clustering rules", "Updates login app clustering rules (deprecated)"],
    },
  ]),
];

/** Entries whose method and path are both shown (these are exported to OpenAPI). */
export function entriesWithMethodAndPath(): CatalogueEntry[] {
  return catalogue.filter((e) => e.method !== NOT_SHOWN && e.path !== NOT_SHOWN);
}
