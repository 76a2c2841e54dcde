import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  AUTHENTICATION_FAILED,
  type DetailedOperationId,
  detailedOperations,
} from "@idp/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES, ERROR_CODES } from "../src/index.ts";
import {
  basic,
  CREDENTIALS,
  expectErrorBody,
  expectNoBody,
  PATHS,
  type Started,
  startProvider,
  validPush,
  validRules,
  validSchema,
} from "./helpers.ts";

// Every (operation, status) cell the provider can produce, over real HTTP on 127.0.0.1.

const MEMBER = "user-of-this-app";
const OUTSIDER = "user-of-another-app";

let s: Started;
beforeAll(async () => {
  s = await startProvider({ seed: { loginUsers: [MEMBER], otherLoginAppUsers: [OUTSIDER] } });
});
afterAll(() => s.provider.close());

const operations: { id: DetailedOperationId; path: string; valid: () => unknown }[] = [
  { id: "createSchema", path: PATHS.createSchema, valid: validSchema },
  { id: "pushToUserDevices", path: PATHS.push(MEMBER), valid: validPush },
  { id: "updateClusteringRules", path: PATHS.clusteringRules, valid: validRules },
];

const r1Cases: [string, string | null][] = [
  ["no Authorization header", null],
  ["a scheme other than Basic", `Bearer ${Buffer.from("a:b").toString("base64")}`],
  ["bad base64", "Basic !!!not-base64!!!"],
  ["no colon", `Basic ${Buffer.from(CREDENTIALS.username).toString("base64")}`],
  ["a wrong username", basic("someone-else", CREDENTIALS.password)],
  ["a wrong password", basic(CREDENTIALS.username, "wrong")],
  ["an empty Basic token", "Basic "],
];

