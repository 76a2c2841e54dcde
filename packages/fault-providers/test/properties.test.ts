// Properties of the hand provider over real HTTP, with arbitraries written from the spec's tables:
// valid bodies are accepted; one tabulated value of another JSON type gets the pinned status; a
// missing field follows `missingField`; credentials other than the configured pair are 401.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type OperationId,
  parseBasic,
  type Reading,
  type RunningProvider,
  startHandProvider,
} from "../src/index.ts";
import { otherType, type Path, replaceAt, str, VALID_ARB } from "./arbitraries.ts";
import { AUTH, CREDENTIALS, call, expectErrorBody, OPERATIONS, setState } from "./support.ts";

const SUCCESS: Record<OperationId, number> = {
  createSchema: 201,
  pushToUserDevices: 200,
  updateClusteringRules: 200,
};
/** conformance.md §3, and issue 13 for push under the observed reading. */
const WRAPPER_STATUS: Record<OperationId, number> = {
  createSchema: 400,
  pushToUserDevices: 400,
  updateClusteringRules: 422,
};
const INSIDE_STATUS: Record<Reading, Record<OperationId, number>> = {
  default: { createSchema: 422, pushToUserDevices: 400, updateClusteringRules: 422 },
  "observed-service": { createSchema: 422, pushToUserDevices: 422, updateClusteringRules: 422 },
};
const RUNS = { numRuns: 50 };

const providers = {} as Record<Reading | "accept", RunningProvider>;
beforeAll(async () => {
  providers.default = await startHandProvider({ credentials: CREDENTIALS });
  providers["observed-service"] = await startHandProvider({
    credentials: CREDENTIALS,
    reading: "observed-service",
  });
  providers.accept = await startHandProvider({ credentials: CREDENTIALS, missingField: "accept" });
  for (const p of Object.values(providers))
    await setState(p.statesUrl, "a login user exists", { id: "user-1" });
});
afterAll(() => Promise.all(Object.values(providers).map((p) => p.close())));

const items = (reading: Reading) => (reading === "default" ? "strings" : "strings-or-objects");

describe.each(["default", "observed-service"] as const)("reading %s", (reading) => {
  it.each(OPERATIONS)("%s: every valid body is accepted with no body", async (op) => {
    await fc.assert(
      fc.asyncProperty(VALID_ARB[op], async ({ body }) => {
        const a = await call(providers[reading].baseUrl, op, { body });
        expect(a.status, a.text).toBe(SUCCESS[op]);
        expect(a.text).toBe("");
      }),
      RUNS,
    );
  });

  it.each(OPERATIONS)(
    "%s: one tabulated value of another JSON type gets the pinned status",
    async (op) => {
      const mutated = VALID_ARB[op].chain(({ body, slots }) =>
        fc
          .constantFrom(...slots)
          .chain((slot) =>
            otherType(slot.type).map((v) => ({ slot, body: replaceAt(body, slot.path, v) })),
          ),
      );
      await fc.assert(
        fc.asyncProperty(mutated, async ({ slot, body }) => {
          const a = await call(providers[reading].baseUrl, op, { body });
          const expected = slot.path.length === 1 ? WRAPPER_STATUS[op] : INSIDE_STATUS[reading][op];
          expect(a.status, `${slot.path.join(".")} in ${JSON.stringify(body).slice(0, 300)}`).toBe(
            expected,
          );
          expectErrorBody(a, items(reading));
        }),
        RUNS,
      );
    },
  );
});

/** Fields a valid body may lack: a schema field's `unique`, a classifier's `excluded_words`. */
const optionalOrMapEntry = (path: Path) => {
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  return (
    last === "unique" ||
    (last === "excluded_words" && parent === "classifier") ||
    parent === "features"
  );
};

it.each(OPERATIONS)(
  "%s: a missing tabulated field is refused (reject) or accepted (accept)",
  async (op) => {
    const missing = VALID_ARB[op].chain(({ body, slots }) => {
      const deletable = slots.filter(
        (s) =>
          s.path.length > 1 &&
          typeof s.path[s.path.length - 1] === "string" &&
          !optionalOrMapEntry(s.path),
      );
      return fc.constantFrom(...deletable).map((slot) => {
        const copy = replaceAt(body, slot.path, undefined); // JSON.stringify drops undefined members
        return { slot, body: copy };
      });
    });
    await fc.assert(
      fc.asyncProperty(missing, async ({ slot, body }) => {
        const rejected = await call(providers.default.baseUrl, op, { body });
        expect(rejected.status, slot.path.join(".")).toBe(INSIDE_STATUS.default[op]);
        expect(expectErrorBody(rejected).errors).toContain(
          `${slot.path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : /^[A-Za-z_]\w*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join("")} can't be blank`,
        );
        expect((await call(providers.accept.baseUrl, op, { body })).status).toBe(SUCCESS[op]);
      }),
      RUNS,
    );
  },
);

/** No lone surrogate (with the u flag a pair is one code point, so only a lone half matches). */
const wellFormed = (s: string) => !/[\uD800-\uDFFF]/u.test(s);

describe("credentials (R1)", () => {
  const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

  it("parseBasic returns any user (without a colon) and password as encoded, whatever the scheme's case", () => {
    fc.assert(
      fc.property(
        str.filter((u) => !u.includes(":") && wellFormed(u)),
        str.filter((p) => wellFormed(p)),
        fc.constantFrom("Basic", "basic", "BASIC"),
        (user, password, scheme) => {
          expect(parseBasic(`${scheme} ${b64(`${user}:${password}`)}`)).toEqual({
            kind: "ok",
            user,
            password,
          });
        },
      ),
    );
  });

  it("a token with a character outside base64 is bad-base64", () => {
    fc.assert(
      fc.property(
        fc.base64String(),
        fc.constantFrom(..."!*@%~?#$-_.:\t"),
        fc.nat(),
        (token, bad, at) => {
          const i = at % (token.length + 1);
          expect(parseBasic(`Basic ${token.slice(0, i)}${bad}${token.slice(i)}`).kind).toBe(
            "bad-base64",
          );
        },
      ),
    );
  });

  it("any user:password pair other than the configured one is 401 authentication_failed", async () => {
    const other = fc
      .tuple(fc.string({ maxLength: 16 }), fc.string({ maxLength: 16 }))
      .filter(
        ([u, p]) => !u.includes(":") && (u !== CREDENTIALS.username || p !== CREDENTIALS.password),
      );
    await fc.assert(
      fc.asyncProperty(other, fc.constantFrom(...OPERATIONS), async ([u, p], op) => {
        const a = await call(providers.default.baseUrl, op, { auth: `Basic ${b64(`${u}:${p}`)}` });
        expect(a.status).toBe(401);
        expect(expectErrorBody(a).error).toBe("authentication_failed");
      }),
      RUNS,
    );
    expect((await call(providers.default.baseUrl, "createSchema", { auth: AUTH })).status).toBe(
      201,
    );
  });
});
