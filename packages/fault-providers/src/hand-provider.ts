// A small in-memory IDP provider written by hand from docs/spec/service-interface.md and
// conformance.md (rules R1-R8, §2 valid payloads, §3 which 4xx and the order of checks, §4 states),
// the way a provider team would: node:http only, no @idp/* code. Faults break one behaviour each.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createAnswers, type ErrorCoding, JSON_TYPE } from "./answers.ts";
import { basicHeader, parseBasic } from "./basic-auth.ts";
import type { OperationId, Reading, Shape } from "./body-shapes.ts";
import { type Fault, isFault } from "./faults.ts";
import { type BodyVerdict, judgeBody, type LeafVisitor, type ViolationKind } from "./judge-body.ts";
import { HUGE_BODY_BYTES, MIN_HUGE_BODY_BYTES } from "./lazy-body.ts";
import {
  applyStateChange,
  type ProviderData,
  STATE_HANDLERS,
  type StateHandlers,
  type UserApp,
} from "./provider-states.ts";
import { nestingDepth, readBody } from "./read-body.ts";
import { createRequestLog, type RequestLog } from "./request-log.ts";

export interface HandProviderOptions {
  /** The one user:password pair accepted (R1). */
  readonly credentials: { readonly username: string; readonly password: string };
  /** Faults to switch on (see {@link FAULTS}); none by default: a conforming provider. */
  readonly faults?: readonly Fault[];
  /** `default` (conformance.md) or `observed-service` (the service's public docs, issue 13). */
  readonly reading?: Reading;
  /** Refuse (422) a valid create schema whose name the provider already holds (conformance.md §1, last paragraph). */
  readonly uniqueNames?: boolean;
  /** Check the login user (404/403) before the body; §3 pins body first, no rule forbids this. */
  readonly userBeforeBody?: boolean;
  /** A missing tabulated field, unspecified by the default reading (§2): `reject` (default) or `accept`. */
  readonly missingField?: "reject" | "accept";
  /** State names answered 400, as by a provider without a handler for them (§4). */
  readonly missingStates?: readonly string[];
  /**
   * How the state handlers treat what other states made: `additive` (default), or starting every
   * setup from a clean slate, or removing every login user on every teardown (§4 allows both).
   */
  readonly stateHandlers?: StateHandlers;
  /**
   * The Content-Type of every JSON answer (default `application/json; charset=utf-8`): RFC 9110
   * compares the media type case-insensitively, so `Application/JSON;Charset=UTF-8` conforms.
   */
  readonly jsonContentType?: string;
  /** Body size of fault `big-body`; 512 MiB by default. */
  readonly bigBodyBytes?: number;
  /** How many recent requests {@link RunningProvider.requests} keeps (default 50). */
  readonly keepRequests?: number;
  /**
   * Whether the neighbours' GET answers wrap the body (`{"schema": ...}`, `{"rules": ...}`) or give
   * it bare; conformance.md §8 allows both. @defaultValue true
   */
  readonly wrapReads?: boolean;
  /**
   * Bounds the provider keeps that the spec does not state: past one, a valid body gets `status`
   * (422 a documented refusal, 500 a crash). At most one string length or item count per limit.
   */
  readonly limits?: readonly HandLimit[];
  /**
   * The provider team's own reading of §3: the status it answers per operation and violation kind
   * where it differs from the pinned one, e.g. `{ pushToUserDevices: { "wrong-type": 422 } }`.
   */
  readonly bodyStatuses?: Partial<Record<OperationId, Partial<Record<ViolationKind, number>>>>;
  /**
   * A status for a violation at one field, e.g. `{ "data.badge": 422 }` (the field as the error
   * names it): a provider whose validators disagree, answering two statuses for one kind.
   */
  readonly fieldStatuses?: Readonly<Record<string, number>>;
  /**
   * The team's reading of R7's conditions: the status of a push to an id no login user has
   * (`unknown`, 404 pinned) and to a login user of another login app (`otherLoginApp`, 403 pinned).
   */
  readonly loginUserStatuses?: { readonly unknown?: number; readonly otherLoginApp?: number };
  /**
   * Refuse invalid bodies with the right status and error body, but generic words that name no
   * field (`"The request is invalid"`): breaks no rule of §1, only R10 (conformance.md §10).
   */
  readonly genericMessages?: boolean;
  /** A place (e.g. `data.title`) where `null` is taken as a valid value: a wrong type accepted. */
  readonly acceptNullAt?: string;
  /**
   * Error bodies compressed with this coding and labelled so (conforming: without Accept-Encoding
   * a client takes any coding, conformance.md §9).
   */
  readonly errorCoding?: ErrorCoding;
  /** Told of every request once its body is read, before it is answered (benchmarks record them). */
  readonly onRequest?: (request: ReceivedRequest) => void;
  readonly host?: string;
  readonly port?: number;
}

