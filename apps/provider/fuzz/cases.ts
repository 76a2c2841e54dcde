import {
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  operationPath,
} from "@idp/contracts";
import { EXTREME_NUMBERS, nestedText, UNUSUAL_UNITS } from "../test/stress-arbitraries.ts";
import type { Rng } from "./rng.ts";

/** Bytes to write, after a pause. */
export interface Step {
  readonly bytes: Buffer;
  readonly afterMs?: number;
}

/** One fuzz case: what to send on one connection and what must come back. */
export interface FuzzCase {
  readonly kind: string;
  readonly steps: readonly Step[];
  /** After the steps, write this every `everyMs` until the server answers and closes. */
  readonly drip?: { readonly bytes: Buffer; readonly everyMs: number };
  /** For each request sent, in order: is it a HEAD (its answer has no body). */
  readonly heads: readonly boolean[];
  /** The fewest final answers that must arrive (a pipeline stops at the first close). */
  readonly minAnswers: number;
  /** The client closes right after the steps: nothing to wait for. */
  readonly abort?: boolean;
  /** Statuses allowed for the first answer (e.g. the operation's documented ones). */
  readonly allowed?: readonly number[];
  /** The status the first answer must have, when the case knows it (R1, R4, R5). */
  readonly expected?: number;
  /** A 200 answer must be JSON that parses (a read of stored state). */
  readonly readsState?: boolean;
}

export interface CasePools {
  readonly valid: Readonly<Record<DetailedOperationId, readonly unknown[]>>;
  readonly invalid: Readonly<
    Record<DetailedOperationId, readonly { text: string; expectedStatus: number }[]>
  >;
}

export interface CaseContext {
  readonly authorization: string;
  readonly member: string;
  readonly otherAppUser: string;
  readonly pools: CasePools;
  readonly maxDepth: number;
}

const NEIGHBOUR_STATUSES = [200, 201, 204, 400, 401, 403, 404, 405, 422];
/** Below the operations (malformed HTTP, odd headers and targets): any answer but a 5xx. */
const ANY_CLIENT_ERROR = [200, 201, 204, 400, 401, 403, 404, 405, 408, 422, 431];
const SUCCESS_OR_CLIENT_ERROR = ANY_CLIENT_ERROR;
const BODY_LIMIT = 1024 * 1024;

const enc = (text: string): Buffer => Buffer.from(text, "utf8");
/** Every UTF-8 byte as %XX (a lone surrogate is U+FFFD in UTF-8). */
const percentEncoded = (text: string): string =>
  [...enc(text)].map((b) => `%${b.toString(16).padStart(2, "0").toUpperCase()}`).join("");
const latin = (text: string): Buffer => Buffer.from(text, "latin1");

/** An HTTP/1.1 request with a Content-Length body. */
function http(
  method: string,
  target: string,
  headers: readonly (readonly [string, string])[],
  body?: Buffer,
): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, ...headers.map(([n, v]) => `${n}: ${v}`)];
  if (body !== undefined) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([latin(`${lines.join("\r\n")}\r\n\r\n`), body ?? Buffer.alloc(0)]);
}

const pathOf = (id: DetailedOperationId, ctx: CaseContext, rng: Rng): string =>
  `/v1${operationPath(detailedOperations[id], { id: rng.chance(0.9) ? ctx.member : rng.chance(0.5) ? ctx.otherAppUser : `nobody-${rng.int(0, 99)}` })}`;

const baseHeaders = (ctx: CaseContext): [string, string][] => [
  ["Host", "idp.test"],
  ["Authorization", ctx.authorization],
  ["Content-Type", "application/json"],
];

/** A case sending one request and expecting one answer. */
const single = (kind: string, bytes: Buffer, extra: Partial<FuzzCase> = {}): FuzzCase => ({
  kind,
  steps: [{ bytes }],
  heads: [false],
  minAnswers: 1,
  ...extra,
});

// ---- stress values ----

interface Stress {
  readonly text: string;
  readonly depth: number;
  readonly outOfRange: boolean;
}

