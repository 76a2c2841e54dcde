import { fc, test } from "@fast-check/vitest";
import {
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  isPathSegmentName,
} from "@idp/contracts";
import { validBodyArb } from "@idp/generators";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES, JSON_BOUNDS } from "../src/index.ts";
import {
  expectErrorBody,
  PATHS,
  type Started,
  startProvider,
  validPush,
  validRules,
  validSchema,
} from "./helpers.ts";
import { depthOf, nestedText, type StressValue, stressValue } from "./stress-arbitraries.ts";

// Deep, wide and long bodies over real HTTP: never a 5xx, the pinned status when a bound is broken,
// and nothing accepted can make a later read fail (R6). Seed printed by vitest.setup.ts.

const MEMBER = "stress-user";
const SENTINEL = "@@stress-value-7d1f@@";
let s: Started;
beforeAll(async () => {
  s = await startProvider({ seed: { loginUsers: [MEMBER] } });
});
afterAll(async () => {
  // The pushes' payloads, stored in the outbox, read back too (once: they pile up).
  expect(s.provider.outbox(MEMBER).length).toBeGreaterThan(0);
  await s.provider.close();
});

const pathOf = (id: DetailedOperationId): string =>
  id === "createSchema"
    ? PATHS.createSchema
    : id === "pushToUserDevices"
      ? PATHS.push(MEMBER)
      : PATHS.clusteringRules;

/** `body` as text with `value` spliced in where `mark` put the sentinel. */
const splice = (body: unknown, value: StressValue): string =>
  JSON.stringify(body).replace(JSON.stringify(SENTINEL), () => value.text);

/** Every read of stored state answers 200 (or 404 for what was never stored) with parseable JSON. */
async function expectReadsWork(): Promise<void> {
  const list = await s.call("GET", PATHS.createSchema);
  expect(list.status).toBe(200);
  expect(JSON.parse(await list.text())).toHaveProperty("schemas");
  const rules = await s.call("GET", PATHS.clusteringRules);
  expect([200, 404]).toContain(rules.status);
  const text = await rules.text();
  if (rules.status === 200) expect(JSON.parse(text)).toHaveProperty("rules");
  else await expectErrorBody(new Response(text, { status: 404, headers: rules.headers }), 404);
}

/** Deletes every stored schema, so listings stay small between runs. */
async function clearSchemas(): Promise<void> {
  const list = (await (await s.call("GET", PATHS.createSchema)).json()) as {
    schemas: { name: string }[];
  };
  for (const { name } of list.schemas) {
    // "", "." and ".." are not one path segment (conformance.md §8): fetch's URL parser resolves
    // "." and ".." away, percent-encoded too, so they stay.
    if (!isPathSegmentName(name)) continue;
    // SQLite keys names as UTF-8, where a lone surrogate is U+FFFD (README: "Unicode").
    const key = encodeURIComponent(name.replace(/\p{Surrogate}/gu, "\ufffd"));
    // A name too long for a 16 KiB request line stays (README: "Limits").
    if (key.length > 12_000) continue;
    const deleted = await s.call("DELETE", `${PATHS.createSchema}/${key}`);
    expect(deleted.status).toBe(200);
  }
}