/** A request as the provider received it: what a benchmark needs to send it again. */
export interface ReceivedRequest {
  readonly method: string;
  /** The path and query, as sent. */
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Buffer | "too-large";
}

/** A limit of {@link HandProviderOptions.limits}, at a place as `schema.name` or `rules.features`. */
export interface HandLimit {
  readonly at: string;
  /** The longest string, in `unit`. */
  readonly maxLength?: number;
  /**
   * What `maxLength` counts, the way providers in different languages do: `codePoints`
   * (`[...s].length`), `utf16` (JavaScript's and Java's `s.length`), `bytes` (UTF-8, Go's `len`).
   * @defaultValue "codePoints"
   */
  readonly unit?: "codePoints" | "utf16" | "bytes";
  /** The most array items or map keys. */
  readonly maxItems?: number;
  /** The smallest and the largest number. */
  readonly minimum?: number;
  readonly maximum?: number;
  readonly status: number;
}

export interface RunningProvider {
  /** `http://host:port/v1` */
  readonly baseUrl: string;
  /** `http://host:port/_pact/provider-states` */
  readonly statesUrl: string;
  readonly requests: RequestLog;
  /** Login users by id and (with `uniqueNames`) the schema names held; live views. */
  readonly data: {
    readonly users: ReadonlyMap<string, UserApp>;
    readonly schemaNames: ReadonlySet<string>;
    /** The schemas held (the latest 256 created), by name, as the neighbours serve them. */
    readonly schemas: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
    /** The clustering rules last stored (undefined before any update). */
    readonly rules: () => Readonly<Record<string, unknown>> | undefined;
  };
  close(): Promise<void>;
}

/** Where the state-change endpoint is served (Pact's usual path), beside `/v1`. */
export const STATES_PATH = "/_pact/provider-states";
const CREATE_PATH = "/v1/marketing/datastore/schemas";
const RULES_PATH = "/v1/marketing/login/apps/clustering/rules";
const PUSH_PREFIX = "/v1/marketing/push_notifications/login/users/";
/** The neighbours (conformance.md §8): GET and DELETE of one schema under this prefix, GET rules. */
const SCHEMA_PREFIX = `${CREATE_PATH}/`;
/** The schemas kept for the neighbours: the latest ones (memory stays flat however long a run is). */
const KEEP_SCHEMAS = 256;
const PUSH_SUFFIX = "/publish";
const DEEP = 600;
const INT32 = 2 ** 31;

type Route =
  | { readonly op: OperationId; readonly id?: string }
  | { readonly allow: string }
  | undefined;

function route(method: string | undefined, path: string): Route {
  let op: OperationId | undefined;
  let id: string | undefined;
  let allow = "POST";
  if (path === CREATE_PATH) op = "createSchema";
  else if (path === RULES_PATH) {
    op = "updateClusteringRules";
    allow = "PUT";
  } else if (path.startsWith(PUSH_PREFIX) && path.endsWith(PUSH_SUFFIX)) {
    const segment = path.slice(PUSH_PREFIX.length, -PUSH_SUFFIX.length);
    if (segment === "" || segment.includes("/")) return undefined;
    op = "pushToUserDevices";
    try {
      id = decodeURIComponent(segment);
    } catch {
      id = segment; // not valid percent-encoding: an id no login user has
    }
  }
  if (op === undefined) return undefined;
  if (method !== allow) return { allow };
  return id === undefined ? { op } : { op, id };
}

function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return true; // only a non-JSON type is refused
  const type = contentType.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** Options a JavaScript caller can get wrong, refused with a one-line TypeError naming the option. */