describe.each(operations)("$id", ({ id, path, valid }) => {
  const op = detailedOperations[id];
  // conformance.md §3, written out here (not read from the contracts) so the test pins the doc.
  const byMapping = (kind: "not-json" | "wrapper-missing" | "wrong-type"): number =>
    ({
      createSchema: { "not-json": 400, "wrapper-missing": 400, "wrong-type": 422 },
      pushToUserDevices: { "not-json": 400, "wrapper-missing": 400, "wrong-type": 400 },
      updateClusteringRules: { "not-json": 422, "wrapper-missing": 422, "wrong-type": 422 },
    })[id][kind];

  it(`answers ${op.successStatus} with no body to a valid payload (R4, R8)`, async () => {
    await expectNoBody(await s.call(op.method, path, JSON.stringify(valid())), op.successStatus);
  });

  it.each(r1Cases)("answers 401 authentication_failed to %s (R1)", async (_, authorization) => {
    const body = await expectErrorBody(
      await s.call(op.method, path, JSON.stringify(valid()), authorization),
      401,
    );
    expect(body.error).toBe(AUTHENTICATION_FAILED);
  });

  it("checks credentials before the body", async () => {
    await expectErrorBody(await s.call(op.method, path, "{not json", null), 401);
  });

  it.each([
    ["a body that is not JSON", "{not json", "not-json"],
    ["an empty body", "", "not-json"],
    ["a JSON array", "[]", "not-json"],
    ["a body without the wrapper", "{}", "wrapper-missing"],
    [
      "a wrapper that is not an object",
      JSON.stringify({ [op.wrapperKey]: "x" }),
      "wrapper-missing",
    ],
  ] as const)("rejects %s with the pinned status (§3)", async (_, raw, kind) => {
    const status = byMapping(kind);
    expect(op.documentedStatuses).toContain(status);
    const body = await expectErrorBody(await s.call(op.method, path, raw), status);
    expect(body.errors.length).toBeGreaterThan(0);
  });

  it("rejects a field of the wrong JSON type with the pinned status (§3)", async () => {
    const body = valid() as Record<string, Record<string, unknown>>;
    const inner = body[op.wrapperKey] as Record<string, unknown>;
    const key = { schema: "name", data: "badge", rules: "parameters" }[op.wrapperKey];
    inner[key] = key === "badge" ? 1.5 : 42;
    const error = await expectErrorBody(
      await s.call(op.method, path, JSON.stringify(body)),
      byMapping("wrong-type"),
    );
    expect(error.error_description).toContain(`${op.wrapperKey}.${key}`);
  });

  it(`rejects a body over ${BODY_LIMIT_BYTES} bytes with the operation's documented client error`, async () => {
    const huge = JSON.stringify({ padding: "x".repeat(BODY_LIMIT_BYTES) });
    const error = await expectErrorBody(await s.call(op.method, path, huge), byMapping("not-json"));
    expect(error.error).toBe(ERROR_CODES.payloadTooLarge);
  });

  it("reads a body that is not UTF-8 as not JSON", async () => {
    const response = await fetch(`${s.baseUrl}${path}`, {
      method: op.method,
      headers: { authorization: basic(CREDENTIALS.username, CREDENTIALS.password) },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    await expectErrorBody(response, byMapping("not-json"));
  });
});

describe("pushToUserDevices: the login user (R7)", () => {
  it("records one delivery per device of the user", async () => {
    const before = s.provider.outbox(MEMBER).length;
    await expectNoBody(await s.call("POST", PATHS.push(MEMBER), JSON.stringify(validPush())), 200);
    const sent = s.provider.outbox(MEMBER).slice(before);
    expect(sent.map((d) => d.platform).sort()).toEqual(["android", "ios"]);
    expect(sent.every((d) => JSON.stringify(d.payload) === JSON.stringify(validPush().data))).toBe(
      true,
    );
  });

  it.each([
    ["an unknown id", "nobody-has-this-id"],
    ["an empty id", ""],
    ["an id with a slash", "a/b"],
    ["a non-ASCII id", "utilisateur-é-🙂"],
  ])("answers 404 to %s", async (_, id) => {
    const error = await expectErrorBody(
      await s.call("POST", PATHS.push(id), JSON.stringify(validPush())),
      404,
    );
    expect(error.error).toBe(ERROR_CODES.recordNotFound);
  });

  it("answers 404, not 500, to malformed percent-encoding in the id", async () => {
    for (const raw of ["%E0%A4%A", "%", "%ZZ", "%C3"]) {
      const response = await s.call(
        "POST",
        `/marketing/push_notifications/login/users/${raw}/publish`,
        JSON.stringify(validPush()),
      );
      await expectErrorBody(response, 404);
    }
  });

  it("answers 403 to a user of another login app, and sends nothing", async () => {
    const error = await expectErrorBody(
      await s.call("POST", PATHS.push(OUTSIDER), JSON.stringify(validPush())),
      403,
    );
    expect(error.error).toBe(ERROR_CODES.forbidden);
    expect(s.provider.outbox(OUTSIDER)).toEqual([]);
  });

  it("checks the body before the login user", async () => {
    await expectErrorBody(await s.call("POST", PATHS.push("nobody"), "{"), 400);
    await expectErrorBody(await s.call("POST", PATHS.push(OUTSIDER), "{"), 400);
  });

  it("answers 500 with the error body when the sender fails (a server fault)", async () => {
    const failing = await startProvider({
      seed: { loginUsers: [MEMBER] },
      sender: {
        send() {
          throw new Error("push gateway down");
        },
      },
    });
    try {
      const error = await expectErrorBody(
        await failing.call("POST", PATHS.push(MEMBER), JSON.stringify(validPush())),
        500,
      );
      expect(error.error).toBe(ERROR_CODES.serverError);
      expect(JSON.stringify(error)).not.toContain("gateway");
    } finally {
      await failing.provider.close();
    }
  });
});

describe("server faults: 500 with the error body", () => {
  it.each([
    ["createSchema", "schemas", PATHS.createSchema, "POST", validSchema],
    ["updateClusteringRules", "clustering_rules", PATHS.clusteringRules, "PUT", validRules],
  ] as const)(
    "answers %s with 500 and the error body when its table is gone (a server fault)",
    async (_op, table, path, method, valid) => {
      // Arrange: a real SQLite fault, made through a second connection to the provider's file.
      const dir = mkdtempSync(join(tmpdir(), "idp-provider-fault-"));
      const db = join(dir, "idp.sqlite");
      const broken = await startProvider({ db });
      try {
        const other = new DatabaseSync(db);
        other.exec(`DROP TABLE ${table}`);
        other.close();
        // Act
        const response = await broken.call(method, path, JSON.stringify(valid()));
        // Assert
        const error = await expectErrorBody(response, 500);
        expect(error.error).toBe(ERROR_CODES.serverError);
        expect(JSON.stringify(error)).not.toContain(table);
      } finally {
        await broken.provider.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