function unusualString(rng: Rng, maxLength: number): string {
  const units = Array.from({ length: rng.int(1, 4) }, () => rng.pick(UNUSUAL_UNITS)).join("");
  const length = rng.size(0, maxLength);
  return units.repeat(Math.ceil(length / units.length)).slice(0, length);
}

function stressValue(rng: Rng, budget: number): Stress {
  const kind = rng.pick(["deep", "long", "keys", "array", "number", "mixed"] as const);
  switch (kind) {
    case "deep": {
      const depth = rng.size(1, Math.min(20_000, Math.floor(budget / 6)));
      return {
        text: nestedText(depth, rng.next() >>> 1, rng.pick(["0", '""', "null", "-0", "1e308"])),
        depth,
        outOfRange: false,
      };
    }
    case "long":
      return {
        text: JSON.stringify(unusualString(rng, Math.min(100_000, budget / 8))),
        depth: 0,
        outOfRange: false,
      };
    case "keys": {
      const keys = rng.size(0, Math.min(20_000, Math.floor(budget / 40)));
      const prefix = unusualString(rng, 6);
      return {
        text: `{${Array.from({ length: keys }, (_, i) => `${JSON.stringify(`${prefix}${i}`)}:${i}`).join(",")}}`,
        depth: 1,
        outOfRange: false,
      };
    }
    case "array": {
      const item = rng.pick(["0", "null", '"x"', "[]", "{}", "1e308", "-0"]);
      const items = rng.size(0, Math.min(200_000, Math.floor(budget / (item.length + 1))));
      return {
        text: `[${Array(items).fill(item).join(",")}]`,
        depth: items > 0 && (item === "[]" || item === "{}") ? 2 : 1,
        outOfRange: false,
      };
    }
    case "number": {
      const [text, outOfRange] = rng.pick(EXTREME_NUMBERS);
      return { text, depth: 0, outOfRange };
    }
    case "mixed": {
      const parts = Array.from({ length: rng.int(1, 4) }, () => stressValue(rng, budget / 4));
      return {
        text: `[${parts.map((p) => p.text).join(",")}]`,
        depth: 1 + Math.max(...parts.map((p) => p.depth)),
        outOfRange: parts.some((p) => p.outOfRange),
      };
    }
  }
}

const SENTINEL = '"@@fuzz-stress@@"';

/** Depth of a shallow parsed value (the generators' bodies nest a few levels). */
const depthOf = (value: unknown): number =>
  typeof value === "object" && value !== null
    ? 1 + Math.max(0, ...Object.values(value).map(depthOf))
    : 0;

// ---- the case kinds ----

function validCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const id = rng.pick(DETAILED_OPERATION_IDS);
  const op = detailedOperations[id];
  const body = structuredClone(rng.pick(ctx.pools.valid[id])) as Record<
    string,
    Record<string, unknown>
  >;
  // A bounded set of names keeps the table (and every listing) from growing without end.
  if (id === "createSchema" && rng.chance(0.8))
    (body.schema as Record<string, unknown>).name = `fuzz-${rng.int(0, 199)}`;
  const path = pathOf(id, ctx, rng);
  return single("valid", http(op.method, path, baseHeaders(ctx), enc(JSON.stringify(body))), {
    allowed: op.documentedStatuses,
    // A push may go to a user a provider-state case removed or moved: its 404/403 are right.
    ...(id === "pushToUserDevices" ? {} : { expected: op.successStatus }),
  });
}

function invalidCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const id = rng.pick(DETAILED_OPERATION_IDS);
  const op = detailedOperations[id];
  const c = rng.pick(ctx.pools.invalid[id]);
  return single("invalid", http(op.method, pathOf(id, ctx, rng), baseHeaders(ctx), enc(c.text)), {
    allowed: op.documentedStatuses,
    expected: c.expectedStatus,
  });
}

function stressCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const id = rng.pick(DETAILED_OPERATION_IDS);
  const op = detailedOperations[id];
  const oversize = rng.chance(0.03);
  const value = stressValue(rng, oversize ? 3 * BODY_LIMIT : BODY_LIMIT - 4_096);
  const body = structuredClone(rng.pick(ctx.pools.valid[id])) as Record<string, unknown>;
  const wrapped = body[op.wrapperKey] as Record<string, unknown>;
  if (id === "createSchema") wrapped.name = `fuzz-stress-${rng.int(0, 49)}`;
  const where = rng.pick([
    "unknown-key",
    "unknown-key",
    "field",
    "wrapper",
    "sibling",
    "top",
  ] as const);
  if (where === "unknown-key") wrapped["fuzz stress"] = "@@fuzz-stress@@";
  if (where === "field") {
    const keys = Object.keys(wrapped);
    wrapped[rng.pick(keys)] = "@@fuzz-stress@@";
  }
  if (where === "wrapper") body[op.wrapperKey] = "@@fuzz-stress@@";
  if (where === "sibling") body["fuzz stress"] = "@@fuzz-stress@@";
  const text =
    where === "top" ? value.text : JSON.stringify(body).replace(SENTINEL, () => value.text);
  const bytes = enc(text);
  const path =
    id === "pushToUserDevices"
      ? `/v1${operationPath(op, { id: ctx.member })}`
      : `/v1${operationPath(op)}`;
  let expected: number | undefined;
  if (bytes.length > BODY_LIMIT) expected = defaultProfile.statusMapping[id]["not-json"];
  else if (where === "unknown-key" && id !== "pushToUserDevices") {
    const depth = Math.max(
      depthOf(JSON.parse(JSON.stringify(body).replace(SENTINEL, "0"))),
      2 + value.depth,
    );
    expected =
      depth <= ctx.maxDepth && !value.outOfRange
        ? op.successStatus
        : defaultProfile.statusMapping[id]["wrong-type"];
  }
  return single(`stress:${where}`, http(op.method, path, baseHeaders(ctx), bytes), {
    allowed: op.documentedStatuses,
    ...(expected === undefined ? {} : { expected }),
  });
}

function badEscapeCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const id = rng.pick(DETAILED_OPERATION_IDS);
  const op = detailedOperations[id];
  let text = JSON.stringify(rng.pick(ctx.pools.valid[id]));
  const quote = text.indexOf('":"') + 3;
  const at = quote > 3 ? quote : rng.int(0, text.length);
  const corruption = rng.pick([
    "\\x41",
    "\\u12",
    "\\u{41}",
    "\\ud800",
    "\\udc00\\ud800",
    "\\",
    "\u0001",
    "\t",
    "\n",
    "\\'",
    "\\0",
    "\\U0041",
  ]);
  text = `${text.slice(0, at)}${corruption}${text.slice(at)}`;
  const form = rng.pick([
    "escape",
    "bom",
    "trailing-comma",
    "comment",
    "nan",
    "truncated",
    "latin1",
    "nul",
  ] as const);
  let bytes = enc(text);
  if (form === "bom") bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
  if (form === "trailing-comma") bytes = enc(text.replace(/}$/, ",}"));
  if (form === "comment") bytes = enc(`/* c */${text}`);
  if (form === "nan")
    bytes = enc(
      text.replace(
        /\d+(\.\d+)?/,
        rng.pick(["NaN", "Infinity", "-Infinity", "0x10", "01", "+1", ".5", "1."]),
      ),
    );
  if (form === "truncated") bytes = bytes.subarray(0, rng.int(0, bytes.length));
  if (form === "latin1")
    bytes = Buffer.concat([
      bytes.subarray(0, at),
      Buffer.from([rng.int(0x80, 0xff)]),
      bytes.subarray(at),
    ]);
  if (form === "nul") bytes = Buffer.concat([bytes, Buffer.from([0])]);
  return single(
    `bad-escape:${form}`,
    http(op.method, pathOf(id, ctx, rng), baseHeaders(ctx), bytes),
    {
      allowed: op.documentedStatuses,
    },
  );
}

const ODD_NAMES = [
  "fuzz-1",
  "",
  "a/b",
  "%zz",
  "%00",
  "%2F",
  "é",
  "%F0%9F%99%82",
  "..",
  "%ED%A0%80",
  "x".repeat(3000),
  "a%20b",
  "+",
  "%25",
];

function neighbourCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const h = baseHeaders(ctx);
  const name = rng.chance(0.5) ? `fuzz-${rng.int(0, 199)}` : rng.pick(ODD_NAMES);
  const one = `/v1/marketing/datastore/schemas/${name}`;
  const valid = () => enc(JSON.stringify(rng.pick(ctx.pools.valid.createSchema)));
  const form = rng.pick([
    "get-list",
    "get-one",
    "put-one",
    "put-one-invalid",
    "delete-one",
    "get-rules",
    "state",
    "state-bad",
    "states-list",
    "unknown-path",
    "wrong-method",
    "head",
  ] as const);
  const reads = { readsState: true, allowed: NEIGHBOUR_STATUSES };
  switch (form) {
    case "get-list":
      return single("neighbour:get-list", http("GET", "/v1/marketing/datastore/schemas", h), reads);
    case "get-one":
      return single("neighbour:get-one", http("GET", one, h), reads);
    case "put-one":
      return single("neighbour:put-one", http("PUT", one, h, valid()), {
        allowed: NEIGHBOUR_STATUSES,
      });
    case "put-one-invalid": {
      const c = rng.pick(ctx.pools.invalid.createSchema);
      return single("neighbour:put-one-invalid", http("PUT", one, h, enc(c.text)), {
        allowed: NEIGHBOUR_STATUSES,
      });
    }
    case "delete-one":
      return single("neighbour:delete-one", http("DELETE", one, h), {
        allowed: NEIGHBOUR_STATUSES,
      });
    case "get-rules":
      return single(
        "neighbour:get-rules",
        http("GET", "/v1/marketing/login/apps/clustering/rules", h),
        reads,
      );
    case "state": {
      // Mostly other ids: the member and the other-app user stay as seeded most of the time.
      const id = rng.chance(0.1) ? ctx.member : `state-${rng.int(0, 20)}`;
      const state = rng.pick([
        { state: "a login user exists", params: { id } },
        { state: "no login user exists", params: { id } },
        { state: "a login user of another login app exists", params: { id } },
        { state: "no schema with this name exists", params: { name: `fuzz-${rng.int(0, 199)}` } },
        { state: "", params: {} },
      ]);
      const action = rng.pick(["setup", "teardown", undefined]);
      const body = enc(JSON.stringify(action === undefined ? state : { ...state, action }));
      return single(
        "neighbour:state",
        http("POST", "/_pact/provider-states", [["Host", "idp.test"]], body),
        { allowed: NEIGHBOUR_STATUSES },
      );
    }
    case "state-bad": {
      const body = rng.pick([
        "{",
        "[]",
        '{"state":1}',
        '{"state":"nope"}',
        '{"state":"a login user exists"}',
        '{"state":"a login user exists","params":{"id":[1]}}',
        '{"state":"a login user exists","params":{"id":"x"},"action":"explode"}',
        `{"state":${JSON.stringify(unusualString(rng, 5_000))}}`,
        `{"state":"a","params":${nestedText(rng.size(1, 20_000), 0, "1")}}`,
      ]);
      return single(
        "neighbour:state-bad",
        http("POST", "/_pact/provider-states", [["Host", "idp.test"]], enc(body)),
        { allowed: NEIGHBOUR_STATUSES },
      );
    }
    case "states-list":
      return single(
        "neighbour:states-list",
        http("GET", "/_pact/provider-states", [["Host", "idp.test"]]),
        reads,
      );
    case "unknown-path":
      return single(
        "neighbour:unknown-path",
        http(
          rng.pick(["GET", "POST", "PUT"]),
          rng.pick([
            "/",
            "/v1",
            "/v2/x",
            "/v1/marketing",
            "/favicon.ico",
            `/v1/${unusualString(rng, 50).replace(/[^\x21-\x7e]/g, "_")}`,
          ]),
          h,
        ),
        { allowed: NEIGHBOUR_STATUSES },
      );
    case "wrong-method": {
      const id = rng.pick(DETAILED_OPERATION_IDS);
      return single(
        "neighbour:wrong-method",
        http(rng.pick(["PATCH", "DELETE", "OPTIONS", "TRACE", "GET"]), pathOf(id, ctx, rng), h),
        { allowed: NEIGHBOUR_STATUSES },
      );
    }
    case "head":
      return {
        kind: "neighbour:head",
        steps: [
          {
            bytes: http(
              "HEAD",
              rng.pick(["/v1/marketing/datastore/schemas", one, "/v1/nothing"]),
              rng.chance(0.5) ? h : [["Host", "idp.test"]],
            ),
          },
        ],
        heads: [true],
        minAnswers: 1,
        allowed: NEIGHBOUR_STATUSES,
      };
  }
}

function authCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const id = rng.pick(DETAILED_OPERATION_IDS);
  const op = detailedOperations[id];
  const authorization = rng.pick([
    undefined,
    "",
    "Basic",
    "Basic ",
    "Basic !!!",
    "Bearer x",
    `Basic ${Buffer.from("no-colon").toString("base64")}`,
    `Basic ${Buffer.from("wrong:password").toString("base64")}`,
    `basic ${ctx.authorization.slice(6)}`,
    `Basic  ${ctx.authorization.slice(6)}x`,
    `Basic ${Buffer.from(unusualString(rng, 200)).toString("base64")}`,
  ]);
  const headers: [string, string][] = [["Host", "idp.test"]];
  if (authorization !== undefined) headers.push(["Authorization", authorization]);
  const body = rng.chance(0.5)
    ? enc(JSON.stringify(rng.pick(ctx.pools.valid[id])))
    : enc(rng.pick(ctx.pools.invalid[id]).text);
  // "basic" (lower case) is the same scheme (RFC 9110 §11.1): that one is accepted.
  const sameCredentials = authorization === `basic ${ctx.authorization.slice(6)}`;
  return single("auth", http(op.method, pathOf(id, ctx, rng), headers, body), {
    allowed: op.documentedStatuses,
    ...(sameCredentials ? {} : { expected: 401 }),
  });
}

function targetCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const target = rng.pick([
    "/v1/marketing/datastore/schemas/%zz",
    "/v1/marketing/datastore/schemas/%",
    "/v1/marketing/datastore/schemas/%00",
    "/v1/marketing/datastore/schemas/a%2Fb",
    "/v1/marketing/datastore/../datastore/schemas",
    "/v1//marketing/datastore/schemas",
    "/v1/marketing/datastore/schemas?x=%zz&y",
    "/v1/marketing/datastore/schemas#frag",
    "/v1\\marketing",
    "*",
    "http://idp.test/v1/marketing/datastore/schemas",
    "https://other/v1/marketing/datastore/schemas",
    "http://[::1/v1",
    "//v1/marketing",
    `/v1/${"a".repeat(rng.size(1, 20_000))}`,
    `/v1/marketing/push_notifications/login/users/${percentEncoded(unusualString(rng, 100))}/publish`,
    "/v1/marketing/datastore/schemas/\u00e9",
    "/v1/%E2%80%AE",
  ]);
  const method = rng.pick(["GET", "POST", "PUT", "DELETE", "OPTIONS"]);
  const body =
    method === "GET" ? undefined : enc(JSON.stringify(rng.pick(ctx.pools.valid.createSchema)));
  return single("target", http(method, target, baseHeaders(ctx), body), {
    allowed: ANY_CLIENT_ERROR,
  });
}

function headerCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const id = rng.pick(DETAILED_OPERATION_IDS);
  const op = detailedOperations[id];
  const target = pathOf(id, ctx, rng);
  const body = enc(JSON.stringify(rng.pick(ctx.pools.valid[id])));
  const auth = `Authorization: ${ctx.authorization}`;
  const start = `${op.method} ${target} HTTP/1.1`;
  const cl = `Content-Length: ${body.length}`;
  const raw = (lines: string[], payload: Buffer = body) =>
    Buffer.concat([latin(`${lines.join("\r\n")}\r\n\r\n`), payload]);
  const form = rng.pick([
    "no-host",
    "two-hosts",
    "bad-host",
    "empty-host",
    "http10-no-host",
    "http10-host",
    "expect-x",
    "expect-100",
    "expect-100-and-x",
    "upgrade",
    "connection-odd",
    "many-headers",
    "huge-header",
    "obs-fold",
    "no-colon",
    "space-before-colon",
    "nul-in-value",
    "content-type-odd",
    "two-content-lengths",
    "te-gzip",
    "te-chunked-twice",
    "cl-and-te",
    "connect",
    "lowercase-method",
    "unknown-method",
    "huge-declared-length",
    "chunked-ok",
    "chunk-extension-overflow",
    "bad-chunk",
  ] as const);
  const lines: Record<typeof form, () => Buffer> = {
    "no-host": () => raw([start, auth, cl]),
    "two-hosts": () => raw([start, "Host: a", "Host: b", auth, cl]),
    "bad-host": () =>
      raw([
        start,
        `Host: ${rng.pick(["a b", "[::1", "a/b", "a@b", "a:99999999", "\u00e9"])}`,
        auth,
        cl,
      ]),
    "empty-host": () => raw([start, "Host:", auth, cl]),
    "http10-no-host": () => raw([`${op.method} ${target} HTTP/1.0`, auth, cl]),
    "http10-host": () => raw([`${op.method} ${target} HTTP/1.0`, "Host: a", auth, cl]),
    "expect-x": () =>
      raw([
        start,
        "Host: a",
        auth,
        cl,
        `Expect: ${rng.pick(["x", "200-ok", "", "100-continue2"])}`,
      ]),
    "expect-100": () => raw([start, "Host: a", auth, cl, "Expect: 100-continue"]),
    "expect-100-and-x": () => raw([start, "Host: a", auth, cl, "Expect: 100-continue, x"]),
    upgrade: () =>
      raw([
        start,
        "Host: a",
        auth,
        cl,
        "Connection: Upgrade",
        `Upgrade: ${rng.pick(["websocket", "h2c", "x"])}`,
      ]),
    "connection-odd": () =>
      raw([
        start,
        "Host: a",
        auth,
        cl,
        `Connection: ${rng.pick(["close", "keep-alive, close", "TE", "x, y, z", ""])}`,
      ]),
    "many-headers": () =>
      raw([
        start,
        "Host: a",
        auth,
        cl,
        ...Array.from({ length: rng.int(100, 3000) }, (_, i) => `X-${i}: ${i}`),
      ]),
    "huge-header": () =>
      raw([start, "Host: a", auth, cl, `X-Big: ${"b".repeat(rng.int(15_000, 40_000))}`]),
    "obs-fold": () => raw([start, "Host: a", auth, cl, "X-Fold: a", " b"]),
    "no-colon": () => raw([start, "Host: a", auth, cl, "NoColonHere"]),
    "space-before-colon": () => raw([start, "Host: a", auth, cl, "X-Space : a"]),
    "nul-in-value": () => raw([start, "Host: a", auth, cl, "X-Nul: a\u0000b"]),
    "content-type-odd": () =>
      raw([
        start,
        "Host: a",
        auth,
        cl,
        `Content-Type: ${rng.pick(["text/plain", "application/json; charset=latin1", "multipart/form-data; boundary=x", "", "application/x-www-form-urlencoded"])}`,
      ]),
    "two-content-lengths": () =>
      raw([
        start,
        "Host: a",
        auth,
        cl,
        rng.chance(0.5) ? cl : `Content-Length: ${body.length + 1}`,
      ]),
    "te-gzip": () => raw([start, "Host: a", auth, "Transfer-Encoding: gzip"]),
    "te-chunked-twice": () =>
      raw([start, "Host: a", auth, "Transfer-Encoding: chunked, chunked"], latin("0\r\n\r\n")),
    "cl-and-te": () =>
      raw([start, "Host: a", auth, cl, "Transfer-Encoding: chunked"], latin("0\r\n\r\n")),
    connect: () => raw(["CONNECT idp.test:443 HTTP/1.1", "Host: idp.test:443"], Buffer.alloc(0)),
    "lowercase-method": () =>
      raw([`${op.method.toLowerCase()} ${target} HTTP/1.1`, "Host: a", auth, cl]),
    "unknown-method": () =>
      raw([
        `${rng.pick(["FOO", "BREW", "PROPFIND", "SEARCH", "QUERY"])} ${target} HTTP/1.1`,
        "Host: a",
        auth,
        cl,
      ]),
    "huge-declared-length": () =>
      raw(
        [
          start,
          "Host: a",
          auth,
          `Content-Length: ${rng.pick(["10000000000", "1048577", "99999999999999999999"])}`,
        ],
        body,
      ),
    "chunked-ok": () =>
      raw(
        [start, "Host: a", auth, "Transfer-Encoding: chunked"],
        latin(`${body.length.toString(16)}\r\n${body.toString("latin1")}\r\n0\r\n\r\n`),
      ),
    "chunk-extension-overflow": () =>
      raw(
        [start, "Host: a", auth, "Transfer-Encoding: chunked"],
        latin(`1;${"e".repeat(20_000)}\r\n{\r\n0\r\n\r\n`),
      ),
    "bad-chunk": () =>
      raw(
        [start, "Host: a", auth, "Transfer-Encoding: chunked"],
        latin(
          rng.pick([
            "zz\r\n{}\r\n0\r\n\r\n",
            "2\r\n{}XX0\r\n\r\n",
            "-1\r\n",
            "fffffffffffffffff\r\n",
          ]),
        ),
      ),
  };
  const bytes = lines[form]();
  // A declared length the body never reaches: the server waits (body timeout) or answers first.
  return single(`header:${form}`, bytes, { allowed: ANY_CLIENT_ERROR });
}

function malformedCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const form = rng.pick([
    "random",
    "method-then-random",
    "bad-version",
    "truncated-line",
    "bad-line",
    "binary-headers",
  ] as const);
  let bytes: Buffer;
  switch (form) {
    case "random":
      bytes = Buffer.concat([rng.bytes(rng.size(1, 4_000)), latin("\r\n\r\n")]);
      break;
    case "method-then-random":
      bytes = Buffer.concat([
        latin(`${rng.pick(["GET", "POST", "PUT"])} `),
        rng.bytes(rng.size(1, 2_000)),
        latin("\r\n\r\n"),
      ]);
      break;
    case "bad-version":
      bytes = latin(
        `GET /v1/marketing/datastore/schemas ${rng.pick(["HTTP/2.0", "HTTP/1.2", "HTTP/0.9", "HTTP/1", "HTTPS/1.1", "http/1.1", "HTTP/1.1x"])}\r\nHost: a\r\nAuthorization: ${ctx.authorization}\r\n\r\n`,
      );
      break;
    case "truncated-line":
      bytes = latin(
        `GET /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a\r\n${rng.pick(["X", "X:", "\r", "\n\n"])}\r\n\r\n`,
      );
      break;
    case "bad-line":
      bytes = latin(
        rng.pick([
          "GET\r\n\r\n",
          " GET / HTTP/1.1\r\n\r\n",
          "GET  /  HTTP/1.1\r\nHost: a\r\n\r\n",
          "GET / HTTP/1.1\nHost: a\n\n",
          "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
        ]),
      );
      break;
    case "binary-headers":
      bytes = Buffer.concat([
        latin("GET /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a\r\nX: "),
        rng.bytes(rng.size(1, 200)),
        latin("\r\n\r\n"),
      ]);
      break;
  }
  return single(`malformed:${form}`, bytes, { allowed: ANY_CLIENT_ERROR });
}

function slowCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const id = rng.pick(DETAILED_OPERATION_IDS);
  const op = detailedOperations[id];
  const target = `/v1${operationPath(op, { id: ctx.member })}`;
  const body = enc(JSON.stringify(rng.pick(ctx.pools.valid[id])));
  const form = rng.pick([
    "silent",
    "slow-headers",
    "slow-body",
    "slow-but-in-time",
    "slow-body-unread",
  ] as const);
  const head = latin(
    `${op.method} ${target} HTTP/1.1\r\nHost: a\r\nAuthorization: ${ctx.authorization}\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  switch (form) {
    case "silent":
      return { kind: "slow:silent", steps: [], heads: [false], minAnswers: 1, expected: 408 };
    case "slow-headers":
      return {
        kind: "slow:headers",
        steps: [{ bytes: latin(`${op.method} ${target} HTTP/1.1\r\n`) }],
        drip: { bytes: latin("X-Drip: 1\r\n"), everyMs: 100 },
        heads: [false],
        minAnswers: 1,
        expected: 408,
      };
    case "slow-body":
      return {
        kind: "slow:body",
        steps: [{ bytes: head }, { bytes: body.subarray(0, 1) }],
        drip: { bytes: latin(" "), everyMs: 100 },
        heads: [false],
        minAnswers: 1,
        expected: defaultProfile.statusMapping[id]["not-json"],
      };
    case "slow-but-in-time": {
      const steps: Step[] = [{ bytes: head }];
      const pieces = rng.int(2, 5);
      const size = Math.ceil(body.length / pieces);
      for (let i = 0; i < pieces; i++)
        steps.push({ bytes: body.subarray(i * size, (i + 1) * size), afterMs: 50 });
      return {
        kind: "slow:in-time",
        steps,
        heads: [false],
        minAnswers: 1,
        allowed: op.documentedStatuses,
      };
    }
    case "slow-body-unread":
      return {
        kind: "slow:body-unread",
        steps: [
          {
            bytes: latin(
              `GET /v1/marketing/datastore/schemas HTTP/1.1\r\nHost: a\r\nAuthorization: ${ctx.authorization}\r\nContent-Length: 100000\r\n\r\n{`,
            ),
          },
        ],
        drip: { bytes: latin(" "), everyMs: 100 },
        heads: [false],
        minAnswers: 1,
        expected: 200,
      };
  }
}

function pipelineCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const count = rng.int(2, 5);
  const parts: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(
      rng.weighted([
        [4, validCase],
        [3, invalidCase],
        [2, neighbourCase],
        [1, malformedCase],
      ] as const)(rng, ctx),
    );
  }
  return {
    kind: "pipeline",
    steps: [{ bytes: Buffer.concat(parts.flatMap((p) => p.steps.map((s) => s.bytes))) }],
    heads: parts.flatMap((p) => p.heads),
    minAnswers: 1,
    allowed: SUCCESS_OR_CLIENT_ERROR,
  };
}

function abortCase(rng: Rng, ctx: CaseContext): FuzzCase {
  const full = validCase(rng, ctx).steps[0]?.bytes ?? Buffer.alloc(0);
  return {
    kind: "abort",
    steps: [{ bytes: full.subarray(0, rng.int(0, full.length - 1)) }],
    heads: [],
    minAnswers: 0,
    abort: true,
  };
}

const KINDS = [
  [18, validCase],
  [14, invalidCase],
  [14, stressCase],
  [8, badEscapeCase],
  [12, neighbourCase],
  [6, authCase],
  [6, targetCase],
  [10, headerCase],
  [5, malformedCase],
  [1, slowCase],
  [3, pipelineCase],
  [2, abortCase],
] as const;

/** The case numbered `index` (deterministic for a seed). */
export function makeCase(rng: Rng, ctx: CaseContext): FuzzCase {
  return rng.weighted(KINDS)(rng, ctx);
}

/** A read of everything stored: each must answer 200 (or 404 for never-set rules) with JSON. */
export function readCases(ctx: CaseContext): FuzzCase[] {
  const h = baseHeaders(ctx);
  return [
    "/v1/marketing/datastore/schemas",
    "/v1/marketing/login/apps/clustering/rules",
    "/v1/marketing/datastore/schemas/fuzz-stress-0",
  ].map((path) => single("read", http("GET", path, h), { allowed: [200, 404], readsState: true }));
}
