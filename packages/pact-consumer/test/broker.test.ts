// The broker scripts, run for real: our code spawns the official `pact-broker` CLI, which talks
// to a local stub that speaks the broker's publish and matrix API (no broker can run here).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  canIDeploy,
  PACT_CONSUMER,
  PACT_FILE,
  PACT_PROVIDER,
  PACTS_DIR,
  PactsCliError,
  publishPacts,
  readBrokerSettings,
} from "../src/index.ts";
import { type BrokerStub, startBrokerStub } from "./support/broker-stub.ts";

const TOKEN = "stub-token-never-printed";
const CLI = fileURLToPath(new URL("../src/pacts-cli.ts", import.meta.url));
const quiet = () => {};

let stub: BrokerStub;
beforeAll(async () => {
  stub = await startBrokerStub();
});
afterAll(async () => {
  await stub.close();
});
beforeEach(() => {
  stub.requests.length = 0;
  stub.deployable = true;
});

/** Only what the CLI needs; PACT_BROKER_HTTP_RETRIES=0 keeps failures fast. */
function brokerEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    PACT_BROKER_HTTP_RETRIES: "0",
    PACT_BROKER_BASE_URL: stub.baseUrl,
    PACT_BROKER_TOKEN: TOKEN,
    ...extra,
  };
}

interface PublishBody {
  pacticipantName: string;
  pacticipantVersionNumber: string;
  branch: string;
  contracts: {
    consumerName: string;
    providerName: string;
    specification: string;
    contentType: string;
    content: string;
  }[];
}

/**
 * The CLI parses each pact with its own Pact models and re-serialises it (compact JSON, and
 * `metadata.pactRust.models` stamped with the CLI's models version); everything else, every
 * interaction included, must arrive unchanged.
 */
function comparablePact(text: string): unknown {
  const pact = JSON.parse(text) as { metadata?: { pactRust?: { models?: string } } };
  if (pact.metadata?.pactRust) delete pact.metadata.pactRust.models;
  return pact;
}
function decodedPact(base64: string): unknown {
  return comparablePact(Buffer.from(base64, "base64").toString("utf8"));
}

