import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type BrokerStub, type ServedPact, startBrokerStub } from "./support/broker-stub.ts";
import { type RunningFake, startFakeProvider } from "./support/fake-provider.ts";
import { against, CREDENTIALS, runVerify } from "./support/run.ts";

// The committed pact, as packages/pact-consumer writes it; the broker serves it unchanged.
const COMMITTED = JSON.parse(
  readFileSync(
    fileURLToPath(new URL("../../../pacts/idp-toolkit-consumer-idp-service.json", import.meta.url)),
    "utf8",
  ),
) as { consumer: { name: string }; interactions: { description: string; response: unknown }[] };

const BROKEN = "create schema: 200 for a valid schema (the provider answers 201)";

/** A newer consumer's pact that the reference provider breaks: it expects 200 where 201 comes. */
function brokenPact(): Record<string, unknown> {
  const valid = COMMITTED.interactions.find(
    (i) => i.description === "create schema: 201 for a valid schema",
  );
  return {
    ...COMMITTED,
    consumer: { name: "idp-next-consumer" },
    interactions: [{ ...valid, description: BROKEN, response: { status: 200 } }],
  };
}

const TOKEN = "broker-t0ken-never-printed";

let stub: BrokerStub | undefined;
let fake: RunningFake | undefined;
let tmp: string | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  await fake?.close();
  fake = undefined;
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

async function serve(pacts: readonly ServedPact[], options: { failPublish?: boolean } = {}) {
  stub = await startBrokerStub({ pacts, token: TOKEN, ...options });
  return stub;
}

/** idp-verify against the embedded reference provider, pacts only, from the stub broker. */
function fromBroker(broker: BrokerStub, ...extra: string[]) {
  return runVerify([
    "--checks",
    "pact",
    "--broker-url",
    broker.baseUrl,
    "--broker-token",
    TOKEN,
    "--consumer-version-selectors",
    '[{"mainBranch":true}]',
    ...extra,
  ]);
}

const forVerificationBody = (broker: BrokerStub): unknown => {
  const post = broker.requests.find(
    (r) => r.method === "POST" && r.url.endsWith("/for-verification"),
  );
  return post ? JSON.parse(post.body) : undefined;
};

