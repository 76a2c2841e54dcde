// What the tests send, written from the spec's tables (not from the package's shapes), and a
// fetch wrapper that returns status, headers and the parsed body.
import type { OperationId } from "../src/index.ts";

// A password with a colon and characters that need escaping in JSON, XML and HTML.
export const CREDENTIALS = { username: "ann", password: 'pa:ss&<"wörd' } as const;
export const AUTH = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`, "utf8").toString("base64")}`;

export const PATHS: Record<OperationId, (id?: string) => string> = {
  createSchema: () => "/marketing/datastore/schemas",
  pushToUserDevices: (id = "user-1") =>
    `/marketing/push_notifications/login/users/${encodeURIComponent(id)}/publish`,
  updateClusteringRules: () => "/marketing/login/apps/clustering/rules",
};
export const METHODS: Record<OperationId, string> = {
  createSchema: "POST",
  pushToUserDevices: "POST",
  updateClusteringRules: "PUT",
};
export const OPERATIONS = Object.keys(PATHS) as OperationId[];

export const validCreateSchema = () => ({
  schema: {
    name: "customers",
    fields: [
      { name: "email", type: "string", unique: true },
      { name: "age", type: "integer" },
      { name: "seen", type: "date_time", unique: false },
    ],
    permissions: { write_protected: true, read_protected: false },
  },
});

export const validPush = () => ({
  data: {
    message: "Hello",
    title: "News",
    small_icon: "icon",
    vibrate: true,
    vibrate_duration: 300,
    auto_cancel: false,
    big_style: true,
    activity_class: "MainActivity",
    badge: 1,
    sound: "default",
  },
});

export const validRules = () => ({
  rules: {
    features: {
      music: {
        labels: [{ name: "rock", keywords: ["guitar", "drums"] }],
        classifier: {
          type: "likes",
          categories: ["Musician"],
          threshold: 0.5,
          excluded_words: ["the"],
        },
      },
      sport: {
        labels: [],
        classifier: { type: "likes", categories: [], threshold: 0 },
      },
    },
    parameters: { excluded_words: ["a"] },
  },
});

export const VALID: Record<OperationId, () => Record<string, unknown>> = {
  createSchema: validCreateSchema,
  pushToUserDevices: validPush,
  updateClusteringRules: validRules,
};

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body, or undefined when it is empty or not JSON. */
  readonly json: unknown;
  /** The body as received (text is it decoded as UTF-8). */
  readonly bytes?: Buffer;
}

export interface CallOptions {
  /** A value is sent as JSON; a string or Buffer as is. */
  readonly body?: unknown;
  /** `null`: no Authorization header. Default: the valid one. */
  readonly auth?: string | null;
  readonly id?: string;
  readonly contentType?: string | null;
  readonly method?: string;
}

export async function call(baseUrl: string, op: OperationId, o: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  const auth = o.auth === undefined ? AUTH : o.auth;
  if (auth !== null) headers.authorization = auth;
  const contentType = o.contentType === undefined ? "application/json" : o.contentType;
  if (contentType !== null) headers["content-type"] = contentType;
  const raw = o.body === undefined ? VALID[op]() : o.body;
  const payload = typeof raw === "string" || Buffer.isBuffer(raw) ? raw : JSON.stringify(raw);
  // fetch labels a string body text/plain; bytes go without a Content-Type.
  const body = contentType === null ? Buffer.from(payload) : payload;
  const res = await fetch(`${baseUrl}${PATHS[op](o.id)}`, {
    method: o.method ?? METHODS[op],
    headers,
    body: o.method === "GET" ? null : body,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString("utf8");
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json, bytes };
}

export async function setState(
  statesUrl: string,
  state: string,
  params: Record<string, unknown>,
  action: "setup" | "teardown" = "setup",
): Promise<Answer> {
  const res = await fetch(statesUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ state, params, action }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** R2, asserted directly: JSON content type, `error` and `error_description` strings, `errors` an array. */
export function expectErrorBody(
  a: Answer,
  items: "strings" | "strings-or-objects" = "strings",
): { error: string; error_description: string; errors: unknown[] } {
  if (!/^application\/json\b/.test(a.headers.get("content-type") ?? ""))
    throw new Error(`content-type ${a.headers.get("content-type")} for ${a.status}: ${a.text}`);
  const b = a.json as { error?: unknown; error_description?: unknown; errors?: unknown };
  if (
    typeof b?.error !== "string" ||
    typeof b.error_description !== "string" ||
    !Array.isArray(b.errors)
  )
    throw new Error(`not an error body: ${a.text}`);
  for (const e of b.errors) {
    const ok =
      typeof e === "string" ||
      (items === "strings-or-objects" &&
        typeof e === "object" &&
        e !== null &&
        typeof (e as { attribute?: unknown }).attribute === "string" &&
        typeof (e as { message?: unknown }).message === "string" &&
        typeof (e as { code?: unknown }).code === "string");
    if (!ok) throw new Error(`errors item ${JSON.stringify(e)} in ${a.text}`);
  }
  return b as { error: string; error_description: string; errors: unknown[] };
}

/** `[[[...]]]` `depth` levels deep (or `{"a":{"a":...}}`). */
export function nested(depth: number, kind: "array" | "object" = "array"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}
