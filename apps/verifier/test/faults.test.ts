// The verifier against providers written by hand (@idp/fault-providers: node:http, no @idp/*
// code): conforming ones pass on several seeds, each fault is caught by the checks that own it.
import { type Fault, type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterEach, describe, expect, it } from "vitest";
import { AUTH_VARIANTS } from "../src/rules/auth.ts";
import { against, CREDENTIALS, failedIds, verifyReport } from "./support/run.ts";

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const CONFORMANCE = ["--checks", "R1,R2,R3,R4,R5,R6,R7,R8"];
const R1_ALL = AUTH_VARIANTS.map((v) => `R1.auth.${v}`);

describe("conforming providers written by hand", () => {
  it.each([
    ["the default reading", {}],
    ["one that keeps schema names unique (conformance.md §1)", { uniqueNames: true }],
    ["one that accepts a missing field (unspecified, §2)", { missingField: "accept" as const }],
  ])("%s passes pacts and every check on three seeds", async (_, options) => {
    for (const seed of [1, 2, 3]) {
      provider = await startHandProvider({ credentials: CREDENTIALS, ...options });
      const run = await verifyReport(against(provider, [], { seed }));
      expect(failedIds(run.report), `seed ${seed}`).toEqual([]);
      expect(run.report?.summary).toMatchObject({ failed: 0, incomplete: 0, error: 0, leftOut: 0 });
      expect(run.report?.summary.passed).toBe(30);
      expect(run.code, run.stdout).toBe(0);
      await provider.close();
      provider = undefined;
    }
  });

  it("says so, as a warning, when a provider keeps names unique, and gives the tenth run's verdict on one database", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS, uniqueNames: true });
    for (let run = 1; run <= 10; run++) {
      const r = await verifyReport(
        against(
          provider,
          ["--checks", "R4.valid-accepted.createSchema,pact.create schema: 201 for a valid schema"],
          { runs: 20, seed: 7 },
        ),
      );
      expect(r.code, `run ${run}: ${r.stdout}`).toBe(0);
      if (run > 1) {
        const check = r.report?.checks.find((c) => c.id === "R4.valid-accepted.createSchema");
        expect(check?.warnings[0]?.message).toMatch(
          /refuses names it already holds \(allowed, conformance\.md §1\)/,
        );
      }
    }
  });
});

interface FaultCase {
  readonly fault: Fault;
  /** Checks that must fail. */
  readonly caught: readonly string[];
  /** Rules a failing conformance check may belong to (anything else is a false positive). */
  readonly rules: readonly string[];
  /** Faults only rare stressed bodies reveal (about 1 case in 130 for a long valid string) get more runs, on R6 alone. */
  readonly runs?: number;
}

