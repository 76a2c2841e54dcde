// The conforming hand provider over real HTTP: every documented (operation, status) cell of
// service-interface.md, the pinned order of checks (conformance.md §3), states (§4) and limits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProvider, startHandProvider } from "../src/index.ts";
import {
  AUTH,
  CREDENTIALS,
  call,
  expectErrorBody,
  nested,
  OPERATIONS,
  setState,
  VALID,
  validCreateSchema,
  validPush,
  validRules,
} from "./support.ts";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const { username, password } = CREDENTIALS;

/** R1's matrix, with the reason each is not acceptable. */
const BAD_AUTH: [string, string | null][] = [
  ["no header", null],
  ["another scheme", `Bearer ${b64(`${username}:${password}`)}`],
  ["scheme without a token", "Basic"],
  ["not base64", "Basic a$b="],
  ["base64 without padding", `Basic ${b64(`${username}:${password}`).replace(/=+$/, "")}`],
  ["URL-safe base64", `Basic ${b64("ann:?>?>").replaceAll("/", "_").replaceAll("+", "-")}`],
  ["no colon", `Basic ${b64(`${username}${password}`)}`],
  ["wrong user", `Basic ${b64(`bob:${password}`)}`],
  ["user in another case", `Basic ${b64(`ANN:${password}`)}`],
  ["wrong password", `Basic ${b64(`${username}:nope`)}`],
  ["password with a suffix", `Basic ${b64(`${username}:${password}x`)}`],
  ["empty password", `Basic ${b64(`${username}:`)}`],
  [
    "bytes that are not UTF-8",
    `Basic ${Buffer.concat([Buffer.from("ann:"), Buffer.from([0xff, 0xfe])]).toString("base64")}`,
  ],
];

let p: RunningProvider;
beforeAll(async () => {
  p = await startHandProvider({ credentials: CREDENTIALS, keepRequests: 5 });
  await setState(p.statesUrl, "a login user exists", { id: "user-1" });
  await setState(p.statesUrl, "a login user of another login app exists", { id: "other-1" });
});
afterAll(() => p.close());

describe("success (R4, R8)", () => {
  it.each([
    ["createSchema", 201],
    ["pushToUserDevices", 200],
    ["updateClusteringRules", 200],
  ] as const)("%s answers %i with no body", async (op, status) => {
    const a = await call(p.baseUrl, op);
    expect(a.status).toBe(status);
    expect(a.text).toBe("");
  });

  it("accepts the scheme word in any case (RFC 9110 §11.1)", async () => {
    expect(
      (await call(p.baseUrl, "createSchema", { auth: AUTH.replace("Basic", "basic") })).status,
    ).toBe(201);
  });

  it("accepts optional fields absent, unknown keys anywhere, values beyond those in use, edge strings", async () => {
    const create = {
      extra: { deep: JSON.parse(nested(50)) },
      schema: {
        name: "",
        x: 1,
        fields: [{ name: "\u0000é😀", type: "not-a-type", y: null }],
        permissions: { write_protected: false, read_protected: true, z: [] },
      },
    };
    expect((await call(p.baseUrl, "createSchema", { body: create })).status).toBe(201);
    const rules = validRules();
    Object.assign(rules.rules.features, {
      "": { labels: [], classifier: { type: "other", categories: [], threshold: -7.5 } },
    });
    expect((await call(p.baseUrl, "updateClusteringRules", { body: rules })).status).toBe(200);
    const push = validPush();
    Object.assign(push.data, {
      title: "",
      badge: -0,
      vibrate_duration: 2 ** 53 + 1,
      unknown: { a: 1 },
    });
    expect((await call(p.baseUrl, "pushToUserDevices", { body: push })).status).toBe(200);
  });

  it("reads an integer on the parsed value: 1.0 and 1e2 are integers", async () => {
    const text = JSON.stringify(validPush())
      .replace('"badge":1', '"badge":1.0')
      .replace('"vibrate_duration":300', '"vibrate_duration":3e2');
    expect((await call(p.baseUrl, "pushToUserDevices", { body: text })).status).toBe(200);
  });

  it("accepts a body of exactly 1 MiB", async () => {
    const text = JSON.stringify(validCreateSchema());
    const body = text + " ".repeat(1024 * 1024 - text.length);
    expect((await call(p.baseUrl, "createSchema", { body })).status).toBe(201);
  });
});