describe("idp-pacts publish", () => {
  it("posts every pact file of the folder with the version, the branch and the base64 pact", async () => {
    // The real pact, and a second one, so "every pact" means more than one file.
    const dir = mkdtempSync(join(tmpdir(), "idp-publish-"));
    const real = readFileSync(PACT_FILE);
    const second = JSON.parse(real.toString("utf8")) as { provider: { name: string } };
    second.provider.name = "idp-service-secondary";
    const files = {
      [PACT_PROVIDER]: real,
      "idp-service-secondary": Buffer.from(JSON.stringify(second)),
    };
    writeFileSync(join(dir, `${PACT_CONSUMER}-${PACT_PROVIDER}.json`), files[PACT_PROVIDER]);
    writeFileSync(
      join(dir, `${PACT_CONSUMER}-idp-service-secondary.json`),
      files["idp-service-secondary"],
    );
    try {
      const result = await publishPacts({
        env: brokerEnv({ PACT_CONSUMER_VERSION: "1.2.3+abc", PACT_CONSUMER_BRANCH: "feature/x" }),
        pactsDir: dir,
        stdio: "pipe",
        log: quiet,
      });
      expect(result.exitCode, result.stderr).toBe(0);

      const [index, ...posts] = stub.requests;
      expect(index).toMatchObject({ method: "GET", url: "/" });
      expect(posts).toHaveLength(2);
      const byProvider = new Map<string, string>();
      for (const post of posts) {
        expect(post).toMatchObject({ method: "POST", url: "/contracts/publish" });
        expect(post.headers["content-type"]).toMatch(/^application\/json/);
        expect(post.headers.authorization).toBe(`Bearer ${TOKEN}`);
        const body = JSON.parse(post.body) as PublishBody;
        expect(body).toMatchObject({
          pacticipantName: PACT_CONSUMER,
          pacticipantVersionNumber: "1.2.3+abc",
          branch: "feature/x",
        });
        expect(body.contracts).toHaveLength(1);
        const [contract] = body.contracts;
        expect(contract).toMatchObject({
          consumerName: PACT_CONSUMER,
          specification: "pact",
          contentType: "application/json",
        });
        byProvider.set(contract?.providerName ?? "", contract?.content ?? "");
      }
      for (const [provider, bytes] of Object.entries(files)) {
        const content = byProvider.get(provider);
        expect(content, `no contract posted for ${provider}`).toBeDefined();
        expect(decodedPact(content ?? "")).toEqual(comparablePact(bytes.toString("utf8")));
      }
      expect(result.stdout + result.stderr).not.toContain(TOKEN);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("defaults to the repository's pacts/ and the git commit, with basic auth", async () => {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], {
      cwd: PACTS_DIR,
      encoding: "utf8",
    }).trim();
    const env = brokerEnv({
      PACT_CONSUMER_BRANCH: "main",
      PACT_BROKER_USERNAME: "u",
      PACT_BROKER_PASSWORD: "p",
    });
    delete env.PACT_BROKER_TOKEN;
    const result = await publishPacts({ env, stdio: "pipe", log: quiet });
    expect(result.exitCode, result.stderr).toBe(0);
    const posts = stub.requests.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
    expect(stub.requests.every((r) => r.headers.authorization === `Basic ${btoa("u:p")}`)).toBe(
      true,
    );
    const body = JSON.parse(posts[0]?.body ?? "{}") as PublishBody;
    expect(body.pacticipantVersionNumber).toBe(commit);
    expect(body.branch).toBe("main");
    expect(body.contracts[0]?.providerName).toBe(PACT_PROVIDER);
    expect(decodedPact(body.contracts[0]?.content ?? "")).toEqual(
      comparablePact(readFileSync(PACT_FILE, "utf8")),
    );
  });
});

describe("idp-pacts can-i-deploy", () => {
  it("asks the matrix for this consumer version and environment; exit 0 when deployable", async () => {
    const result = await canIDeploy({
      env: brokerEnv({ PACT_CONSUMER_VERSION: "abc123" }),
      environment: "production",
      stdio: "pipe",
      log: quiet,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(stub.requests).toHaveLength(1);
    const url = new URL(stub.requests[0]?.url ?? "", stub.baseUrl);
    expect(url.pathname).toBe("/matrix");
    expect(url.searchParams.get("q[][pacticipant]")).toBe(PACT_CONSUMER);
    expect(url.searchParams.get("q[][version]")).toBe("abc123");
    expect(url.searchParams.get("environment")).toBe("production");
    expect(stub.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("exits 1 when the broker says the version is not deployable", async () => {
    stub.deployable = false;
    const result = await canIDeploy({
      env: brokerEnv({ PACT_CONSUMER_VERSION: "abc123" }),
      environment: "production",
      stdio: "pipe",
      log: quiet,
    });
    expect(result.exitCode).toBe(1);
  });
});

describe("broker settings", () => {
  it.each([
    [{}, /PACT_BROKER_BASE_URL is not set/],
    [{ PACT_BROKER_BASE_URL: "not a url" }, /not an absolute http\(s\) URL/],
    [{ PACT_BROKER_BASE_URL: "https://u:secret@b.example" }, /must not contain credentials/],
    [{ PACT_BROKER_BASE_URL: "https://b.example" }, /no Pact Broker credentials/],
    [
      { PACT_BROKER_BASE_URL: "https://b.example", PACT_BROKER_USERNAME: "u" },
      /PACT_BROKER_PASSWORD is not set/,
    ],
    [
      {
        PACT_BROKER_BASE_URL: "https://b.example",
        PACT_BROKER_TOKEN: "t",
        PACT_BROKER_PASSWORD: "p",
      },
      /not both/,
    ],
  ])("%j -> E_CONFIG %s", (env, message) => {
    let caught: unknown;
    try {
      readBrokerSettings(env);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PactsCliError);
    expect(caught).toMatchObject({ code: "E_CONFIG", message: expect.stringMatching(message) });
    expect((caught as Error).message).not.toContain("secret");
  });

  it("accepts a token, or a username and password", () => {
    expect(
      readBrokerSettings({ PACT_BROKER_BASE_URL: "https://b.example", PACT_BROKER_TOKEN: "t" })
        .auth,
    ).toBe("token");
    expect(
      readBrokerSettings({
        PACT_BROKER_BASE_URL: "https://b.example",
        PACT_BROKER_USERNAME: "u",
        PACT_BROKER_PASSWORD: "p",
      }).auth,
    ).toBe("basic");
  });
});

/** Runs the bin (from source; node 24 strips the types) and captures exit code and output. */
function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ exitCode: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("close", (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

describe("idp-pacts bin", () => {
  it.each([
    [["publish"], { PACT_BROKER_BASE_URL: "" }, "idp-pacts: PACT_BROKER_BASE_URL is not set"],
    [["publish"], { PACT_BROKER_TOKEN: "" }, "idp-pacts: no Pact Broker credentials"],
    [["can-i-deploy"], {}, "idp-pacts: can-i-deploy needs --to-environment ENV"],
    [["can-i-deploy", "--to-env", "x"], {}, "idp-pacts: Unknown option '--to-env'"],
    [["deploy"], {}, 'idp-pacts: unknown command "deploy"'],
  ])(
    "%j with a setting missing: one line on stderr, exit 2, no request",
    async (args, unset, line) => {
      const env = {
        ...brokerEnv({ PACT_CONSUMER_VERSION: "v", PACT_CONSUMER_BRANCH: "b" }),
        ...unset,
      };
      const result = await runCli(args, env);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain(line);
      expect(stub.requests).toHaveLength(0);
    },
  );

  it("publishes through the bin and never prints the token", async () => {
    const result = await runCli(
      ["publish"],
      brokerEnv({ PACT_CONSUMER_VERSION: "v9", PACT_CONSUMER_BRANCH: "main" }),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain("idp-pacts: publishing 1 pact file(s)");
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
    expect(stub.requests.filter((r) => r.url === "/contracts/publish")).toHaveLength(1);
  });

  it("passes the broker's exit code through (1: computer says no)", async () => {
    stub.deployable = false;
    const result = await runCli(
      ["can-i-deploy", "--to-environment", "production"],
      brokerEnv({ PACT_CONSUMER_VERSION: "v9" }),
    );
    expect(result.exitCode).toBe(1);
  });
});
