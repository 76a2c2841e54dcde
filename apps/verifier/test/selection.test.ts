// conformance.md §5: exit 0 only when every selected check ran to completion and passed; what the
// options do not allow is named with the option that enables it; bad setups are exit 2 before the
// first request to the provider.
import { chmodSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningProvider, startHandProvider, startHostile } from "@idp/fault-providers";
import { afterEach, describe, expect, it } from "vitest";
import { against, CREDENTIALS, runVerify, verifyReport } from "./support/run.ts";

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const STATE_CHECKS = ["R4.valid-accepted.pushToUserDevices", "R7.push-404", "R7.push-403"];
const STATE_PACTS = [
  "pact.create schema: 201 for a valid schema",
  "pact.push to user devices: 200 for a valid notification to a login user",
  "pact.push to user devices: 403 for a login user of another login app",
  "pact.push to user devices: 404 for an unknown login user",
];

describe("selection", () => {
  it("without --checks, runs what the options allow and names the rest with the option that enables it", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const run = await verifyReport(against(provider, [], { states: false }));
    expect(run.report?.leftOut.map((l) => l.id).sort()).toEqual(
      [...STATE_CHECKS, ...STATE_PACTS].sort(),
    );
    for (const l of run.report?.leftOut ?? []) expect(l.enabledBy).toBe("--provider-states-url");
    // The stateless push pacts run without states.
    expect(run.report?.checks.map((c) => c.id)).toContain(
      "pact.push to user devices: 400 for a malformed notification",
    );
    expect(run.report?.checks.map((c) => c.id)).toContain(
      "pact.push to user devices: 401 for wrong credentials",
    );
    expect(run.report?.summary).toMatchObject({ failed: 0, leftOut: 7 });
    expect(run.stdout).toMatch(
      /^PASSED: \d+ passed, 0 failed \(exit 0\); not checked: 7 left out \(.*R7\.push-404.*\): need --provider-states-url$/m,
    );
    expect(run.code).toBe(0);
  });

  it("is exit 2 when a check named in --checks cannot run", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const run = await runVerify(against(provider, ["--checks", "R7.push-404"], { states: false }));
    expect(run.stderr).toMatch(
      /^idp-verify: E_CHECK_UNAVAILABLE: check R7\.push-404 was asked for .* needs --provider-states-url/,
    );
    expect(run.code).toBe(2);
    expect(provider.requests.count).toBe(0);
  });

  it("stops at --max-duration with the checks incomplete (exit 2), runs done of asked", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const run = await verifyReport(
      against(provider, ["--checks", "R6", "--max-duration", "3", "--concurrency", "1"], {
        runs: 1_000_000,
      }),
    );
    const check = run.report?.checks.find((c) => c.id === "R6.no-5xx");
    expect(check?.status).toBe("incomplete");
    expect(check?.runs.asked).toBe(1_000_000);
    expect(check?.runs.done).toBeGreaterThan(0);
    expect(check?.reason).toMatch(
      /^stopped by the time limit \(--max-duration 3 s\) after \d+ of 1000000 runs$/,
    );
    expect(run.stdout).toMatch(/^COULD NOT VERIFY: 0 passed, 0 failed, 1 incomplete \(exit 2\)$/m);
    expect(run.code).toBe(2);
  });
});

describe("bad setups are exit 2 before the first request to the provider", () => {
  it("an explicit pact folder without pacts", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const empty = mkdtempSync(join(tmpdir(), "idp-no-pacts-"));
    const run = await runVerify(against(provider, ["--pacts", empty]));
    expect(run.stderr).toMatch(/^idp-verify: E_NO_PACTS: no pact files \(\*\.json\) in /);
    expect(run.code).toBe(2);
    expect(provider.requests.count).toBe(0);
  });

  it("a report path that cannot be written", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const dir = mkdtempSync(join(tmpdir(), "idp-ro-"));
    mkdirSync(join(dir, "ro"));
    chmodSync(join(dir, "ro"), 0o500);
    const target = process.getuid?.() === 0 ? join(dir, "ro") : join(dir, "ro", "r.json"); // root writes anywhere: use a directory
    const run = await runVerify(against(provider, ["--report", `json=${target}`]));
    expect(run.stderr).toMatch(/^idp-verify: E_REPORT_WRITE: cannot write the json report to /);
    expect(run.code).toBe(2);
    expect(provider.requests.count).toBe(0);
  });

  it("a base address without /v1 (404 to all three operations) gets the hint", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const run = await runVerify(
      against({ baseUrl: provider.baseUrl.replace(/\/v1$/, "") }, [], { states: false }),
    );
    expect(run.stderr).toMatch(
      /E_PROVIDER_NOT_FOUND: .* answers 404 to all three operations: is \/v1 the end of the base address\?/,
    );
    expect(run.code).toBe(2);
  });

  it("a provider state without a handler, named once", async () => {
    provider = await startHandProvider({
      credentials: CREDENTIALS,
      missingStates: ["no login user exists"],
    });
    const run = await runVerify(against(provider));
    expect(run.stderr).toMatch(
      /^idp-verify: E_STATE_HANDLER: the provider has no working handler for provider state "no login user exists"/,
    );
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.code).toBe(2);
  });

  it("a provider that is not there", async () => {
    const nothing = await startHostile("refused");
    const run = await runVerify(against(nothing, [], { states: false }));
    expect(run.stderr).toMatch(
      /^idp-verify: E_PROVIDER_UNREACHABLE: the provider at \S+ did not answer \(ECONNREFUSED/,
    );
    expect(run.code).toBe(2);
    await nothing.close();
  });
});