describe("401 before anything else (R1)", () => {
  it.each(BAD_AUTH)(
    "%s: 401 authentication_failed on every operation, whatever the body",
    async (_, auth) => {
      for (const op of OPERATIONS)
        for (const body of [VALID[op](), "{not json", { wrong: true }, nested(10_000)]) {
          const a = await call(p.baseUrl, op, { auth, body, id: "nobody" });
          expect(a.status, `${op} ${String(body).slice(0, 20)}`).toBe(401);
          expect(expectErrorBody(a).error).toBe("authentication_failed");
          expect(a.headers.get("www-authenticate")).toMatch(/^Basic /);
        }
    },
  );
});

it("401 also for a body over the 1 MiB cap", async () => {
  const a = await call(p.baseUrl, "updateClusteringRules", {
    auth: null,
    body: Buffer.alloc(2 * 1024 * 1024, "{"),
  });
  expect(a.status).toBe(401);
  expect(expectErrorBody(a).error).toBe("authentication_failed");
});

describe("the pinned 4xx of conformance.md §3 (R5, R2)", () => {
  const notJson = ["", "{", "nul", "{'a':1}", Buffer.from([0x7b, 0xff, 0x7d])];
  const notObject = ["[]", "null", "1", '"schema"', "true"];

  it.each([
    ["createSchema", 400],
    ["pushToUserDevices", 400],
    ["updateClusteringRules", 422],
  ] as const)("%s: a body that is not JSON, or not an object, gets %i", async (op, status) => {
    for (const body of [...notJson, ...notObject]) {
      const a = await call(p.baseUrl, op, { body });
      expect(a.status, String(body)).toBe(status);
      expectErrorBody(a);
    }
  });

  it.each([
    ["createSchema", "schema", 400],
    ["pushToUserDevices", "data", 400],
    ["updateClusteringRules", "rules", 422],
  ] as const)("%s: wrapper %s missing or not an object gets %i", async (op, wrapper, status) => {
    for (const body of [
      {},
      { other: {} },
      { [wrapper]: null },
      { [wrapper]: [] },
      { [wrapper]: "x" },
      { [wrapper]: 1 },
    ]) {
      const a = await call(p.baseUrl, op, { body });
      expect(a.status, JSON.stringify(body)).toBe(status);
      expectErrorBody(a);
    }
  });

  const wrong = <T>(make: () => T, change: (b: T) => void) => {
    const b = make();
    change(b);
    return b;
  };
  const createWrong = [
    wrong(validCreateSchema, (b) => Object.assign(b.schema, { name: 1 })),
    wrong(validCreateSchema, (b) => Object.assign(b.schema, { name: null })),
    wrong(validCreateSchema, (b) => Object.assign(b.schema, { fields: {} })),
    wrong(validCreateSchema, (b) => Object.assign(b.schema, { fields: ["email"] })),
    wrong(validCreateSchema, (b) => Object.assign(b.schema.fields[0] as object, { type: 5 })),
    wrong(validCreateSchema, (b) =>
      Object.assign(b.schema.fields[1] as object, { unique: "true" }),
    ),
    wrong(validCreateSchema, (b) => Object.assign(b.schema, { permissions: [] })),
    wrong(validCreateSchema, (b) => Object.assign(b.schema.permissions, { read_protected: 0 })),
  ];
  const pushWrong = [
    wrong(validPush, (b) => Object.assign(b.data, { badge: 1.5 })),
    wrong(validPush, (b) => Object.assign(b.data, { vibrate: "true" })),
    wrong(validPush, (b) => Object.assign(b.data, { title: ["News"] })),
    wrong(validPush, (b) => Object.assign(b.data, { vibrate_duration: "300" })),
  ];
  const rulesWrong = [
    wrong(validRules, (b) => Object.assign(b.rules, { features: [] })),
    wrong(validRules, (b) => Object.assign(b.rules.features, { x: "feature" })),
    wrong(validRules, (b) =>
      Object.assign(b.rules.features.music.classifier, { threshold: "0.5" }),
    ),
    wrong(validRules, (b) =>
      Object.assign(b.rules.features.music.classifier, { excluded_words: null }),
    ),
    wrong(validRules, (b) =>
      Object.assign(b.rules.features.music.labels[0] as object, { keywords: [1] }),
    ),
    wrong(validRules, (b) => Object.assign(b.rules.parameters, { excluded_words: "a" })),
  ];
  it.each([
    ["createSchema", 422, createWrong],
    ["pushToUserDevices", 400, pushWrong],
    ["updateClusteringRules", 422, rulesWrong],
  ] as const)(
    "%s: a field with the wrong JSON type gets %i, naming the field",
    async (op, status, bodies) => {
      for (const body of bodies) {
        const a = await call(p.baseUrl, op, { body });
        expect(a.status, JSON.stringify(body)).toBe(status);
        expect(expectErrorBody(a).errors.join(" ")).toMatch(/^(schema|data|rules)\./);
      }
    },
  );

  it("a missing field is refused with the operation's status (missingField: reject, the default)", async () => {
    const create = validCreateSchema();
    delete (create.schema as Partial<typeof create.schema>).permissions;
    const push = validPush();
    delete (push.data as Partial<typeof push.data>).sound;
    const rules = validRules();
    delete (rules.rules as Partial<typeof rules.rules>).parameters;
    expect((await call(p.baseUrl, "createSchema", { body: create })).status).toBe(422);
    expect((await call(p.baseUrl, "pushToUserDevices", { body: push })).status).toBe(400);
    expect((await call(p.baseUrl, "updateClusteringRules", { body: rules })).status).toBe(422);
  });

  it("a body over 1 MiB gets the operation's not-JSON status", async () => {
    const pad = (op: (typeof OPERATIONS)[number]) => {
      const text = JSON.stringify(VALID[op]());
      return text + " ".repeat(1024 * 1024 + 1 - text.length);
    };
    expect((await call(p.baseUrl, "createSchema", { body: pad("createSchema") })).status).toBe(400);
    expect(
      (await call(p.baseUrl, "pushToUserDevices", { body: pad("pushToUserDevices") })).status,
    ).toBe(400);
    expect(
      (await call(p.baseUrl, "updateClusteringRules", { body: pad("updateClusteringRules") }))
        .status,
    ).toBe(422);
    const a = await call(p.baseUrl, "createSchema", { body: Buffer.alloc(8 * 1024 * 1024, "[") });
    expect(a.status).toBe(400);
    expectErrorBody(a);
  });

  it("survives 10,000 levels of nesting in every place, then still answers", async () => {
    // Built as text: JSON.stringify itself recurses.
    const deep = nested(10_000, "object");
    const withDeep = (body: object, wrapper: string, key: string) =>
      JSON.stringify(body).replace(`{"${wrapper}":{`, `{"${wrapper}":{"${key}":${deep},`);
    const deepName = withDeep(
      { schema: { ...validCreateSchema().schema, name: undefined } },
      "schema",
      "name",
    );
    expect((await call(p.baseUrl, "createSchema", { body: nested(10_000) })).status).toBe(400);
    expect((await call(p.baseUrl, "updateClusteringRules", { body: deep })).status).toBe(422);
    expect((await call(p.baseUrl, "createSchema", { body: deepName })).status).toBe(422);
    expect(
      (
        await call(p.baseUrl, "createSchema", {
          body: withDeep(validCreateSchema(), "schema", "x"),
        })
      ).status,
    ).toBe(201);
    expect(
      (await call(p.baseUrl, "pushToUserDevices", { body: withDeep(validPush(), "data", "x") }))
        .status,
    ).toBe(200);
    expect((await call(p.baseUrl, "createSchema", { body: nested(500_000) })).status).toBe(400);
    expect((await call(p.baseUrl, "createSchema")).status).toBe(201);
  });
});