describe("idp-verify with pacts from a Pact Broker", () => {
  it("should fetch the pacts matching the consumer version selectors and verify them", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }]);
    // Act
    const run = await fromBroker(broker);
    // Assert
    expect(run.code).toBe(0);
    expect(run.stdout.match(/^ {2}✓ pact\./gm)).toHaveLength(COMMITTED.interactions.length);
    expect(run.stdout).toMatch(/✓ pact\.push to user devices: 200 for a valid notification/);
    expect(broker.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /",
      "GET /pacts/provider/idp-service/for-verification",
      "POST /pacts/provider/idp-service/for-verification",
      `GET ${new URL(broker.pactHrefs[0] ?? "").pathname}`,
    ]);
    // Pact always sends a branch; "" when none is given.
    expect(forVerificationBody(broker)).toEqual({
      consumerVersionSelectors: [{ mainBranch: true }],
      includePendingStatus: false,
      providerVersionBranch: "",
    });
  });

  it("should ask for pending status and WIP pacts for the provider branch when asked", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }]);
    // Act
    const run = await fromBroker(
      broker,
      "--enable-pending",
      "--include-wip-pacts-since",
      "2025-01-01",
      "--provider-branch",
      "main",
    );
    // Assert
    expect(run.code).toBe(0);
    expect(forVerificationBody(broker)).toEqual({
      consumerVersionSelectors: [{ mainBranch: true }],
      includePendingStatus: true,
      includeWipPactsSince: "2025-01-01",
      providerVersionBranch: "main",
    });
  });

  it("should send the token as a bearer token on every request and never print or report it", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }]);
    tmp = mkdtempSync(join(tmpdir(), "idp-verify-broker-"));
    const report = join(tmp, "report.json");
    // Act
    const run = await fromBroker(broker, "--report", `json=${report}`);
    // Assert
    expect(run.code).toBe(0);
    expect(broker.requests.length).toBeGreaterThan(0);
    for (const r of broker.requests) expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    for (const text of [run.stdout, run.stderr, readFileSync(report, "utf8")])
      expect(text).not.toContain(TOKEN);
  });

  it("should exit 2 without printing the token when the broker rejects it and echoes it back", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }]);
    const wrong = "wrong-t0ken-from-env";
    // Act
    const run = await runVerify(["--checks", "pact", "--broker-url", broker.baseUrl], {
      PACT_BROKER_TOKEN: wrong,
    });
    // Assert
    expect(run.code).toBe(2);
    expect(broker.requests[0]?.headers.authorization).toBe(`Bearer ${wrong}`);
    expect(run.stderr).toMatch(/^idp-verify: E_PACT_UNREADABLE: .*401/m);
    expect(`${run.stdout}${run.stderr}`).not.toContain(wrong);
  });

  it("should publish the results with the provider version and branch to the pact's publish link", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }]);
    // Act
    const run = await fromBroker(
      broker,
      "--publish-verification-results",
      "--provider-version",
      "1.2.3",
      "--provider-branch",
      "main",
    );
    // Assert
    expect(run.code).toBe(0);
    expect(forVerificationBody(broker)).toMatchObject({ providerVersionBranch: "main" });
    const published = broker.requests.filter(
      (r) => r.method === "POST" && `${broker.baseUrl}${r.url}` === broker.publishHrefs[0],
    );
    expect(published).toHaveLength(1);
    expect(JSON.parse(published[0]?.body ?? "")).toMatchObject({
      success: true,
      providerApplicationVersion: "1.2.3",
    });
    expect(broker.requests.map((r) => `${r.method} ${r.url}`)).toContain(
      "PUT /pacticipants/idp-service/branches/main/versions/1.2.3",
    );
  });

  it("should not publish anything unless asked", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }]);
    // Act
    const run = await fromBroker(broker);
    // Assert
    expect(run.code).toBe(0);
    expect(
      broker.requests.filter((r) => r.method !== "GET" && !r.url.endsWith("/for-verification")),
    ).toEqual([]);
  });

  it("should exit 2 with the broker's reason when publishing the results fails", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }], { failPublish: true });
    // Act
    const run = await fromBroker(
      broker,
      "--publish-verification-results",
      "--provider-version",
      "1.2.3",
    );
    // Assert
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(
      /! pact\.publish-verification-results +could not verify: Publishing of verification results failed.*403/,
    );
    expect(run.stdout).toMatch(/✓ pact\.create schema: 201 for a valid schema/);
  });

  it("should warn about a failing pending pact without failing the run", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }, { pact: brokenPact(), pending: true }]);
    // Act
    const run = await fromBroker(broker, "--enable-pending", "--provider-branch", "main");
    // Assert
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`✓ pact.${BROKEN}`);
    expect(run.stdout).toMatch(/pending pact failed \(not counted\): .*expected 200 but was 201/);
    expect(run.stdout).toMatch(/0 failed, .* 1 warnings/);
  });

  it("should fail the run when the same pact is not pending", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }, { pact: brokenPact(), pending: false }]);
    // Act
    const run = await fromBroker(broker, "--enable-pending", "--provider-branch", "main");
    // Assert
    expect(run.code).toBe(1);
    expect([...run.stdout.matchAll(/^ {2}✗ (pact\..+)$/gm)].map((m) => m[1])).toEqual([
      `pact.${BROKEN}`,
    ]);
    expect(run.stdout).toMatch(/pact mismatch: .*expected 200 but was 201/);
  });

  it("should forward the states of a broker's pacts to --provider-states-url, and say so when it is absent", async () => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }]);
    fake = await startFakeProvider({ ...CREDENTIALS, providerStates: true });
    const args = ["--checks", "pact", "--broker-url", broker.baseUrl, "--broker-token", TOKEN];
    // Act
    const withStates = await runVerify(against(fake.baseUrl, args, fake.statesUrl));
    const without = await runVerify(against(fake.baseUrl, args));
    // Assert
    expect(withStates.code).toBe(0);
    expect(fake.requests.map((r) => r.url)).toContain("/_pact/provider-states");
    expect(without.code).toBe(1);
    expect(without.stdout).toMatch(
      /✗ pact\.push to user devices: 200 for a valid notification to a login user\n\s+pact mismatch: .*\(provider state "a login user exists" was not set up: no --provider-states-url\)/,
    );
  });

  it.each([
    [
      "--publish-verification-results without --provider-version",
      ["--publish-verification-results"],
      "--provider-version",
    ],
    [
      "--consumer-version-selectors that is not JSON",
      ["--consumer-version-selectors", '[{"mainBranch":true}'],
      "--consumer-version-selectors",
    ],
    [
      "--consumer-version-selectors that is not an object",
      ["--consumer-version-selectors", '"main"'],
      "--consumer-version-selectors",
    ],
    [
      "--enable-pending without --provider-branch (a broker refuses pending without a branch)",
      ["--enable-pending"],
      "--provider-branch",
    ],
    ["--provider-branch that is blank", ["--provider-branch", " "], "--provider-branch"],
  ])("should exit 2 with one line naming the flag for %s", async (_, extra, flag) => {
    // Arrange
    const broker = await serve([{ pact: COMMITTED }]);
    // Act
    const run = await runVerify(["--checks", "pact", "--broker-url", broker.baseUrl, ...extra]);
    // Assert
    expect(run.code).toBe(2);
    const errors = run.stderr.split("\n").filter((l) => l.startsWith("idp-verify: "));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^idp-verify: E_CONFIG: /);
    expect(errors[0]).toContain(flag);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe("");
    expect(broker.requests).toEqual([]);
  });
});