function checkOptions(o: HandProviderOptions): void {
  const { username, password } = o.credentials ?? {};
  if (typeof username !== "string" || typeof password !== "string")
    throw new TypeError("credentials: expected { username: string, password: string }");
  if (username.includes(":"))
    throw new TypeError("credentials.username: must not contain ':' (Basic is user:password)");
  for (const f of o.faults ?? [])
    if (!isFault(f)) throw new TypeError(`faults: unknown fault "${f}"`);
  if (o.reading !== undefined && o.reading !== "default" && o.reading !== "observed-service")
    throw new TypeError(
      `reading: expected "default" or "observed-service", got ${JSON.stringify(o.reading)}`,
    );
  if (
    o.stateHandlers !== undefined &&
    !(STATE_HANDLERS as readonly string[]).includes(o.stateHandlers)
  )
    throw new TypeError(
      `stateHandlers: expected "additive", "reset-on-setup" or "reset-on-teardown", got ${JSON.stringify(o.stateHandlers)}`,
    );
  if (o.missingField !== undefined && o.missingField !== "reject" && o.missingField !== "accept")
    throw new TypeError(
      `missingField: expected "reject" or "accept", got ${JSON.stringify(o.missingField)}`,
    );
  if (
    o.bigBodyBytes !== undefined &&
    !(Number.isSafeInteger(o.bigBodyBytes) && o.bigBodyBytes >= MIN_HUGE_BODY_BYTES)
  )
    throw new TypeError(
      `bigBodyBytes: expected an integer >= ${MIN_HUGE_BODY_BYTES}, got ${o.bigBodyBytes}`,
    );
}