describe("the login user (R7), after the body (§3)", () => {
  it("403 for a user of another login app, 404 for an id no user has", async () => {
    const other = await call(p.baseUrl, "pushToUserDevices", { id: "other-1" });
    expect(other.status).toBe(403);
    expectErrorBody(other);
    const none = await call(p.baseUrl, "pushToUserDevices", { id: "nobody" });
    expect(none.status).toBe(404);
    expectErrorBody(none);
    expect((await call(p.baseUrl, "pushToUserDevices", { id: "a/b %" })).status).toBe(404);
  });

  it("a malformed body to an unknown user is 400, not 404", async () => {
    expect((await call(p.baseUrl, "pushToUserDevices", { id: "nobody", body: "{" })).status).toBe(
      400,
    );
  });

  it("userBeforeBody: the same request is 404", async () => {
    const q = await startHandProvider({ credentials: CREDENTIALS, userBeforeBody: true });
    try {
      expect((await call(q.baseUrl, "pushToUserDevices", { id: "nobody", body: "{" })).status).toBe(
        404,
      );
      expect(
        (await call(q.baseUrl, "pushToUserDevices", { id: "nobody", body: "{", auth: null }))
          .status,
      ).toBe(401);
    } finally {
      await q.close();
    }
  });
});

describe("provider states (§4)", () => {
  it("sets up and tears down login users; the push answers follow", async () => {
    const id = "state-user";
    expect((await setState(p.statesUrl, "a login user exists", { id })).status).toBe(200);
    expect((await call(p.baseUrl, "pushToUserDevices", { id })).status).toBe(200);
    expect((await setState(p.statesUrl, "a login user exists", { id }, "teardown")).status).toBe(
      200,
    );
    expect((await call(p.baseUrl, "pushToUserDevices", { id })).status).toBe(404);
    await setState(p.statesUrl, "a login user of another login app exists", { id });
    expect((await call(p.baseUrl, "pushToUserDevices", { id })).status).toBe(403);
    expect((await setState(p.statesUrl, "no login user exists", { id })).status).toBe(200);
    expect((await call(p.baseUrl, "pushToUserDevices", { id })).status).toBe(404);
    expect(
      (await setState(p.statesUrl, "no schema with this name exists", { name: "x" })).status,
    ).toBe(200);
  });

  it("answers 200 to the empty state Pact's verifiers send for a stateless interaction", async () => {
    const users = p.data.users.size;
    for (const action of ["setup", "teardown"] as const)
      expect((await setState(p.statesUrl, "", {}, action)).status).toBe(200);
    expect(p.data.users.size).toBe(users);
  });

  it("takes a request without action as setup (Pact's older protocol)", async () => {
    const res = await fetch(p.statesUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ state: "a login user exists", params: { id: "no-action" } }),
    });
    expect(res.status).toBe(200);
    expect(p.data.users.get("no-action")).toBe("this");
  });

  it.each([
    [
      "an unknown state",
      JSON.stringify({ state: "a schema exists", params: {}, action: "setup" }),
      /no handler/,
    ],
    [
      "no params.id",
      JSON.stringify({ state: "a login user exists", params: {}, action: "setup" }),
      /params\.id/,
    ],
    [
      "an id that is not a string",
      JSON.stringify({ state: "a login user exists", params: { id: 1 } }),
      /params\.id/,
    ],
    [
      "no params.name",
      JSON.stringify({ state: "no schema with this name exists", params: { id: "x" } }),
      /params\.name/,
    ],
    [
      "a bad action",
      JSON.stringify({ state: "a login user exists", params: { id: "x" }, action: "start" }),
      /action/,
    ],
    ["not JSON", "state=a", /not JSON/],
  ])("%s: 400 with the error body", async (_, body, message) => {
    const res = await fetch(p.statesUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const a = {
      status: res.status,
      headers: res.headers,
      text: await res.text(),
      json: undefined as unknown,
    };
    a.json = JSON.parse(a.text);
    expect(a.status).toBe(400);
    expect(expectErrorBody(a).error_description).toMatch(message);
  });

  it("missingStates: those states are 400 as by a provider without their handler", async () => {
    const q = await startHandProvider({
      credentials: CREDENTIALS,
      missingStates: ["no login user exists"],
    });
    try {
      expect((await setState(q.statesUrl, "no login user exists", { id: "x" })).status).toBe(400);
      expect((await setState(q.statesUrl, "a login user exists", { id: "x" })).status).toBe(200);
    } finally {
      await q.close();
    }
  });
});

