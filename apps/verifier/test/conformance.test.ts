import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { VerifyReport } from "../src/index.ts";
import { type Fault, type RunningFake, startFakeProvider } from "./support/fake-provider.ts";
import { against, CREDENTIAL_TOKEN, CREDENTIALS, runVerify } from "./support/run.ts";

let fake: RunningFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const CONFORMANCE_ONLY = ["--checks", "R1,R2,R3,R4,R5,R6,R7,R8"];

async function verifyFake(
  faults: Fault[],
  mode: "strict" | "lenient" = "lenient",
  extra: string[] = [],
) {
  fake = await startFakeProvider({ ...CREDENTIALS, mode, faults, providerStates: true });
  return runVerify(against(fake.baseUrl, [...CONFORMANCE_ONLY, ...extra], fake.statesUrl));
}

function failedIds(stdout: string): string[] {
  return [...stdout.matchAll(/^ {2}✗ (\S+)/gm)].map((m) => m[1] ?? "");
}

describe("conformance checks against conforming providers", () => {
  it.each(["lenient", "strict"] as const)(
    "should pass a %s conforming provider with no failures",
    async (mode) => {
      // Act
      const run = await verifyFake([], mode);
      // Assert
      expect(failedIds(run.stdout)).toEqual([]);
      expect(run.stdout).toContain("PASSED: 18 passed, 0 failed, 0 skipped");
      expect(run.code).toBe(0);
    },
  );

  it("should report the login-user checks as skipped, with the reason, without --provider-states-url", async () => {
    // Arrange
    fake = await startFakeProvider({ ...CREDENTIALS, providerStates: true });
    // Act
    const run = await runVerify(against(fake.baseUrl, CONFORMANCE_ONLY));
    // Assert
    for (const id of ["R4.valid-accepted.pushToUserDevices", "R7.push-404", "R7.push-403"])
      expect(run.stdout).toMatch(
        new RegExp(`- ${id.replaceAll(".", "\\.")}.*skipped: needs --provider-states-url`),
      );
    expect(run.code).toBe(0);
  });
});

describe("conformance checks where the spec leaves the provider a choice", () => {
  it("should judge invalid push bodies as bodies even when the provider checks the user first", async () => {
    // Arrange: with provider states, R5 sends invalid bodies to a login user that exists.
    fake = await startFakeProvider({ ...CREDENTIALS, providerStates: true, userBeforeBody: true });
    // Act
    const run = await runVerify(
      against(fake.baseUrl, ["--checks", "R5.invalid-rejected.pushToUserDevices"], fake.statesUrl),
    );
    // Assert
    expect(run.stdout).toContain("1 passed, 0 failed");
    expect(run.stdout).toContain("0 warnings");
    expect(run.code).toBe(0);
  });
});

describe("conformance checks against providers broken on purpose", () => {
  it.each<[Fault, string[]]>([
    ["wrong-status", ["R3.documented-status", "R4.valid-accepted.createSchema"]],
    ["broken-error-body", ["R2.error-body"]],
    ["auth-ignored", ["R1.auth.no-header", "R1.auth.other-scheme", "R1.auth.wrong-password"]],
    ["auth-wrong-error", ["R1.auth.no-header", "R1.auth.wrong-user"]],
    ["invalid-accepted", ["R5.invalid-rejected.updateClusteringRules"]],
    ["crash-on-valid", ["R4.valid-accepted.pushToUserDevices", "R6.no-5xx"]],
    ["no-404-403", ["R7.push-404", "R7.push-403"]],
    ["body-on-success", ["R8.no-success-body"]],
    ["bad-base64-crash", ["R1.auth.bad-base64", "R6.no-5xx"]],
  ])("should exit 1 naming the rule when the provider has fault %s", async (fault, expected) => {
    // Act
    const run = await verifyFake([fault]);
    // Assert
    expect(run.code).toBe(1);
    const failed = failedIds(run.stdout);
    for (const id of expected) expect(failed).toContain(id);
    expect(run.stdout).toMatch(/curl: +curl -sS -i -X (POST|PUT) '/);
    expect(run.stdout).toMatch(/seed: +42/);
    expect(run.stdout).toMatch(/replay: +idp-verify --provider-url \S+ .*--checks R\d/);
    expect(run.stdout + run.stderr).not.toContain(CREDENTIALS.password);
    expect(run.stdout + run.stderr).not.toContain(CREDENTIAL_TOKEN);
  });

  it("should shrink a crash on a valid payload to the smallest body that triggers it", async () => {
    // Act
    const path = join(mkdtempSync(join(tmpdir(), "idp-verify-")), "report.json");
    await verifyFake(["crash-on-valid"], "lenient", ["--report", `json=${path}`]);
    // Assert
    const report = JSON.parse(readFileSync(path, "utf8")) as VerifyReport;
    const r4 = report.checks.find((c) => c.id === "R4.valid-accepted.pushToUserDevices");
    expect(r4?.failure?.message).toBe(
      "R4: a valid pushToUserDevices payload must get 200, got 500",
    );
    const body = JSON.parse(r4?.failure?.exchange?.request.body ?? "{}") as {
      data: Record<string, unknown>;
    };
    expect(body.data.title).toBe("");
    expect(body.data.message).toBe("");
    expect(r4?.failure?.exchange?.request.headers.authorization).toBe("Basic <redacted>");
    expect(r4?.failure?.curl).toContain(`-u "$IDP_USERNAME:$IDP_PASSWORD"`);
    expect(r4?.failure?.setup).toMatch(
      /--data-binary '\{"state":"a login user exists","params":\{"id":"idpv-[0-9a-f]+-r4-[\w-]+"\},"action":"setup"\}'/,
    );
    expect(r4?.failure?.exchange?.result).toMatchObject({
      kind: "response",
      status: 500,
      contentType: "application/json; charset=utf-8",
    });
  });

  it("should warn, not fail, when an invalid payload gets a documented 4xx other than the pinned one", async () => {
    // Act
    const run = await verifyFake(["other-4xx"]);
    // Assert
    expect(run.stdout).toMatch(
      /⚠ R5: pushToUserDevices answered 404 to \S+; the pinned status \(§3\) is 400/,
    );
    expect(failedIds(run.stdout)).toEqual([]);
    expect(run.code).toBe(0);
  });
});