/** Starts the hand-written provider on 127.0.0.1 (port 0 unless given). */
export async function startHandProvider(options: HandProviderOptions): Promise<RunningProvider> {
  checkOptions(options);
  const faults: ReadonlySet<Fault> = new Set(options.faults ?? []);
  const reading = options.reading ?? "default";
  const judgeOptions = {
    reading,
    missingField: options.missingField ?? "reject",
    ...(options.acceptNullAt === undefined ? {} : { acceptNullAt: options.acceptNullAt }),
  } as const;
  const limits = options.limits ?? [];
  const { username, password } = options.credentials;
  const expectedHeader = basicHeader(username, password);
  const data: ProviderData = { users: new Map(), schemaNames: new Set() };
  const missingStates = new Set(options.missingStates ?? []);
  const log = createRequestLog(options.keepRequests ?? 50);
  const jsonType = options.jsonContentType ?? JSON_TYPE;
  /** Each request's body while it is answered (fault latin1-error-bodies echoes it). */
  const bodies = new WeakMap<IncomingMessage, Buffer | "too-large">();
  const answers = createAnswers({
    reading,
    faults,
    bigBodyBytes: options.bigBodyBytes ?? HUGE_BODY_BYTES,
    jsonType,
    bodyOf: (req) => bodies.get(req),
    ...(options.errorCoding ? { errorCoding: options.errorCoding } : {}),
  });
  const { fail, succeed } = answers;
  const schemas = new Map<string, Record<string, unknown>>();
  let rules: Record<string, unknown> | undefined;
  const wrapReads = options.wrapReads ?? true;

  /** JSON 200 with a stored document, wrapped or bare as the option says. */
  function read(res: ServerResponse, key: string, document: unknown) {
    const text = JSON.stringify(wrapReads ? { [key]: document } : document);
    res.writeHead(200, {
      "content-type": jsonType,
      "content-length": Buffer.byteLength(text),
    });
    res.end(text);
  }

  /**
   * The neighbours (conformance.md §8): GET and DELETE of one schema, GET of the rules; 404 with
   * the error body for what is not held. True when the request was one of them (and answered).
   */
  function neighbour(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    let name: string | undefined;
    if (path.startsWith(SCHEMA_PREFIX) && !path.slice(SCHEMA_PREFIX.length).includes("/")) {
      try {
        name = decodeURIComponent(path.slice(SCHEMA_PREFIX.length));
      } catch {
        name = path.slice(SCHEMA_PREFIX.length);
      }
    } else if (path !== RULES_PATH || req.method !== "GET") return false;
    if (!authorized(req, res)) return true;
    if (name === undefined) {
      if (rules === undefined || faults.has("rules-get-404"))
        fail(req, res, 404, "Record not found", ["no clustering rules have been set"]);
      else read(res, "rules", rules);
      return true;
    }
    const held = schemas.get(name);
    if (req.method === "GET") {
      if (held === undefined) fail(req, res, 404, "Record not found", ["no schema has this name"]);
      else read(res, "schema", held);
    } else if (req.method === "DELETE") {
      if (held === undefined) fail(req, res, 404, "Record not found", ["no schema has this name"]);
      else {
        schemas.delete(name);
        data.schemaNames.delete(name);
        succeed(req, res, 200);
      }
    } else {
      res.setHeader("allow", "GET, DELETE");
      fail(req, res, 405, "Method not allowed", ["use GET or DELETE"]);
    }
    return true;
  }

  /** Faults that change how credentials are compared (no fast path: the real header may fail). */
  const looseCredentials = faults.has("split-credentials") || faults.has("trimmed-password");

  /** R1. Fast path: the exact header a client builds from the credentials. */
  function authorized(req: IncomingMessage, res: ServerResponse): boolean {
    const header = req.headers.authorization;
    if ((header === expectedHeader && !looseCredentials) || faults.has("auth-ignored")) return true;
    const parsed = parseBasic(header);
    if (parsed.kind === "bad-base64" && faults.has("bad-base64-crash")) {
      fail(req, res, 500, "could not decode the credentials", ["internal error"]);
      return false;
    }
    if (parsed.kind === "ok") {
      let { user, password: given } = parsed;
      // As written by a team that splits on every colon: the third part onwards is dropped.
      if (faults.has("split-credentials"))
        [user = "", given = ""] = `${parsed.user}:${parsed.password}`.split(":");
      if (faults.has("trimmed-password")) given = given.trim();
      const userOk = faults.has("username-case-insensitive")
        ? user.toLowerCase() === username.toLowerCase()
        : user === username;
      const passwordOk = faults.has("password-prefix")
        ? given.startsWith(password)
        : given === password;
      if (userOk && passwordOk) return true;
    }
    fail(req, res, 401, "The credentials are not valid", ["invalid username or password"]);
    return false;
  }

  function rejectBody(
    req: IncomingMessage,
    res: ServerResponse,
    op: OperationId,
    verdict: BodyVerdict & { ok: false },
  ) {
    if (op === "updateClusteringRules" && faults.has("invalid-accepted"))
      return succeed(req, res, 200);
    if (op === "pushToUserDevices" && faults.has("other-4xx"))
      return fail(req, res, 404, "Record not found", ["the body is malformed"]);
    const field = verdict.problems[0]?.attribute ?? "";
    let status: number =
      options.fieldStatuses?.[field] ??
      options.bodyStatuses?.[op]?.[verdict.kind] ??
      verdict.status;
    if (op === "createSchema" && faults.has("swap-400-422")) status = status === 400 ? 422 : 400;
    const description =
      status === 400 ? "The request body is malformed" : "The parameters are not valid";
    if (options.genericMessages)
      return fail(req, res, status, description, ["The request is invalid"]);
    fail(req, res, status, description, verdict.problems);
  }

  /** 404/403 for push (R7), 403 for both under the observed reading; false when answered. */
  function loginUserOk(req: IncomingMessage, res: ServerResponse, id: string): boolean {
    if (faults.has("no-404-403")) return true;
    const app = data.users.get(id);
    if (app === "this") return true;
    const own = options.loginUserStatuses;
    if (app === "other" || reading === "observed-service") {
      const status = (app === "other" ? own?.otherLoginApp : own?.unknown) ?? 403;
      fail(req, res, status, "The login user does not belong to this login app", ["forbidden"]);
    } else fail(req, res, own?.unknown ?? 404, "Record not found", ["no login user has this id"]);
    return false;
  }

  /** Faults that crash on a valid body: what the body holds, seen once while judging. */
  const crashWatch =
    faults.has("crash-on-long-string") ||
    faults.has("crash-on-astral") ||
    faults.has("crash-on-unknown-key") ||
    faults.has("crash-on-large-integer");
  let crashReason: string | undefined;
  let limitHit: HandLimit | undefined;
  const overLimit = (value: unknown, pattern: string): HandLimit | undefined =>
    limits.find((l) => {
      if (l.at !== pattern) return false;
      if (typeof value === "string" && l.maxLength !== undefined) {
        if (l.unit === "utf16") return value.length > l.maxLength;
        if (l.unit === "bytes") return Buffer.byteLength(value, "utf8") > l.maxLength;
        return [...value].length > l.maxLength;
      }
      if (typeof value === "number")
        return (
          (l.maximum !== undefined && value > l.maximum) ||
          (l.minimum !== undefined && value < l.minimum)
        );
      if (l.maxItems === undefined || value === null || typeof value !== "object") return false;
      return (Array.isArray(value) ? value.length : Object.keys(value).length) > l.maxItems;
    });
  const visit: LeafVisitor | undefined =
    crashWatch || limits.length > 0
      ? (value: unknown, shape: Shape, _path: () => string, pattern: string) => {
          if (limits.length > 0 && limitHit === undefined) limitHit = overLimit(value, pattern);
          if (crashWatch) watchCrash(value, shape);
        }
      : undefined;
  const watchCrash = (value: unknown, shape: Shape) => {
    if (crashReason !== undefined) return;
    if (typeof value === "string") {
      if (faults.has("crash-on-long-string") && value.length >= 65_536)
        crashReason = "string too long for its column";
      else if (faults.has("crash-on-astral") && /[\u{10000}-\u{10ffff}]/u.test(value))
        crashReason = "incorrect string value for a utf8mb3 column";
    } else if (typeof value === "number" && shape.t === "integer") {
      if (faults.has("crash-on-large-integer") && (value >= INT32 || value < -INT32))
        crashReason = "integer out of range for an int column";
    } else if (shape.t === "object" && faults.has("crash-on-unknown-key")) {
      const known = shape.fields;
      if (Object.keys(value as object).some((k) => !Object.hasOwn(known, k)))
        crashReason = "unknown attribute";
    }
  };

  function operation(
    req: IncomingMessage,
    res: ServerResponse,
    op: OperationId,
    id: string | undefined,
    raw: Buffer | "too-large",
  ) {
    let verdict: BodyVerdict | undefined;
    crashReason = undefined;
    limitHit = undefined;
    if (faults.has("body-before-credentials")) {
      verdict = judgeBody(op, raw, judgeOptions, visit);
      if (!verdict.ok) return rejectBody(req, res, op, verdict);
    }
    if (!authorized(req, res)) return;
    if (reading === "observed-service" && !isJsonMediaType(req.headers["content-type"]))
      return fail(req, res, 406, "The request must be application/json", [
        "Content-Type must be application/json",
      ]);
    if (op === "pushToUserDevices" && options.userBeforeBody && !loginUserOk(req, res, id ?? ""))
      return;
    if (
      faults.has("crash-on-deep-nesting") &&
      raw !== "too-large" &&
      nestingDepth(raw, DEEP) >= DEEP
    )
      return fail(req, res, 500, "stack level too deep", ["internal error"]);
    verdict ??= judgeBody(op, raw, judgeOptions, visit);
    if (!verdict.ok) return rejectBody(req, res, op, verdict);
    const body = verdict.body;
    if (faults.has("crash-on-unknown-key") && Object.keys(body).length > 1)
      crashReason = "unknown attribute";
    if (crashReason !== undefined) return fail(req, res, 500, crashReason, ["internal error"]);
    // Set by the visitor while judging (TypeScript cannot see that assignment here).
    const hit = limitHit as HandLimit | undefined;
    if (hit)
      return hit.status >= 500
        ? fail(req, res, hit.status, `too many or too long: ${hit.at}`, ["internal error"])
        : fail(req, res, hit.status, "The parameters are not valid", [`${hit.at} is too long`]);

    switch (op) {
      case "createSchema": {
        const schema = body.schema as { name?: unknown; fields?: unknown };
        if (faults.has("crash-on-empty-name") && schema.name === "")
          return fail(req, res, 500, "undefined method for an empty name", ["internal error"]);
        if (
          faults.has("reject-empty-fields") &&
          Array.isArray(schema.fields) &&
          schema.fields.length === 0
        )
          return fail(req, res, 422, "The parameters are not valid", [
            {
              kind: "value-not-in-use",
              attribute: "schema.fields",
              message: "can't be empty",
              code: "blank",
            },
          ]);
        if (options.uniqueNames && typeof schema.name === "string") {
          if (data.schemaNames.has(schema.name))
            return fail(
              req,
              res,
              422,
              "A schema with this name exists",
              [
                {
                  kind: "value-not-in-use",
                  attribute: "schema.name",
                  message: "has already been taken",
                  code: "taken",
                },
              ],
              reading === "observed-service" ? "conflict" : undefined,
            );
          data.schemaNames.add(schema.name);
        }
        if (faults.has("wrong-status")) return succeed(req, res, 202);
        if (faults.has("body-on-success"))
          return answers.succeedWithBody(req, res, 201, { id: "schema-1" });
        if (typeof schema.name === "string" && !faults.has("lost-create")) {
          const kept =
            faults.has("first-field-only") && Array.isArray(schema.fields)
              ? { ...schema, fields: schema.fields.slice(0, 1) }
              : schema;
          schemas.delete(schema.name);
          schemas.set(schema.name, kept);
          if (schemas.size > KEEP_SCHEMAS) schemas.delete(schemas.keys().next().value as string);
        }
        return succeed(req, res, 201);
      }
      case "pushToUserDevices": {
        const data_ = body.data as { title?: unknown };
        if (faults.has("crash-on-valid") && data_.title === "")
          return fail(req, res, 500, "title can't be empty", ["internal error"]);
        if (!options.userBeforeBody && !loginUserOk(req, res, id ?? "")) return;
        return succeed(req, res, 200);
      }
      case "updateClusteringRules":
        rules = faults.has("rounded-thresholds")
          ? (JSON.parse(JSON.stringify(body.rules), (key, v) =>
              key === "threshold" && typeof v === "number" ? Math.round(v * 10) / 10 : v,
            ) as Record<string, unknown>)
          : (body.rules as Record<string, unknown>);
        return succeed(req, res, 200);
    }
  }

  function dispatch(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    raw: Buffer | "too-large",
  ) {
    if (path === STATES_PATH) {
      if (req.method !== "POST") {
        res.setHeader("allow", "POST");
        return fail(req, res, 405, "The state-change URL takes POST", ["method not allowed"]);
      }
      const outcome = applyStateChange(
        raw,
        data,
        missingStates,
        faults.has("states-ignored"),
        options.stateHandlers,
      );
      if (!outcome.ok) return fail(req, res, 400, outcome.message, [outcome.message]);
      res.writeHead(200, { "content-type": "application/json", "content-length": 2 });
      res.end("{}");
      return;
    }
    if (neighbour(req, res, path)) return;
    const r = route(req.method, path);
    if (r === undefined)
      return fail(req, res, 404, "No such operation", [`no operation at ${req.method} ${path}`]);
    if ("allow" in r) {
      res.setHeader("allow", r.allow);
      return fail(req, res, 405, "Method not allowed", [`use ${r.allow}`]);
    }
    operation(req, res, r.op, r.id, raw);
  }

  const server: Server = createServer((req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    readBody(req, (raw, bytes) => {
      options.onRequest?.({ method: req.method ?? "GET", url, headers: req.headers, body: raw });
      if (faults.has("latin1-error-bodies")) bodies.set(req, raw);
      try {
        dispatch(req, res, path, raw);
      } catch (error) {
        // A bug in this oracle must be visible, not a silent pass: 500 names it.
        // Written here, not by fail(): fail() itself may be what threw.
        if (res.headersSent) res.destroy();
        else {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              error: "server_error",
              error_description: `hand provider bug: ${String(error)}`,
              errors: [],
            }),
          );
        }
      }
      log.record(req, res, raw, bytes);
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    statesUrl: `${origin}${STATES_PATH}`,
    requests: log.view,
    data: { ...data, schemas, rules: () => rules },
    close: () => closeServer(server),
  };
}

/** Closes a server and every connection it holds (keep-alive ones included). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