describe("options", () => {
  it("missingField accept: bodies missing a tabulated field succeed", async () => {
    const q = await startHandProvider({ credentials: CREDENTIALS, missingField: "accept" });
    try {
      await setState(q.statesUrl, "a login user exists", { id: "user-1" });
      expect((await call(q.baseUrl, "createSchema", { body: { schema: {} } })).status).toBe(201);
      expect(
        (await call(q.baseUrl, "pushToUserDevices", { body: { data: { title: "" } } })).status,
      ).toBe(200);
      expect(
        (
          await call(q.baseUrl, "updateClusteringRules", {
            body: { rules: { features: { f: {} } } },
          })
        ).status,
      ).toBe(200);
      // a wrong type is still wrong
      expect(
        (await call(q.baseUrl, "createSchema", { body: { schema: { name: 1 } } })).status,
      ).toBe(422);
    } finally {
      await q.close();
    }
  });

  it.each([
    // Exactly 100 in the unit (100 astral code points are 200 UTF-16 units), then one more.
    ["codePoints", "😀".repeat(100), "😀".repeat(101)],
    ["utf16", "😀".repeat(50), `${"😀".repeat(50)}x`],
    ["bytes", "é".repeat(50), `${"é".repeat(50)}x`],
  ] as const)(
    "limits in %s: at the limit 200, one past it the limit's status",
    async (unit, at, past) => {
      const q = await startHandProvider({
        credentials: CREDENTIALS,
        limits: [{ at: "rules.features.*.labels[].keywords[]", maxLength: 100, unit, status: 422 }],
      });
      const rules = (keyword: string) => {
        const body = validRules();
        (body.rules.features.music?.labels[0] as { keywords: string[] }).keywords = [keyword];
        return body;
      };
      try {
        expect((await call(q.baseUrl, "updateClusteringRules", { body: rules(at) })).status).toBe(
          200,
        );
        const refused = await call(q.baseUrl, "updateClusteringRules", { body: rules(past) });
        expect(refused.status).toBe(422);
        expectErrorBody(refused);
      } finally {
        await q.close();
      }
    },
  );

  it("limits on numbers, its own 400/422, its own login-user statuses, generic messages", async () => {
    const q = await startHandProvider({
      credentials: CREDENTIALS,
      limits: [{ at: "data.badge", maximum: 99, status: 400 }],
      bodyStatuses: { pushToUserDevices: { "wrong-type": 422 } },
      fieldStatuses: { "data.sound": 400 },
      loginUserStatuses: { otherLoginApp: 404 },
      genericMessages: true,
    });
    const push = (data: Record<string, unknown>, id = "user-1") =>
      call(q.baseUrl, "pushToUserDevices", {
        id,
        body: { data: { ...validPush().data, ...data } },
      });
    try {
      await setState(q.statesUrl, "a login user exists", { id: "user-1" });
      await setState(q.statesUrl, "a login user of another login app exists", { id: "other-1" });
      expect((await push({ badge: 99 })).status).toBe(200);
      expect((await push({ badge: 100 })).status).toBe(400);
      const wrong = await push({ title: 1 });
      expect(wrong.status).toBe(422);
      expect(expectErrorBody(wrong).errors).toEqual(["The request is invalid"]);
      expect((await push({ sound: 1 })).status).toBe(400);
      expect((await push({}, "other-1")).status).toBe(404);
      expect((await push({}, "nobody")).status).toBe(404);
    } finally {
      await q.close();
    }
  });

  it("uniqueNames: a name held is 422; a new one is 201; the state frees it", async () => {
    const q = await startHandProvider({ credentials: CREDENTIALS, uniqueNames: true });
    try {
      const body = validCreateSchema();
      expect((await call(q.baseUrl, "createSchema", { body })).status).toBe(201);
      const again = await call(q.baseUrl, "createSchema", { body });
      expect(again.status).toBe(422);
      expect(expectErrorBody(again).errors).toEqual(["schema.name has already been taken"]);
      body.schema.name = "another";
      expect((await call(q.baseUrl, "createSchema", { body })).status).toBe(201);
      await setState(q.statesUrl, "no schema with this name exists", { name: "customers" });
      expect((await call(q.baseUrl, "createSchema")).status).toBe(201);
    } finally {
      await q.close();
    }
  });

  it.each([
    [
      "reset-on-setup",
      // Every setup starts from a clean slate: the first user is gone once another is set up.
      { afterSecondSetup: 404, afterSecondTeardown: 200 },
    ],
    [
      "reset-on-teardown",
      // Setups add; any teardown removes every login user.
      { afterSecondSetup: 200, afterSecondTeardown: 404 },
    ],
    ["additive", { afterSecondSetup: 200, afterSecondTeardown: 200 }],
  ] as const)(
    "stateHandlers %s: what another state's setup and teardown leave",
    async (handlers, want) => {
      const q = await startHandProvider({ credentials: CREDENTIALS, stateHandlers: handlers });
      try {
        const push = async () =>
          (await call(q.baseUrl, "pushToUserDevices", { id: "first" })).status;
        await setState(q.statesUrl, "a login user exists", { id: "first" });
        expect(await push()).toBe(200);
        await setState(q.statesUrl, "a login user of another login app exists", { id: "second" });
        expect(await push()).toBe(want.afterSecondSetup);
        await setState(q.statesUrl, "a login user exists", { id: "first" });
        await setState(q.statesUrl, "no login user exists", { id: "second" }, "teardown");
        expect(await push()).toBe(want.afterSecondTeardown);
      } finally {
        await q.close();
      }
    },
  );

  it("jsonContentType: every JSON answer carries it", async () => {
    const type = "Application/JSON;Charset=UTF-8";
    const q = await startHandProvider({ credentials: CREDENTIALS, jsonContentType: type });
    try {
      const denied = await call(q.baseUrl, "createSchema", { auth: null });
      expect([denied.status, denied.headers.get("content-type")]).toEqual([401, type]);
      expect(
        (await call(q.baseUrl, "createSchema", { body: "{" })).headers.get("content-type"),
      ).toBe(type);
    } finally {
      await q.close();
    }
  });

  it.each([
    [{ faults: ["nope" as never] }, /^faults: unknown fault "nope"$/],
    [
      { stateHandlers: "reset" as never },
      /^stateHandlers: expected "additive", "reset-on-setup" or "reset-on-teardown", got "reset"$/,
    ],
    [
      { reading: "strict" as never },
      /^reading: expected "default" or "observed-service", got "strict"$/,
    ],
    [{ missingField: "ignore" as never }, /^missingField: expected "reject" or "accept"/],
    [{ bigBodyBytes: 10 }, /^bigBodyBytes: expected an integer >= \d+, got 10$/],
    [
      { credentials: { username: "a:b", password: "c" } },
      /^credentials\.username: must not contain ':'/,
    ],
  ])("refuses bad options with a one-line TypeError: %j", async (bad, message) => {
    await expect(startHandProvider({ credentials: CREDENTIALS, ...bad })).rejects.toThrow(message);
  });
});

