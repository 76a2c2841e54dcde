import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../src/config.ts";
import { type RunningFake, startFakeProvider } from "./support/fake-provider.ts";
import { against, CREDENTIAL_TOKEN, CREDENTIALS, runVerify } from "./support/run.ts";

let fake: RunningFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("parseConfig", () => {
  it("should take credentials from the environment and repeatable --pacts and --report", () => {
    // Act
    const r = parseConfig(
      [
        "--provider-url",
        "http://127.0.0.1:1/v1/",
        "--pacts",
        "a.json",
        "--pacts",
        "dir",
        "--report",
        "json=r.json",
        "--report",
        "junit=r.xml",
        "--checks",
        "R1,R5.invalid-rejected",
      ],
      { IDP_USERNAME: "u", IDP_PASSWORD: "p" },
    );
    // Assert
    expect(r.help).toBe(false);
    if (r.help) return;
    expect(r.config.providerUrl).toBe("http://127.0.0.1:1/v1");
    expect(r.config.credentials).toEqual({ username: "u", password: "p" });
    expect(r.config.pacts).toHaveLength(2);
    expect(r.config.reports.map((x) => x.format)).toEqual(["json", "junit"]);
    expect(r.config.checks).toEqual(["R1", "R5.invalid-rejected"]);
  });

  it("should default to the embedded provider and the repo's pacts", () => {
    const r = parseConfig([], {});
    expect(r.help || r.config.providerUrl).toBeUndefined();
    expect(r.help || r.config.defaultPacts).toBe(true);
  });
});

describe("idp-verify command line", () => {
  it.each([
    [["--nope"], /E_CONFIG: Unknown option '--nope'/],
    [["--runs", "zero"], /E_CONFIG: --runs must be an integer/],
    [["--runs", "0"], /E_CONFIG: --runs must be >= 1/],
    [["--checks", "R9"], /E_CONFIG: unknown check id "R9"/],
    [["--report", "xml=out.xml"], /E_CONFIG: --report must be FORMAT=PATH/],
    [["--provider-url", "http://127.0.0.1:9/v1"], /E_CONFIG: --provider-url needs credentials/],
    [
      ["--provider-url", "ftp://x/v1", "--username", "u", "--password", "p"],
      /E_CONFIG: --provider-url must be an http\(s\) URL/,
    ],
    [
      ["--consumer-version-selectors", "[]"],
      /E_CONFIG: --consumer-version-selectors needs --broker-url/,
    ],
    [
      ["--publish-verification-results"],
      /E_CONFIG: --publish-verification-results needs --provider-version/,
    ],
    [["positional"], /E_CONFIG: Unexpected argument 'positional'/],
  ])("should exit 2 with one line for %j", async (args, message) => {
    // Act
    const run = await runVerify(args);
    // Assert
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n")[0]).toMatch(message);
    expect(run.stderr.trim().split("\n")).toHaveLength(2);
  });

  it("should print usage with --help and exit 0", async () => {
    const run = await runVerify(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: idp-verify [--provider-url URL]");
  });

  it("should exit 2 for an unreadable pact", async () => {
    // Arrange
    fake = await startFakeProvider({ ...CREDENTIALS });
    // Act
    const missing = await runVerify(against(fake.baseUrl, ["--pacts", "/nonexistent/pacts"]));
    const notJson = await runVerify(
      against(fake.baseUrl, ["--pacts", fileURLToPath(import.meta.url)]),
    );
    // Assert
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /E_PACT_UNREADABLE: cannot read pact path \/nonexistent\/pacts: ENOENT/,
    );
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/E_PACT_UNREADABLE: pact \S+cli.test.ts is not readable JSON/);
  });

  it("should run as a spawned binary: exit 1, the result on stdout, progress on stderr, no secret", async () => {
    // Arrange
    fake = await startFakeProvider({ ...CREDENTIALS, faults: ["auth-ignored"] });
    const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
    // Act
    // Async: the fake provider lives in this process and must keep answering.
    const child = await promisify(execFile)(
      process.execPath,
      [
        "--conditions=@idp/source",
        cli,
        ...against(fake.baseUrl, ["--checks", "R1.auth.no-header"]).filter(
          (a) => a !== "--password" && a !== CREDENTIALS.password,
        ),
      ],
      {
        encoding: "utf8",
        env: { ...process.env, IDP_PASSWORD: CREDENTIALS.password, NODE_NO_WARNINGS: "1" },
        timeout: 30_000,
      },
    ).then(
      (r) => ({ status: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({
        status: e.code,
        stdout: e.stdout,
        stderr: e.stderr,
      }),
    );
    // Assert
    expect(child.status).toBe(1);
    expect(child.stdout).toMatch(/^idp-verify: http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(child.stdout).toContain("✗ R1.auth.no-header");
    expect(child.stderr).toContain("verifying http://127.0.0.1");
    expect(child.stdout + child.stderr).not.toContain(CREDENTIALS.password);
    expect(child.stdout + child.stderr).not.toContain(CREDENTIAL_TOKEN);
  });
});