const CASES: readonly FaultCase[] = [
  {
    fault: "crash-on-empty-name",
    caught: ["R4.valid-accepted.createSchema", "R6.no-5xx"],
    rules: ["R4", "R6"],
  },
  { fault: "body-before-credentials", caught: R1_ALL, rules: ["R1"] },
  { fault: "crash-on-deep-nesting", caught: ["R6.no-5xx"], rules: ["R6"] },
  { fault: "swap-400-422", caught: ["R5.invalid-rejected.createSchema"], rules: ["R5"] },
  {
    fault: "wrong-status",
    caught: ["R3.documented-status", "R4.valid-accepted.createSchema"],
    rules: ["R3", "R4"],
  },
  { fault: "broken-error-body", caught: ["R2.error-body"], rules: ["R2"] },
  { fault: "auth-ignored", caught: R1_ALL, rules: ["R1", "R5", "R4", "R7"] },
  { fault: "auth-wrong-error", caught: R1_ALL, rules: ["R1"] },
  {
    fault: "invalid-accepted",
    caught: ["R5.invalid-rejected.updateClusteringRules"],
    rules: ["R5"],
  },
  { fault: "other-4xx", caught: ["R5.invalid-rejected.pushToUserDevices"], rules: ["R5"] },
  {
    fault: "crash-on-valid",
    caught: ["R4.valid-accepted.pushToUserDevices", "R6.no-5xx"],
    rules: ["R4", "R6", "R7", "R8"],
  },
  { fault: "no-404-403", caught: ["R7.push-404", "R7.push-403"], rules: ["R7"] },
  { fault: "body-on-success", caught: ["R8.no-success-body"], rules: ["R8"] },
  { fault: "bad-base64-crash", caught: ["R1.auth.bad-base64", "R6.no-5xx"], rules: ["R1", "R6"] },
  { fault: "password-prefix", caught: ["R1.auth.wrong-password"], rules: ["R1"] },
  { fault: "username-case-insensitive", caught: ["R1.auth.wrong-user"], rules: ["R1"] },
  {
    fault: "crash-on-large-integer",
    caught: ["R4.valid-accepted.pushToUserDevices", "R6.no-5xx"],
    rules: ["R4", "R6", "R7", "R8"],
  },
  { fault: "crash-on-long-string", caught: ["R6.no-5xx"], rules: ["R6"], runs: 600 },
  { fault: "crash-on-astral", caught: ["R6.no-5xx"], rules: ["R4", "R6", "R7", "R8"] },
  { fault: "crash-on-unknown-key", caught: ["R6.no-5xx"], rules: ["R4", "R6"] },
  { fault: "reject-empty-fields", caught: ["R4.valid-accepted.createSchema"], rules: ["R4"] },
  {
    fault: "states-ignored",
    caught: ["R4.valid-accepted.pushToUserDevices", "R7.push-403"],
    rules: ["R4", "R7", "R8"],
  },
];

describe("a reading the pinned order rules out", () => {
  it("fails only the push 400 pact when the provider checks the login user before the body (§3's order)", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS, userBeforeBody: true });
    const run = await verifyReport(against(provider));
    expect(failedIds(run.report)).toEqual([
      "pact.push to user devices: 400 for a malformed notification",
    ]);
    expect(run.code).toBe(1);
  });
});

describe("providers broken on purpose", () => {
  it.each(CASES)("$fault is caught by $caught", async ({ fault, caught, rules, runs = 30 }) => {
    provider = await startHandProvider({ credentials: CREDENTIALS, faults: [fault] });
    // Which checks fail is known before shrinking starts; the cited case is the first found.
    // 30 runs: every fault here but the long string is caught by seed 42 within 12 (checked when
    // this was lowered from 60), and the false positives the rules list guards against are what
    // the conforming providers above are run for, on three seeds.
    const run = await verifyReport(
      against(provider, [...(runs > 30 ? ["--checks", "R6"] : CONFORMANCE), "--no-shrink"], {
        runs,
      }),
    );
    const failed = failedIds(run.report);
    expect(failed, run.stdout).toEqual(expect.arrayContaining([...caught]));
    for (const id of failed)
      expect(rules, `${id} failed: ${run.stdout}`).toContain(id.split(".")[0]);
    // Every failure names its rule, its source and the exchange that shows it.
    for (const c of run.report?.checks.filter((x) => x.status === "failed") ?? []) {
      expect(c.failure?.source?.source).toMatch(/^(spec|pinned|profile)$/);
      expect(c.failure?.exchange?.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\//);
    }
    expect(run.code).toBe(1);
  });

  it("reports the pact interactions a fault breaks, with the exchange and a curl line", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS, faults: ["swap-400-422"] });
    const run = await verifyReport(against(provider, ["--checks", "pact"]));
    const failed = run.report?.checks.filter((c) => c.status === "failed") ?? [];
    expect(failed.map((c) => c.id).sort()).toEqual([
      "pact.create schema: 400 for a malformed body",
      "pact.create schema: 422 for a schema with a field of the wrong type",
    ]);
    const f = failed[0]?.failure;
    expect(f?.mismatches?.find((m) => m.type === "status")).toMatchObject({
      expected: "400",
      actual: "422",
    });
    expect(f?.exchange?.result).toMatchObject({ kind: "response", status: 422 });
    expect(f?.curl).toMatch(
      /^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/v1\/marketing\/datastore\/schemas' /,
    );
    expect(f?.curl).toContain(`-u "$IDP_USERNAME:$IDP_PASSWORD"`);
    expect(run.code).toBe(1);
  });
});
