import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { VerifyReport } from "../src/index.ts";
import { type RunningFake, startFakeProvider } from "./support/fake-provider.ts";
import { against, CREDENTIAL_TOKEN, CREDENTIALS, runVerify } from "./support/run.ts";

const PACTS = fileURLToPath(new URL("./fixtures/pacts/", import.meta.url));

let fake: RunningFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("reports", () => {
  it("should write json, junit and html reports that never contain the credentials", async () => {
    // Arrange: faults make every failure path print requests, including credential-bearing ones
    fake = await startFakeProvider({
      ...CREDENTIALS,
      providerStates: true,
      faults: ["auth-ignored", "crash-on-valid"],
    });
    const dir = mkdtempSync(join(tmpdir(), "idp-verify-reports-"));
    const files = {
      json: join(dir, "r.json"),
      junit: join(dir, "nested", "r.xml"),
      html: join(dir, "r.html"),
    };
    // Act
    const run = await runVerify(
      against(
        fake.baseUrl,
        [
          "--pacts",
          PACTS,
          "--report",
          `json=${files.json}`,
          "--report",
          `junit=${files.junit}`,
          "--report",
          `html=${files.html}`,
        ],
        fake.statesUrl,
      ),
    );
    // Assert
    expect(run.code).toBe(1);
    const json = readFileSync(files.json, "utf8");
    const junit = readFileSync(files.junit, "utf8");
    const html = readFileSync(files.html, "utf8");
    const report = JSON.parse(json) as VerifyReport;
    expect(report.exitCode).toBe(1);
    expect(report.checks.filter((c) => c.kind === "pact")).toHaveLength(12);
    expect(report.checks.filter((c) => c.kind === "conformance")).toHaveLength(18);
    expect(junit.match(/<testcase /g)).toHaveLength(30);
    expect(junit).toMatch(
      /<testcase classname="conformance.R1" name="R1.auth.other-scheme" time="[\d.]+">\s+<failure message="R1: a request without acceptable credentials must get 401, got \d+"/,
    );
    expect(junit).toMatch(
      /<testcase classname="pact" name="pact.create schema: 401 for wrong credentials"/,
    );
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|src=/);
    expect(html).toContain("R4.valid-accepted.pushToUserDevices");
    for (const text of [json, junit, html, run.stdout, run.stderr]) {
      expect(text).not.toContain(CREDENTIALS.password);
      expect(text).not.toContain(CREDENTIAL_TOKEN);
    }
    expect(report.grid.createSchema?.["201"]).toBeGreaterThan(0);
  });
});