describe.each(DETAILED_OPERATION_IDS)("%s", (id) => {
  const op = detailedOperations[id];
  const contentStatus = defaultProfile.statusMapping[id]["wrong-type"];

  test.prop([validBodyArb(id), stressValue()], { numRuns: 60 })(
    "a stress value under an unknown key: stored and read back within the bounds, else the pinned status",
    async (generated, value) => {
      const body = structuredClone(generated) as Record<string, Record<string, unknown>>;
      const wrapped = body[op.wrapperKey] as Record<string, unknown>;
      wrapped["stress value"] = SENTINEL;
      if (id === "createSchema") wrapped.name = "stress";
      const text = splice(body, value);
      // Oracle: the depth as built (body object, wrapper object, then the value) and the literal.
      const depth = Math.max(depthOf(generated), 2 + value.depth);
      // Escapes make text longer than the value it holds (a lone surrogate is 6 bytes as \udXXX).
      const tooLarge = Buffer.byteLength(text) > BODY_LIMIT_BYTES;
      const accepted = depth <= JSON_BOUNDS.maxDepth && !value.outOfRange && !tooLarge;

      const response = await s.call(op.method, pathOf(id), text);
      if (tooLarge) {
        const error = await expectErrorBody(response, defaultProfile.statusMapping[id]["not-json"]);
        expect(error.error).toBe("payload_too_large");
      } else if (accepted) {
        expect({ status: response.status, text: await response.text() }).toEqual({
          status: op.successStatus,
          text: "",
        });
      } else {
        const error = await expectErrorBody(response, contentStatus);
        expect(error.error_description).toMatch(
          value.outOfRange ? /beyond the range/ : /nests more than 1000 levels/,
        );
      }
      await expectReadsWork();
      if (accepted && id !== "pushToUserDevices") {
        // What was stored reads back as the platform's JSON.parse reads what was sent (numbers as
        // doubles: 2^53+1 as 2^53, -0 as 0).
        const read = await s.call(
          "GET",
          id === "createSchema" ? `${PATHS.createSchema}/stress` : PATHS.clusteringRules,
        );
        expect(read.status).toBe(200);
        const readText = await read.text();
        const sent = JSON.stringify(JSON.parse(text)[op.wrapperKey]);
        expect(readText).toBe(`{"${op.wrapperKey}":${sent}}`);
      }
    },
  );

  test.prop(
    [
      validBodyArb(id),
      stressValue({ maxItems: 20_000 }),
      fc.constantFrom("top", "wrapper", "field", "sibling"),
      fc.nat(),
    ],
    { numRuns: 60 },
  )(
    "a stress value anywhere: a documented status, never a 5xx, the error body on >= 400, reads still work",
    async (generated, value, where, pick) => {
      const body = structuredClone(generated) as Record<string, unknown>;
      if (where === "wrapper") body[op.wrapperKey] = SENTINEL;
      if (where === "sibling") body["stress value"] = SENTINEL;
      if (where === "field") {
        const wrapped = body[op.wrapperKey] as Record<string, unknown>;
        const keys = Object.keys(wrapped);
        wrapped[keys[pick % keys.length] as string] = SENTINEL;
      }
      const text = where === "top" ? value.text : splice(body, value);
      const response = await s.call(op.method, pathOf(id), text);
      expect(op.documentedStatuses).toContain(response.status);
      expect(response.status).toBeLessThan(500);
      if (response.status >= 400) await expectErrorBody(response, response.status);
      else expect(await response.text()).toBe("");
      await expectReadsWork();
      if (id === "createSchema") await clearSchemas();
    },
  );
});

describe("the depth bound, at its edge", () => {
  const deepUnder = (wrapperBody: Record<string, unknown>, wrapperKey: string, total: number) => {
    const text = JSON.stringify(wrapperBody);
    // total = body (1) + wrapper (1) + the value's own levels.
    const value = nestedText(total - 2, 0x2aaaaaaa, "1");
    const key = JSON.stringify(wrapperKey);
    return text.replace(`${key}:{`, () => `${key}:{"deep":${value},`);
  };
  const cases = [
    ["createSchema", validSchema("edge"), "schema"],
    ["pushToUserDevices", validPush(), "data"],
    ["updateClusteringRules", validRules(), "rules"],
  ] as const;

  it.each(cases)(
    "%s: depth 1000 is accepted and reads back; 1001 gets the pinned status",
    async (id, body, wrapperKey) => {
      const op = detailedOperations[id];
      const path = id === "pushToUserDevices" ? PATHS.push(MEMBER) : pathOf(id);
      const atBound = deepUnder(body, wrapperKey, JSON_BOUNDS.maxDepth);
      const ok = await s.call(op.method, path, atBound);
      expect({ status: ok.status, text: await ok.text() }).toEqual({
        status: op.successStatus,
        text: "",
      });
      const over = deepUnder(body, wrapperKey, JSON_BOUNDS.maxDepth + 1);
      const expected = defaultProfile.statusMapping[id]["wrong-type"];
      const error = await expectErrorBody(await s.call(op.method, path, over), expected);
      expect(error.error_description).toContain("at most 1000");
      await expectReadsWork();
    },
  );

  it("the issue's reproduction (5,000 levels under rules.x) gets 422, not 500", async () => {
    const n = 5000;
    const text = `{"rules":{"features":{},"parameters":{"excluded_words":[]},"x":${"[".repeat(n)}${"]".repeat(n)}}}`;
    await expectErrorBody(await s.call("PUT", PATHS.clusteringRules, text), 422);
  });
});