describe("outside the three operations", () => {
  it("an unknown path is 404 and a wrong method 405, with the error body", async () => {
    const res = await fetch(`${p.baseUrl}/marketing/datastore/schemas/x`, {
      headers: { authorization: AUTH },
    });
    expect(res.status).toBe(404);
    expect(
      expectErrorBody({ status: 404, headers: res.headers, text: "", json: await res.json() })
        .error,
    ).toBe("record_not_found");
    const get = await call(p.baseUrl, "createSchema", { method: "GET" });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect((await call(p.baseUrl, "createSchema", { body: "{" })).status).toBe(400);
    expect(
      (
        await fetch(`${p.baseUrl.replace(/\/v1$/, "")}/marketing/datastore/schemas`, {
          method: "POST",
        })
      ).status,
    ).toBe(404);
  });

  it("counts every request and keeps only the last few", async () => {
    const before = p.requests.count;
    for (let i = 0; i < 7; i++) await call(p.baseUrl, "updateClusteringRules", { auth: null });
    expect(p.requests.count).toBe(before + 7);
    const recent = p.requests.recent;
    expect(recent).toHaveLength(5);
    expect(
      recent.every((r) => r.status === 401 && r.method === "PUT" && r.authorization === undefined),
    ).toBe(true);
    expect(recent[4]?.bodyHead).toBe(JSON.stringify(validRules()).slice(0, 256));
    expect(p.requests.byStatus.get(401)).toBeGreaterThanOrEqual(7);
  });
});
