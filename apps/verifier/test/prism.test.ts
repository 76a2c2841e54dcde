// The OpenAPI export works with Prism: `prism mock` serves it, and idp-verify, pointed at the mock,
// passes every check a mock can satisfy. The checks it cannot satisfy are run too and must fail for
// the reason docs/prism.md gives, so that page stays true when Prism changes.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openApiJson } from "@idp/contracts";
import { PACT_FILE } from "@idp/pact-consumer";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckResult, parseConfig, type VerifyReport, verify } from "../src/index.ts";

/** Checks a stateless mock of the export can pass (with a no-op provider-state endpoint). */
const SATISFIABLE = [
  "R4.valid-accepted.createSchema",
  "R4.valid-accepted.pushToUserDevices",
  "R4.valid-accepted.updateClusteringRules",
  "R8.no-success-body",
  "pact.create schema: 201 for a valid schema",
  "pact.create schema: 422 for a schema with a field of the wrong type",
  "pact.push to user devices: 200 for a valid notification to a login user",
  "pact.push to user devices: 400 for a malformed notification",
  "pact.update clustering rules: 200 for valid rules",
  "pact.update clustering rules: 422 for malformed rules",
] as const;

/** Checks a mock cannot satisfy, each with the failure message that says why (docs/prism.md). */
const UNSATISFIABLE: Readonly<Record<string, RegExp>> = {
  // Prism checks that Basic credentials are present and well-formed, not who they belong to.
  "pact.create schema: 401 for wrong credentials": /status: expected 401, got 201/,
  "pact.push to user devices: 401 for wrong credentials": /status: expected 401, got 200/,
  "pact.update clustering rules: 401 for wrong credentials": /status: expected 401, got 200/,
  // Prism has no state: every login user exists in this login app.
  "R7.push-404": /must get 404, got 200/,
  "R7.push-403": /must get 403, got 200/,
  "pact.push to user devices: 403 for a login user of another login app":
    /status: expected 403, got 200/,
  "pact.push to user devices: 404 for an unknown login user": /status: expected 404, got 200/,
  // R1 is in neither list: it sends every kind of body with bad credentials, and Prism never
  // answers a body that is not JSON (see the last test), so R1 could only time out against it
  // (and its stressed bodies, up to 1 MiB, exhaust the mock). Against a mock, R1's wrong user or
  // password would get 200/201 anyway: Prism checks that Basic credentials are well-formed, not
  // whose they are (the pacts' 401 interactions below show it).
  // Prism answers every request-validation failure with 422 when the operation documents 422.
  "pact.create schema: 400 for a malformed body": /status: expected 400, got 422/,
};

const USERNAME = "prism-user";
const PASSWORD = "prism-password-never-checked";

