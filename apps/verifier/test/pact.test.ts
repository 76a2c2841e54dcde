import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeProviderOptions,
  type RunningFake,
  startFakeProvider,
} from "./support/fake-provider.ts";
import { against, CREDENTIAL_TOKEN, CREDENTIALS, runVerify } from "./support/run.ts";

const PACTS = fileURLToPath(new URL("./fixtures/pacts/", import.meta.url));
const PLACEHOLDER = `Basic ${Buffer.from("pact-placeholder-user:pact-placeholder-password").toString("base64")}`;
const WRONG = `Basic ${Buffer.from("pact-wrong-user:pact-wrong-password").toString("base64")}`;

let fake: RunningFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function verifyPacts(options: Partial<FakeProviderOptions>, withStates = true) {
  fake = await startFakeProvider({ ...CREDENTIALS, providerStates: true, ...options });
  return runVerify(
    against(
      fake.baseUrl,
      ["--pacts", PACTS, "--checks", "pact"],
      withStates ? fake.statesUrl : undefined,
    ),
  );
}

describe("pact verification with Pact's Verifier", () => {
  it("should verify every interaction of a conforming provider, with the placeholder credential replaced", async () => {
    // Act
    const run = await verifyPacts({});
    // Assert
    expect(run.stdout.match(/^ {2}✓ pact\./gm)).toHaveLength(12);
    expect(run.code).toBe(0);
    const sent =
      fake?.requests.filter((r) => r.url.startsWith("/v1/")).map((r) => r.authorization) ?? [];
    expect(sent).not.toContain(PLACEHOLDER);
    expect(sent).toContain(`Basic ${CREDENTIAL_TOKEN}`);
    expect(sent).toContain(WRONG);
  });

  it("should fail the 401 interactions of a provider that ignores credentials (wrong ones are not replaced)", async () => {
    // Act
    const run = await verifyPacts({ faults: ["auth-ignored"] });
    // Assert
    expect(run.code).toBe(1);
    const failed = [...run.stdout.matchAll(/^ {2}✗ (pact\..+)$/gm)].map((m) => m[1]);
    expect(failed).toEqual([
      "pact.create schema: 401 for wrong credentials",
      "pact.push to user devices: 401 for wrong credentials",
      "pact.update clustering rules: 401 for wrong credentials",
    ]);
    expect(run.stdout).toMatch(/pact mismatch: .*401/);
  });

  it("should fail an interaction whose provider state has no handler, with the reason", async () => {
    // Act
    const run = await verifyPacts({ missingStates: ["a login user of another login app exists"] });
    // Assert
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /✗ pact\.push to user devices: 403 for a login user of another login app\n\s+provider state setup failed: no handler for provider state "a login user of another login app exists": setup of state "a login user of another login app exists" answered 400/,
    );
    expect(run.stdout).toMatch(/✓ pact\.push to user devices: 404 for an unknown login user/);
  });

  it("should skip interactions with provider states when --provider-states-url is absent", async () => {
    // Act
    const run = await verifyPacts({}, false);
    // Assert
    expect(run.stdout).toMatch(
      /- pact\.push to user devices: 404 for an unknown login user +skipped: needs --provider-states-url/,
    );
    expect(run.stdout).toMatch(/✓ pact\.create schema: 201 for a valid schema/);
    expect(run.code).toBe(0);
  });

  it("should exit 2 when --checks names a pact interaction that does not exist", async () => {
    fake = await startFakeProvider({ ...CREDENTIALS });
    const run = await runVerify(
      against(fake.baseUrl, ["--pacts", PACTS, "--checks", "pact.no such interaction"]),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/E_CONFIG: unknown check id "pact.no such interaction"/);
  });
});

describe("pacts from a broker", () => {
  it("should exit 2 when the broker cannot be read", async () => {
    // Arrange
    fake = await startFakeProvider({ ...CREDENTIALS });
    // Act
    const run = await runVerify(
      against(fake.baseUrl, [
        "--broker-url",
        "http://127.0.0.1:9",
        "--checks",
        "pact",
        "--consumer-version-selectors",
        '[{"mainBranch":true}]',
        "--enable-pending",
        "--include-wip-pacts-since",
        "2025-01-01",
        "--provider-branch",
        "main",
      ]),
    );
    // Assert
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /E_PACT_UNREADABLE: Pact's verifier could not load the pacts: No pacts found for provider 'idp-service'/,
    );
  });
});
