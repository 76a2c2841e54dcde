// Pact's own verifier judges the pacts; idp-verify runs it behind its guard (placeholder credential
// swapped, body cap, exchanges recorded) and reads its verdict.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PACT_PLACEHOLDER_AUTHORIZATION, PACT_WRONG_AUTHORIZATION } from "@idp/contracts";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterEach, describe, expect, it } from "vitest";
import { pactVerdictProblem } from "../src/pact/ffi-results.ts";
import { pactCopies } from "./support/pact-copies.ts";
import {
  against,
  CREDENTIAL_TOKEN,
  CREDENTIALS,
  failedIds,
  runVerify,
  verifyReport,
} from "./support/run.ts";

const PACTS = fileURLToPath(new URL("./fixtures/pacts/", import.meta.url));

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe("pact verification", () => {
  it("verifies every interaction, swapping only the placeholder credential", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS, keepRequests: 200 });
    const run = await verifyReport(against(provider, ["--pacts", PACTS, "--checks", "pact"]));
    expect(run.report?.checks.map((c) => c.status)).toEqual(Array(12).fill("passed"));
    const sent = provider.requests.recent
      .filter((r) => r.url.startsWith("/v1/"))
      .map((r) => r.authorization);
    expect(sent).not.toContain(PACT_PLACEHOLDER_AUTHORIZATION);
    expect(sent).toContain(`Basic ${CREDENTIAL_TOKEN}`);
    expect(sent).toContain(PACT_WRONG_AUTHORIZATION);
    // Each interaction's time is its own exchange's, not a share of the batch.
    const times = new Set(run.report?.checks.map((c) => c.durationMs));
    expect(times.size).toBeGreaterThan(1);
    expect(run.code).toBe(0);
  });

  it("fails the 401 interactions of a provider that ignores credentials", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS, faults: ["auth-ignored"] });
    const run = await verifyReport(against(provider, ["--pacts", PACTS, "--checks", "pact"]));
    expect(failedIds(run.report)).toEqual([
      "pact.create schema: 401 for wrong credentials",
      "pact.push to user devices: 401 for wrong credentials",
      "pact.update clustering rules: 401 for wrong credentials",
    ]);
    expect(run.report?.checks.find((c) => c.status === "failed")?.failure?.message).toMatch(
      /^pact: status: expected 401, got 20[01]/,
    );
    expect(run.code).toBe(1);
  });

  it("says a body mismatch as expected, then got (Pact's own sentence names the provider's value first)", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS, faults: ["auth-wrong-error"] });
    const run = await verifyReport(against(provider, ["--pacts", PACTS, "--checks", "pact"]));
    const f = run.report?.checks.find((c) => c.status === "failed")?.failure;
    expect(f?.message).toBe(
      'pact: body $.error: expected "authentication_failed", got "unauthorized"',
    );
    expect(run.stdout).toContain(
      'body $.error: expected "authentication_failed", got "unauthorized"',
    );
    expect(run.code).toBe(1);
  });

  it("fills the status grid from the pact interactions in a pact-only run", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const run = await verifyReport(against(provider, ["--pacts", PACTS, "--checks", "pact"]));
    // What the fixture's 12 interactions expect: each documented client cell once.
    expect(run.report?.grid).toEqual({
      createSchema: { "201": 1, "400": 1, "401": 1, "422": 1 },
      pushToUserDevices: { "200": 1, "400": 1, "401": 1, "403": 1, "404": 1 },
      updateClusteringRules: { "200": 1, "401": 1, "422": 1 },
    });
    expect(run.stdout).not.toMatch(/createSchema\s+(none seen|\.\s+){5,}/);
    expect(run.code).toBe(0);
  });

  it("gives a failing interaction with a provider state its state setup command", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS, faults: ["no-404-403"] });
    const run = await verifyReport(against(provider, ["--checks", "pact"]));
    const f = run.report?.checks.find(
      (c) => c.id === "pact.push to user devices: 404 for an unknown login user",
    )?.failure;
    expect(f?.setup).toMatch(
      /^curl -sS -X POST '.*\/_pact\/provider-states' .*"state":"no login user exists"/,
    );
    expect(f?.exchange?.result).toMatchObject({ status: 200 });
    expect(run.code).toBe(1);
  });

  it("splits many interactions among instances of Pact's verifier, with the results of one", async () => {
    // 48 interactions: four consumers' copies, each with its own login user ids.
    const fixture = JSON.parse(
      readFileSync(join(PACTS, "idp-fixture-consumer-idp-service.json"), "utf8"),
    ) as { interactions: unknown[] };
    const dir = mkdtempSync(join(tmpdir(), "idp-pact-copies-"));
    const file = join(dir, "copies.json");
    writeFileSync(file, JSON.stringify(pactCopies(fixture, 4)));
    try {
      const runs = [];
      for (const threads of ["1", "2"]) {
        // auth-ignored: the 401 interactions fail, in whichever instance they ran.
        provider = await startHandProvider({ credentials: CREDENTIALS, faults: ["auth-ignored"] });
        runs.push(
          await verifyReport(
            against(provider, ["--pacts", file, "--checks", "pact", "--threads", threads]),
          ),
        );
        await provider.close();
        provider = undefined;
      }
      const [one, two] = runs;
      expect(one?.stderr).not.toMatch(/instances of Pact's verifier/);
      expect(two?.stderr).toMatch(
        /^pact: 48 interactions in 2 instances of Pact's verifier at once \(24 \+ 24;/m,
      );
      const outcome = (r: typeof one) => r?.report?.checks.map((c) => [c.id, c.status]);
      expect(outcome(two)).toEqual(outcome(one));
      expect(outcome(two)).toHaveLength(48);
      expect(failedIds(two?.report)).toHaveLength(12);
      expect(failedIds(two?.report).every((id) => id.includes(": 401 for wrong credentials"))).toBe(
        true,
      );
      expect(two?.code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is exit 2 when --checks names a pact interaction that does not exist", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const run = await runVerify(
      against(provider, ["--pacts", PACTS, "--checks", "pact.no such interaction"]),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/E_CONFIG: unknown check id "pact.no such interaction"/);
  });

  it("is exit 2, before the first request to the provider, when the broker cannot be read", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const run = await runVerify(
      against(provider, [
        "--broker-url",
        "http://127.0.0.1:9",
        "--checks",
        "pact",
        "--provider-branch",
        "main",
        "--enable-pending",
      ]),
    );
    expect(run.stderr).toMatch(
      /^idp-verify: E_PACT_UNREADABLE: cannot reach the Pact Broker at http:\/\/127\.0\.0\.1:9: ECONNREFUSED/,
    );
    expect(run.code).toBe(2);
    expect(provider.requests.count).toBe(0);
  });
});

describe("Pact's overall verdict", () => {
  const outcome = (result: boolean, ok: boolean[], pending: boolean[] = []) => ({
    result,
    interactions: ok.map((o, i) => ({
      description: `i${i}`,
      pending: pending[i] ?? false,
      ok: o,
      providerStates: [],
      mismatches: [],
    })),
  });

  it.each([
    [outcome(true, [true, true]), undefined],
    [outcome(false, [true, false]), undefined],
    [outcome(true, [true, false], [false, true]), undefined],
    [outcome(false, [true, true]), /failed the run but no interaction shows a failure/],
    [outcome(true, [false]), /passed the run although an interaction failed/],
  ])("must agree with the interactions: %j", (o, problem) => {
    const p = pactVerdictProblem(o);
    if (problem) expect(p).toMatch(problem);
    else expect(p).toBeUndefined();
  });
});