let work: string;
let prism: ChildProcess | undefined;
let prismLog = "";
let prismUrl: string;
let states: Server;
let statesUrl: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/** prism's JS entry, from this package's own devDependency (never from PATH). */
function prismEntry(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve("@stoplight/prism-cli/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: { prism: string } };
  return join(dirname(manifestPath), manifest.bin.prism);
}

async function waitForPrism(url: string, child: ChildProcess, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let exited: string | undefined;
  child.once("exit", (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  while (Date.now() < deadline) {
    if (exited) break;
    try {
      // Any HTTP answer (prism answers 401 to a request without credentials) means it is up.
      await fetch(`${url}/marketing/login/apps/clustering/rules`, {
        signal: AbortSignal.timeout(500),
      });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(
    `prism mock did not start (${exited ?? `no answer within ${deadlineMs} ms`}); its output:\n${prismLog}`,
  );
}

function stopPrism(): Promise<void> {
  const child = prism;
  prism = undefined;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const kill = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, 3000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    try {
      // prism runs in its own process group (detached), which we end by its id.
      process.kill(-pid, "SIGTERM");
    } catch {
      clearTimeout(kill);
      resolve();
    }
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "idp-prism-"));
  const openapi = join(work, "openapi.json");
  writeFileSync(openapi, openApiJson());

  // A provider-state endpoint that accepts every state: the most a stateless mock can model.
  states = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise<void>((resolve) => states.listen(0, "127.0.0.1", resolve));
  const address = states.address();
  statesUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/_pact/provider-states`;

  const port = await freePort();
  prismUrl = `http://127.0.0.1:${port}`;
  prism = spawn(
    process.execPath,
    [prismEntry(), "mock", openapi, "--host", "127.0.0.1", "--port", String(port)],
    { detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  const keep = (chunk: Buffer) => {
    prismLog = (prismLog + chunk.toString("utf8")).split("\n").slice(-40).join("\n");
  };
  prism.stdout?.on("data", keep);
  prism.stderr?.on("data", keep);
  try {
    await waitForPrism(prismUrl, prism, 15_000);
  } catch (error) {
    await stopPrism();
    throw error;
  }
}, 30_000);

afterAll(async () => {
  await stopPrism();
  await new Promise<void>((resolve) => (states ? states.close(() => resolve()) : resolve()));
  if (work) rmSync(work, { recursive: true, force: true });
});

async function verifyAgainstPrism(checks: readonly string[], runs: number): Promise<VerifyReport> {
  const parsed = parseConfig(
    [
      "--provider-url",
      prismUrl, // prism serves the paths at its root; it ignores the {base_url} server variable
      "--username",
      USERNAME,
      "--password",
      PASSWORD,
      "--provider-states-url",
      statesUrl,
      "--pacts",
      PACT_FILE,
      "--checks",
      checks.join(","),
      "--runs",
      String(runs),
      // The repo's property seed (FC_SEED, pinned in CI), so a failure replays.
      "--seed",
      String(fc.readConfigureGlobal().seed ?? 20261123),
      // prism is slow under the full parallel test run; these tests judge answers, not latency.
      "--timeout-ms",
      "15000",
    ],
    {},
  );
  if (parsed.kind !== "run") throw new Error(`unexpected --${parsed.kind}`);
  return verify(parsed.config);
}

const byId = (report: VerifyReport) =>
  Object.fromEntries(report.checks.map((c) => [c.id, c])) as Record<string, CheckResult>;

describe("idp-verify against `prism mock` of the OpenAPI export", () => {
  it("should pass every check a mock can satisfy", async () => {
    // Act
    const report = await verifyAgainstPrism(SATISFIABLE, 30);
    // Assert
    const results = byId(report);
    for (const id of SATISFIABLE) {
      expect(
        {
          id,
          status: results[id]?.status,
          why: results[id]?.failure?.message ?? results[id]?.reason,
        },
        `${id} against prism (output:\n${prismLog})`,
      ).toEqual({ id, status: "passed", why: undefined });
    }
    expect(report.checks).toHaveLength(SATISFIABLE.length);
    expect(report.exitCode).toBe(0);
  }, 30_000);

  it("should fail the checks a mock cannot satisfy, each for the documented reason", async () => {
    // Act
    const report = await verifyAgainstPrism(Object.keys(UNSATISFIABLE), 10);
    // Assert
    const results = byId(report);
    for (const [id, reason] of Object.entries(UNSATISFIABLE)) {
      expect(results[id]?.status, `${id}: ${results[id]?.reason ?? ""}`).toBe("failed");
      expect(results[id]?.failure?.message, id).toMatch(reason);
    }
    expect(report.exitCode).toBe(1);
  }, 30_000);

  it("should never answer a body that is not JSON (why R2, R3, R5 and R6 cannot run against it)", async () => {
    // Act
    const outcome = await fetch(`${prismUrl}/marketing/login/apps/clustering/rules`, {
      method: "PUT",
      headers: {
        "content-type": "application/json",
        authorization: `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`,
      },
      body: "{not json",
      signal: AbortSignal.timeout(1500),
    }).then(
      (response) => `answered ${response.status}`,
      (error: Error) => error.name,
    );
    // Assert: if Prism ever answers here, R2/R3/R5/R6 may become satisfiable: update docs/prism.md.
    expect(outcome).toBe("TimeoutError");
  }, 10_000);
});
