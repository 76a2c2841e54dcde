// Triangulation (`idp-pacts check-contracts`): the committed pacts, the zod contracts and the
// OpenAPI export agree; a pact broken on purpose is caught by the layer that can see the break,
// with the interaction's description in the message. Pacts are mutated in temporary copies only:
// the committed pacts/ file is read, never written.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PACT_FILE } from "../src/index.ts";
import { run } from "../src/pacts-command.ts";
import {
  type TriangulationLayer,
  type TriangulationReport,
  triangulate,
} from "../src/triangulate.ts";

const COMMITTED_OPENAPI = fileURLToPath(new URL("../../../docs/openapi.json", import.meta.url));
const committedPact = readFileSync(PACT_FILE, "utf8");
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const committedSha = sha256(committedPact);

interface Interaction {
  description: string;
  request: {
    path: string;
    body: { content: unknown };
  };
  response: {
    status: number;
    headers?: Record<string, string[]>;
    body?: { content: Record<string, unknown>; contentType?: string; encoded?: boolean };
  };
}
interface Pact {
  interactions: Interaction[];
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "idp-triangulation-"));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  // The committed pact is an input only.
  expect(sha256(readFileSync(PACT_FILE, "utf8"))).toBe(committedSha);
});

let counter = 0;
/** A copy of the committed pact with one interaction changed, in its own folder. */
function mutated(description: string, change: (interaction: Interaction, pact: Pact) => void) {
  const pact = JSON.parse(committedPact) as Pact;
  const interaction = pact.interactions.find((i) => i.description === description);
  if (!interaction) throw new Error(`the committed pact has no interaction "${description}"`);
  change(interaction, pact);
  const dir = join(work, `case-${++counter}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "mutated.json"), JSON.stringify(pact, null, 2));
  return dir;
}

const check = (report: TriangulationReport, layer: TriangulationLayer) => {
  const found = report.checks.find((c) => c.layer === layer);
  if (!found) throw new Error(`no ${layer} check in the report`);
  return found;
};

/** The messages a layer reports for one interaction. */
const messagesOf = (report: TriangulationReport, layer: TriangulationLayer, description: string) =>
  check(report, layer)
    .problems.filter((p) => p.interaction === description)
    .map((p) => p.message);

describe("triangulation of the committed pacts, the zod contracts and the OpenAPI export", () => {
  it("should pass every layer for the committed pacts", async () => {
    // Act
    const report = await triangulate();
    // Assert
    expect(report.checks.map((c) => [c.layer, c.ok, c.problems, c.warnings])).toEqual([
      ["zod", true, [], []],
      ["openapi", true, [], []],
      ["comparator", true, [], []],
    ]);
    expect(report.ok).toBe(true);
    expect(report.interactions).toBe(12);
  });

  it("should accept the committed docs/openapi.json as the export (round trip, same bytes, comparator)", async () => {
    // Act
    const report = await triangulate({ openapi: COMMITTED_OPENAPI });
    // Assert
    expect(report.ok).toBe(true);
    expect(check(report, "openapi").summary).toMatch(
      /round-trips byte for byte, equals the export/,
    );
  });
});

describe("a pact broken on purpose is caught by the right layer, naming the interaction", () => {
  it("should catch a request body field of the wrong type in zod and in the comparator", async () => {
    // Arrange
    const description = "create schema: 201 for a valid schema";
    const dir = mutated(description, (i) => {
      (i.request.body.content as { schema: { name: unknown } }).schema.name = 42;
    });
    // Act
    const report = await triangulate({ pacts: [dir] });
    // Assert
    expect(report.ok).toBe(false);
    expect(messagesOf(report, "zod", description)).toEqual([
      expect.stringMatching(
        /^request: the body is not a valid CreateSchemaRequest \(at schema\.name: received 42 \(an integer\); expected a string\), but the pact expects 201$/,
      ),
    ]);
    expect(messagesOf(report, "comparator", description)).toEqual([
      expect.stringMatching(/^request\.body\.incompatible: .*must be string.*schema\.name/),
    ]);
    expect(check(report, "openapi").ok).toBe(true);
  });

  it("should catch an error response lacking `errors` in zod; the comparator lets a pact omit response fields", async () => {
    // Arrange
    const description = "push to user devices: 404 for an unknown login user";
    const dir = mutated(description, (i) => {
      delete i.response.body?.content.errors;
    });
    // Act
    const report = await triangulate({ pacts: [dir] });
    // Assert
    expect(messagesOf(report, "zod", description)).toEqual([
      expect.stringMatching(/^response: the 404 body is not the error body \(R2\): errors: /),
    ]);
    // By design the comparator strips `required` from response schemas (a consumer may ignore
    // fields it does not use), so only the contracts see that the client's ErrorBody needs `errors`.
    expect(check(report, "comparator").ok).toBe(true);
  });

  it("should catch an undocumented status in zod and in the comparator", async () => {
    // Arrange: 400 is documented for the other two operations, not for clustering rules.
    const description = "update clustering rules: 422 for malformed rules";
    const dir = mutated(description, (i) => {
      i.response.status = 400;
    });
    // Act
    const report = await triangulate({ pacts: [dir] });
    // Assert
    expect(messagesOf(report, "zod", description)).toContain(
      "response: status 400 is not documented for updateClusteringRules (documented: 200, 401, 422, 500) (R3)",
    );
    expect(messagesOf(report, "comparator", description)).toEqual([
      expect.stringMatching(/^response\.status\.unknown: .*400/),
    ]);
  });

  it("should catch a path the OpenAPI export lacks in zod and in the comparator", async () => {
    // Arrange
    const description = "create schema: 201 for a valid schema";
    const dir = mutated(description, (i) => {
      i.request.path = "/marketing/datastore/schema";
    });
    // Act
    const report = await triangulate({ pacts: [dir] });
    // Assert
    expect(messagesOf(report, "zod", description)).toEqual([
      expect.stringMatching(
        /^POST \/marketing\/datastore\/schema is not an operation of @idp\/contracts/,
      ),
    ]);
    expect(messagesOf(report, "comparator", description)).toEqual([
      expect.stringMatching(
        /^request\.path-or-method\.unknown: .*POST \/marketing\/datastore\/schema /,
      ),
    ]);
  });

  it("should catch a valid body that a pact expects to be rejected in zod only (the comparator skips requests of >= 400)", async () => {
    // Arrange
    const description = "create schema: 422 for a schema with a field of the wrong type";
    const dir = mutated(description, (i, pact) => {
      const valid = pact.interactions.find(
        (x) => x.description === "create schema: 201 for a valid schema",
      );
      i.request.body.content = valid?.request.body.content;
    });
    // Act
    const report = await triangulate({ pacts: [dir] });
    // Assert
    expect(messagesOf(report, "zod", description)).toEqual([
      "request: the body is a valid CreateSchemaRequest, so a conforming provider accepts it; the pact expects 422 (R4)",
    ]);
    expect(check(report, "comparator").ok).toBe(true);
  });

  it("should catch an invalid body whose pinned status is not the one the pact expects", async () => {
    // Arrange: `schema` not an object is a 400 (conformance.md §3), not a 422.
    const description = "create schema: 422 for a schema with a field of the wrong type";
    const dir = mutated(description, (i) => {
      i.request.body.content = { schema: "{}" };
    });
    // Act
    const report = await triangulate({ pacts: [dir] });
    // Assert
    expect(messagesOf(report, "zod", description)).toEqual([
      expect.stringMatching(/which gets 400 \(conformance\.md §3\), but the pact expects 422$/),
    ]);
  });

  it("should catch a success answer with a body (R8) in zod and in the comparator", async () => {
    // Arrange
    const description = "create schema: 201 for a valid schema";
    const dir = mutated(description, (i) => {
      i.response.body = { content: { id: "s1" }, contentType: "application/json", encoded: false };
      i.response.headers = { "Content-Type": ["application/json"] };
    });
    // Act
    const report = await triangulate({ pacts: [dir] });
    // Assert
    expect(messagesOf(report, "zod", description)).toEqual([
      "response: a 201 carries no body (R8), the pact expects one",
    ]);
    expect(messagesOf(report, "comparator", description)).toEqual([
      expect.stringMatching(/^response\.body\.unknown: /),
    ]);
  });

  it("should catch a 401 whose error is not authentication_failed (R1) in zod", async () => {
    // Arrange
    const description = "create schema: 401 for wrong credentials";
    const dir = mutated(description, (i) => {
      if (i.response.body) i.response.body.content.error = "unauthorized";
    });
    // Act
    const report = await triangulate({ pacts: [dir] });
    // Assert
    expect(messagesOf(report, "zod", description)).toEqual([
      'response: a 401 has error "authentication_failed" (R1), the pact has "unauthorized"',
    ]);
  });

  it("should catch an OpenAPI file that drifted from the contracts", async () => {
    // Arrange: drop the 404 of push to user devices from a copy of the committed export.
    const doc = JSON.parse(readFileSync(COMMITTED_OPENAPI, "utf8"));
    delete doc.paths["/marketing/push_notifications/login/users/{id}/publish"].post.responses[
      "404"
    ];
    const file = join(work, "drifted-openapi.json");
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    // Act
    const report = await triangulate({ openapi: file });
    // Assert
    const openapi = check(report, "openapi");
    expect(openapi.ok).toBe(false);
    expect(openapi.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^differs from the export of @idp\/contracts at line \d+/),
      "POST /marketing/push_notifications/login/users/{id}/publish: responses are 200, 400, 401, 403, 500, the contracts document 200, 400, 401, 403, 404, 500 (R3)",
    ]);
    expect(
      messagesOf(report, "comparator", "push to user devices: 404 for an unknown login user"),
    ).toEqual([expect.stringMatching(/^response\.status\.unknown: /)]);
  });
});

describe("pact specification versions", () => {
  it("should read V3 bodies (the JSON value itself) as well as V4 ones", async () => {
    // Arrange: the committed 201 and 401 interactions, rewritten the V3 way; the 401 without `errors`.
    const v4 = JSON.parse(committedPact) as Pact & { consumer: unknown; provider: unknown };
    const pick = (d: string) => v4.interactions.find((i) => i.description === d) as Interaction;
    const created = pick("create schema: 201 for a valid schema");
    const denied = pick("create schema: 401 for wrong credentials");
    const v3 = (i: Interaction, body?: unknown) => ({
      description: i.description,
      request: {
        method: "POST",
        path: i.request.path,
        headers: { "Content-Type": "application/json", Authorization: "Basic dTpw" },
        body: i.request.body.content,
      },
      response: {
        status: i.response.status,
        ...(body === undefined ? {} : { headers: { "Content-Type": "application/json" }, body }),
      },
    });
    const { errors: _dropped, ...withoutErrors } = denied.response.body?.content ?? {};
    const dir = join(work, "v3");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "v3.json"),
      JSON.stringify({
        consumer: v4.consumer,
        provider: v4.provider,
        interactions: [v3(created), v3(denied, withoutErrors)],
        metadata: { pactSpecification: { version: "3.0.0" } },
      }),
    );
    // Act
    const report = await triangulate({ pacts: [dir] });
    // Assert
    expect(messagesOf(report, "zod", created.description)).toEqual([]);
    expect(messagesOf(report, "zod", denied.description)).toEqual([
      expect.stringMatching(/^response: the 401 body is not the error body \(R2\): errors: /),
    ]);
    expect(check(report, "comparator").ok).toBe(true);
  });
});

describe("idp-pacts check-contracts", () => {
  async function cli(args: string[]) {
    let stdout = "";
    let stderr = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    const code = await run(["check-contracts", ...args], {});
    vi.restoreAllMocks();
    return { code, stdout, stderr };
  }

  it("should print one line per check and exit 0 for the committed pacts", async () => {
    // Act
    const { code, stdout, stderr } = await cli([]);
    // Assert
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^✓ zod: .*12 interactions conform to @idp\/contracts/);
    expect(lines[1]).toMatch(/^✓ openapi: the OpenAPI export of @idp\/contracts: round-trips/);
    expect(lines[2]).toMatch(/^✓ comparator: .*compatible with the OpenAPI export/);
    expect(lines.at(-1)).toMatch(
      /^contracts:check: passed, 3 of 3 checks passed, 12 interactions in 1 pact files, \d+ ms$/,
    );
  });

  it("should exit 1 with the interaction and the layer for a broken pact", async () => {
    // Arrange
    const dir = mutated("update clustering rules: 200 for valid rules", (i) => {
      i.response.status = 204;
    });
    // Act
    const { code, stdout } = await cli(["--pacts", dir]);
    // Assert
    expect(code).toBe(1);
    expect(stdout).toMatch(/^✗ zod: .*1 of 12 interactions break @idp\/contracts$/m);
    expect(stdout).toContain(
      '    "update clustering rules: 200 for valid rules": response: status 204 is not documented for updateClusteringRules',
    );
    expect(stdout).toMatch(/^✗ comparator: /m);
    expect(stdout).toMatch(/contracts:check: FAILED/);
  });

  it("should exit 2 with one line for bad input", async () => {
    // Arrange
    const empty = join(work, "empty");
    mkdirSync(empty);
    const notJson = join(work, "not-json");
    mkdirSync(notJson);
    writeFileSync(join(notJson, "broken.json"), "{ not json");
    // Act
    const results = [
      await cli(["--pacts", join(work, "missing")]),
      await cli(["--pacts", empty]),
      await cli(["--pacts", notJson]),
      await cli(["--openapi", join(work, "missing.json")]),
      await cli(["--unknown"]),
    ];
    // Assert
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^idp-pacts: [^\n]+\n$/);
    }
    expect(results.map((r) => r.stderr)).toEqual([
      expect.stringContaining("does not exist"),
      expect.stringContaining("no pact files (*.json)"),
      expect.stringContaining("cannot read pact"),
      expect.stringContaining("cannot read --openapi"),
      expect.stringContaining("--unknown"),
    ]);
  });
});
