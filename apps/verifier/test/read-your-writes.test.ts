// conformance.md §8: R9 read your writes (opt-in), and leaving the provider as it was found (the
// clustering rules put back; --cleanup removes exactly the schemas the run created). Providers
// written by hand (@idp/fault-providers, no @idp/contracts) and the reference provider on SQLite.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { createProvider } from "@idp/provider";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CREDENTIALS, failedIds, verifyReport } from "./support/run.ts";

const AUTH = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString("base64")}`;
const LOGIN = { IDP_USERNAME: CREDENTIALS.username, IDP_PASSWORD: CREDENTIALS.password };
const dir = mkdtempSync(join(tmpdir(), "idp-r9-"));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function hand(options: Partial<Parameters<typeof startHandProvider>[0]> = {}) {
  const p = await startHandProvider({ credentials: CREDENTIALS, ...options });
  closers.push(() => p.close());
  return p;
}
const args = (p: { baseUrl: string; statesUrl: string }, extra: string[] = [], runs = 40) => [
  "--provider-url",
  p.baseUrl,
  "--provider-states-url",
  p.statesUrl,
  "--runs",
  String(runs),
  "--seed",
  "11",
  ...extra,
];

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: AUTH, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}
const RULES_PATH = "/marketing/login/apps/clustering/rules";
const schemaPath = (name: string) => `/marketing/datastore/schemas/${encodeURIComponent(name)}`;

describe("R9 read your writes (--checks R9 only)", () => {
  it("is never in the default selection", async () => {
    const p = await hand({ faults: ["lost-create"] });
    const run = await verifyReport(args(p, [], 10), LOGIN);
    expect(run.report?.checks.some((c) => c.id.startsWith("R9"))).toBe(false);
    expect(run.code).toBe(0);
  });

  it.each([
    ["lost-create", "R9.read-back.createSchema", /must be read back with 200, got 404/],
    [
      "first-field-only",
      "R9.read-back.createSchema",
      /is read back with 1 field of the \d+ created/,
    ],
    ["rounded-thresholds", "R9.read-back.updateClusteringRules", /changed/],
    ["rules-get-404", "R9.read-back.updateClusteringRules", /must be read back with 200, got 404/],
  ] as const)(
    "catches %s with %s, the write and the read in the failure",
    async (fault, id, message) => {
      const p = await hand({ faults: [fault] });
      const run = await verifyReport(args(p, ["--checks", "R9"]), LOGIN);
      expect(failedIds(run.report)).toEqual([id]);
      const f = run.report?.checks.find((c) => c.id === id)?.failure;
      expect(f?.message).toMatch(message);
      expect(f?.source).toEqual({ source: "pinned", ref: "conformance.md §8 (R9)" });
      expect(f?.exchange?.request.method).toMatch(/POST|PUT/);
      expect(f?.readBack?.request.method).toBe("GET");
      expect(run.stdout).toContain("then read back:");
      expect(run.code).toBe(1);
    },
  );

  it("shrinks a lost write to the smallest body that shows it", async () => {
    const p = await hand({ faults: ["first-field-only"] });
    const run = await verifyReport(args(p, ["--checks", "R9.read-back.createSchema"]), LOGIN);
    const f = run.report?.checks[0]?.failure;
    const sent = JSON.parse(f?.exchange?.request.body ?? "{}") as { schema: { fields: unknown[] } };
    // Two fields are the fewest whose second one can be lost.
    expect(sent.schema.fields).toHaveLength(2);
    expect(f?.shrinks).toBeGreaterThan(0);
  });

  it.each([true, false])(
    "passes a conforming provider whose reads wrap the body: %s",
    async (wrapReads) => {
      const p = await hand({ wrapReads });
      const run = await verifyReport(args(p, ["--checks", "R9"]), LOGIN);
      expect(run.report?.checks.map((c) => [c.id, c.status])).toEqual([
        ["R9.read-back.createSchema", "passed"],
        ["R9.read-back.updateClusteringRules", "passed"],
      ]);
      expect(run.code).toBe(0);
    },
  );

  it("reads back where the profile's `neighbours` says (a wrong path reads 404)", async () => {
    const p = await hand();
    const profile = join(dir, "elsewhere.json");
    writeFileSync(
      profile,
      JSON.stringify({
        name: "elsewhere",
        neighbours: { getSchema: { method: "GET", path: "/marketing/datastore/elsewhere/{name}" } },
      }),
    );
    const run = await verifyReport(
      args(p, ["--checks", "R9.read-back.createSchema", "--profile", profile], 10),
      LOGIN,
    );
    expect(run.report?.checks[0]?.failure?.readBack?.request.url).toContain(
      "/marketing/datastore/elsewhere/",
    );
    expect(run.code).toBe(1);
  });
});

describe("leaving the provider as it was found", () => {
  async function reference() {
    const provider = createProvider({
      db: ":memory:",
      credentials: CREDENTIALS,
      providerStates: true,
      log: () => {}, // no request log in the test's output
    });
    const { baseUrl, providerStatesUrl } = await provider.listen({ port: 0, host: "127.0.0.1" });
    closers.push(() => provider.close());
    return { baseUrl, statesUrl: providerStatesUrl };
  }

  it("puts the clustering rules back as they were before the run, and says so", async () => {
    const p = await reference();
    const before = {
      rules: {
        features: {
          team: {
            labels: [{ name: "ops", keywords: ["pager"] }],
            classifier: { type: "likes", categories: ["x"], threshold: 0.25 },
          },
        },
        parameters: { excluded_words: ["the"] },
      },
    };
    expect((await call(p.baseUrl, "PUT", RULES_PATH, before)).status).toBe(200);
    const run = await verifyReport(args(p, ["--checks", "R4,R9"], 30), LOGIN);
    expect(run.code, run.stdout).toBe(0);
    expect(run.report?.restore.rules).toEqual({ outcome: "restored" });
    expect(run.stdout).toContain("clustering rules: put back as they were before the run");
    expect((await call(p.baseUrl, "GET", RULES_PATH)).json).toEqual(before);
  });

  it("warns once when there were no rules to put back (a provider of its own, not the embedded one)", async () => {
    const p = await reference();
    const run = await verifyReport(
      args(p, ["--checks", "R4.valid-accepted.updateClusteringRules"], 5),
      LOGIN,
    );
    expect(run.code).toBe(0);
    const warnings = run.report?.warnings.filter((w) => /clustering rules were left/.test(w)) ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/there were none before the run \(404\)/);
  });

  it("--cleanup removes exactly the schemas the run created; one created before the run stays", async () => {
    const p = await reference();
    const kept = {
      schema: {
        name: "created-before",
        fields: [{ name: "a", type: "string" }],
        permissions: { write_protected: false, read_protected: false },
      },
    };
    expect((await call(p.baseUrl, "POST", "/marketing/datastore/schemas", kept)).status).toBe(201);
    const run = await verifyReport(args(p, ["--checks", "R4,R9", "--cleanup"], 30), LOGIN);
    expect(run.code, run.stdout).toBe(0);
    const schemas = run.report?.restore.schemas;
    if (!schemas?.cleanup) throw new Error("expected a cleanup report");
    expect(schemas.removed.length).toBeGreaterThan(10);
    expect(schemas.removed).not.toContain("created-before");
    for (const name of schemas.removed)
      expect((await call(p.baseUrl, "GET", schemaPath(name))).status, name).toBe(404);
    expect((await call(p.baseUrl, "GET", schemaPath("created-before"))).status).toBe(200);
    // What is left is what was there before, and names no path can reach.
    const left = (await call(p.baseUrl, "GET", "/marketing/datastore/schemas")).json as {
      schemas: { name: string }[];
    };
    const unreachable = new Set(schemas.failed.map((f) => f.name));
    expect(left.schemas.map((s) => s.name).filter((n) => !unreachable.has(n))).toEqual([
      "created-before",
    ]);
    expect(run.stdout).toMatch(/schemas: \d+ created by this run removed/);
  });

  it("--cleanup never removes a schema it could not show it created, and names it", async () => {
    // The provider behind a front that resets the connection on the first getSchema it sees (a
    // reset after the request is not sent again, conformance.md §9, unless it reads as an idle
    // close's race: once): the run cannot tell whether that name was there before.
    const p = await reference();
    const target = new URL(p.baseUrl);
    let resets = 0;
    let unanswered: string | undefined;
    const front = createServer(async (req, res) => {
      const path = req.url ?? "/";
      const name = /\/marketing\/datastore\/schemas\/([^/?]+)$/.exec(path)?.[1];
      if (
        req.method === "GET" &&
        name !== undefined &&
        (unanswered ?? name) === name &&
        resets < 3
      ) {
        unanswered = name;
        resets++;
        req.socket.resetAndDestroy();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([k]) => !["host", "connection", "content-length"].includes(k),
        ),
      ) as Record<string, string>;
      const answer = await fetch(`${target.origin}${path}`, {
        method: req.method ?? "GET",
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" });
      res.end(body);
    });
    await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise((r) => front.close(() => r())));
    const origin = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    const run = await verifyReport(
      args(
        { baseUrl: `${origin}/v1`, statesUrl: p.statesUrl },
        ["--checks", "R4.valid-accepted.createSchema", "--cleanup"],
        10,
      ),
      LOGIN,
    );
    expect(resets).toBeGreaterThanOrEqual(1);
    expect(resets).toBeLessThanOrEqual(2);
    const name = decodeURIComponent(unanswered as string);
    const schemas = run.report?.restore.schemas;
    if (!schemas?.cleanup) throw new Error("expected a cleanup report");
    expect(schemas.removed).not.toContain(name);
    expect(schemas.failed).toContainEqual({
      name,
      reason: expect.stringMatching(
        /^not removed: the provider did not answer whether it held the name before the run \(getSchema: ECONNRESET/,
      ),
    });
    expect((await call(p.baseUrl, "GET", schemaPath(name))).status).toBe(200);
    expect(run.stdout).toMatch(/could not be/);
  });

  it("without --cleanup, keeps what it created and says so", async () => {
    const p = await reference();
    const run = await verifyReport(
      args(p, ["--checks", "R4.valid-accepted.createSchema"], 5),
      LOGIN,
    );
    expect(run.report?.restore.schemas).toEqual({ cleanup: false });
    expect(run.stdout).toContain(
      "schemas: the ones this run created were kept (--cleanup removes them)",
    );
  });
});

export type { RunningProvider };
