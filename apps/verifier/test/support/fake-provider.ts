// Small IDP providers written for the verifier's own tests: a conforming one (strict or lenient where
// the spec is silent) with switchable faults, each fault breaking exactly one rule of conformance.md.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AUTHENTICATION_FAILED,
  classifyRequestBody,
  type DetailedOperationId,
  defaultProfile,
  strictProfile,
} from "@idp/contracts";

export type Fault =
  | "wrong-status" // create schema answers 202 instead of 201 (R3, R4)
  | "broken-error-body" // 422 with text/plain and no `errors` (R2)
  | "auth-ignored" // wrong credentials accepted (R1)
  | "auth-wrong-error" // 401 with error "unauthorized" (R1)
  | "invalid-accepted" // invalid clustering rules answered 200 (R5)
  | "other-4xx" // a malformed push answers 404: documented, but not the pinned 400 (a warning)
  | "crash-on-valid" // a valid push notification with an empty title crashes: 500 (R4, R6)
  | "no-404-403" // push to an unknown user or another app's user answers 200 (R7)
  | "body-on-success" // 201 with a JSON body (R8)
  | "bad-base64-crash"; // an Authorization that is not base64 answers 500 (R1, R6)

export interface FakeProviderOptions {
  readonly username: string;
  readonly password: string;
  /** strict: rejects what only the strict profile calls invalid; lenient: accepts it. */
  readonly mode?: "strict" | "lenient";
  readonly faults?: readonly Fault[];
  /** Checks the login user before the body (not the pinned order of §3, but no rule forbids it). */
  readonly userBeforeBody?: boolean;
  /** Serve the state-change endpoint. */
  readonly providerStates?: boolean;
  /** States whose handler is missing (answered 400). */
  readonly missingStates?: readonly string[];
}

export interface RunningFake {
  readonly baseUrl: string;
  readonly statesUrl: string;
  readonly requests: { method: string; url: string; authorization?: string }[];
  close(): Promise<void>;
}

const ROUTES: { method: string; pattern: RegExp; op: DetailedOperationId }[] = [
  { method: "POST", pattern: /^\/v1\/marketing\/datastore\/schemas$/, op: "createSchema" },
  {
    method: "POST",
    pattern: /^\/v1\/marketing\/push_notifications\/login\/users\/([^/]+)\/publish$/,
    op: "pushToUserDevices",
  },
  {
    method: "PUT",
    pattern: /^\/v1\/marketing\/login\/apps\/clustering\/rules$/,
    op: "updateClusteringRules",
  },
];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const sendError = (res: ServerResponse, status: number, error: string, description: string) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify({ error, error_description: description, errors: [description] }));
};

/** Strict Basic parsing: scheme Basic, canonical base64, a colon, both halves equal. */
function authorized(
  header: string | undefined,
  o: FakeProviderOptions,
  faults: Set<Fault>,
): boolean | "crash" {
  if (faults.has("auth-ignored")) return true;
  if (!header) return false;
  const m = /^Basic ([A-Za-z0-9+/]*={0,2})$/.exec(header);
  if (!m?.[1])
    return faults.has("bad-base64-crash") && header.startsWith("Basic ") ? "crash" : false;
  const decoded = Buffer.from(m[1], "base64");
  if (decoded.toString("base64") !== m[1]) return false;
  const text = decoded.toString("utf8");
  const colon = text.indexOf(":");
  if (colon < 0) return false;
  return text.slice(0, colon) === o.username && text.slice(colon + 1) === o.password;
}

export async function startFakeProvider(options: FakeProviderOptions): Promise<RunningFake> {
  const faults = new Set(options.faults ?? []);
  const profile = options.mode === "strict" ? strictProfile : defaultProfile;
  const users = new Map<string, "this" | "other">();
  const requests: RunningFake["requests"] = [];
  const missing = new Set(options.missingStates ?? []);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    requests.push({
      method: req.method ?? "",
      url,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    const raw = await readBody(req);
    if (url === "/_pact/provider-states" && req.method === "POST" && options.providerStates) {
      const { state, params, action } = JSON.parse(raw) as {
        state: string;
        params?: { id?: string };
        action: string;
      };
      const id = params?.id ?? "";
      if (
        missing.has(state) ||
        ![
          "a login user exists",
          "no login user exists",
          "a login user of another login app exists",
        ].includes(state)
      )
        return sendError(res, 400, "unknown_state", `unknown provider state "${state}"`);
      if (action === "setup") {
        if (state === "a login user exists") users.set(id, "this");
        else if (state === "a login user of another login app exists") users.set(id, "other");
        else users.delete(id);
      } else users.delete(id);
      res.writeHead(200, { "content-type": "application/json" });
      return res.end("{}");
    }
    const route = ROUTES.find(
      (r) => r.method === req.method && r.pattern.test(url.split("?")[0] ?? ""),
    );
    if (!route) return sendError(res, 404, "not_found", "no such operation");
    const auth = authorized(req.headers.authorization, options, faults);
    if (auth === "crash")
      return sendError(res, 500, "server_error", "could not decode credentials");
    if (!auth)
      return faults.has("auth-wrong-error")
        ? sendError(res, 401, "unauthorized", "bad credentials")
        : sendError(res, 401, AUTHENTICATION_FAILED, "The credentials are not valid");
    if (route.op === "pushToUserDevices" && options.userBeforeBody) {
      const id = decodeURIComponent(route.pattern.exec(url)?.[1] ?? "");
      if (!users.has(id)) return sendError(res, 404, "record_not_found", "Record not found");
    }
    const c = classifyRequestBody(route.op, raw, profile);
    const invalid =
      c.outcome === "invalid" || (options.mode === "strict" && c.outcome === "unspecified");
    if (invalid) {
      if (route.op === "updateClusteringRules" && faults.has("invalid-accepted")) {
        res.writeHead(200);
        return res.end();
      }
      if (route.op === "pushToUserDevices" && faults.has("other-4xx"))
        return sendError(res, 404, "record_not_found", "no such user");
      if (faults.has("broken-error-body") && c.status === 422) {
        res.writeHead(422, { "content-type": "text/plain" });
        return res.end("parameter error");
      }
      return sendError(
        res,
        c.status,
        c.status === 400 ? "bad_request" : "parameter_error",
        "the body is malformed",
      );
    }
    if (route.op === "pushToUserDevices") {
      const body = JSON.parse(raw) as { data: { title: string } };
      if (faults.has("crash-on-valid") && body.data.title === "")
        return sendError(res, 500, "server_error", "title is empty");
      const id = decodeURIComponent(route.pattern.exec(url)?.[1] ?? "");
      const owner = users.get(id);
      if (!faults.has("no-404-403")) {
        if (owner === undefined) return sendError(res, 404, "record_not_found", "Record not found");
        if (owner === "other")
          return sendError(res, 403, "forbidden", "The user belongs to another login app");
      }
      res.writeHead(200);
      return res.end();
    }
    if (route.op === "createSchema") {
      if (faults.has("wrong-status")) {
        res.writeHead(202);
        return res.end();
      }
      if (faults.has("body-on-success")) {
        res.writeHead(201, { "content-type": "application/json" });
        return res.end('{"id":"s1"}');
      }
      res.writeHead(201);
      return res.end();
    }
    res.writeHead(200);
    res.end();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendError(res, 500, "server_error", "unexpected");
      else res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    statesUrl: `http://127.0.0.1:${port}/_pact/provider-states`,
    requests,
    close: () => closeServer(server),
  };
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}
