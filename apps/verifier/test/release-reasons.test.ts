// A release manager's "no", explained, on the real Pact Broker (the official pact_broker v2.113 of the
// shared broker kit): a consumer team's pacts go through a real release sequence (publish, idp-verify
// of a failing and of a passing provider version with published results, deployments recorded), and
// at each step `idp-pacts can-i-deploy` gives the reason conformance.md §5 names, with its exit
// code, and `idp-pacts doctor` explains the state. The broker's own matrix is the oracle for what was
// published; the reasons are read from its API, never from the pact-broker CLI's table.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { pactBrokerBin } from "@idp/pact-consumer";
import {
  brokerAvailable,
  type NodeRun,
  type RunningBroker,
  runNode,
  startBroker,
} from "@idp/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run as runIdpPacts } from "../../../packages/pact-consumer/src/pacts-command.ts";
import { runVerify } from "./support/run.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const IDP_PACTS = join(ROOT, "packages/pact-consumer/src/pacts-cli.ts");
const COMMITTED = JSON.parse(
  readFileSync(join(ROOT, "pacts/idp-toolkit-consumer-idp-service.json"), "utf8"),
) as { consumer: { name: string }; interactions: { description: string }[] };
const PROVIDER = "idp-service";
const HAVE_BROKER = brokerAvailable();
const RUN = randomBytes(4).toString("hex");
/** A consumer team's own name: the default pacticipant comes from its pact files, not the toolkit. */
const TEAM = `shop-backend-${RUN}`;
const CREDENTIALS = { username: "idp-ci", password: `canary-${randomBytes(9).toString("hex")}` };

const lines = (text: string) => text.split("\n").filter((l) => l !== "");
/** The reason lines of a report: `✗ A → B in ENV: reason`. */
const reasons = (stdout: string) =>
  [...stdout.matchAll(/^\s*✗ (\S+) [→←] (\S+) in (\S+): (\S+)$/gm)].map((m) => `${m[3]}: ${m[4]}`);

describe.skipIf(!HAVE_BROKER)("can-i-deploy and doctor explain each step of a release", () => {
  let broker: RunningBroker;
  let failing: RunningProvider;
  let passing: RunningProvider;
  let work = "";
  let v1Dir = "";
  let v2Dir = "";

  const brokerEnv = () => ({ PACT_BROKER_BASE_URL: broker.url, PACT_BROKER_HTTP_RETRIES: "0" });
  /** idp-pacts in this process (its bin is this function and an exit code: see the last test). */
  const idpPacts = async (
    args: readonly string[],
    env: Record<string, string> = {},
  ): Promise<NodeRun> => {
    let stdout = "";
    let stderr = "";
    const code = await runIdpPacts(
      args,
      { PATH: process.env.PATH ?? "", ...brokerEnv(), ...env },
      {
        stdout: (t) => {
          stdout += t;
        },
        stderr: (t) => {
          stderr += t;
        },
      },
    );
    return { code, stdout, stderr };
  };
  /** idp-pacts as a user runs it: its own process. */
  const idpPactsBin = (args: readonly string[], env: Record<string, string> = {}) =>
    runNode([IDP_PACTS, ...args], { ...brokerEnv(), ...env });
  const pactBroker = (args: readonly string[]) =>
    runNode([pactBrokerBin(), ...args, "--broker-base-url", broker.url], brokerEnv());
  /** can-i-deploy for the team's version, the pacticipant taken from its pact files. */
  const ask = (version: string, environment: string, extra: readonly string[] = []) =>
    idpPacts(["can-i-deploy", "--pacts-dir", v1Dir, "--to-environment", environment, ...extra], {
      PACT_CONSUMER_VERSION: version,
    });
  const verify = (provider: RunningProvider, version: string) =>
    runVerify([
      "--checks",
      "pact",
      "--provider-url",
      provider.baseUrl,
      "--provider-states-url",
      provider.statesUrl,
      "--username",
      CREDENTIALS.username,
      "--password",
      CREDENTIALS.password,
      "--broker-url",
      broker.url,
      "--consumer-version-selectors",
      JSON.stringify([{ branch: "main" }]),
      "--publish-verification-results",
      "--provider-version",
      version,
      "--provider-branch",
      "main",
    ]);
  const recordProvider = (version: string, environment: string) =>
    idpPacts([
      "record-deployment",
      "--pacticipant",
      PROVIDER,
      "--version",
      version,
      "--environment",
      environment,
    ]);

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "idp-release-reasons-"));
    // The team's pacts: the committed interactions under the team's consumer name; v2 drops one
    // (new pact content, never verified).
    v1Dir = join(work, "v1");
    v2Dir = join(work, "v2");
    mkdirSync(v1Dir);
    mkdirSync(v2Dir);
    const pact = { ...COMMITTED, consumer: { name: TEAM } };
    writeFileSync(join(v1Dir, `${TEAM}-${PROVIDER}.json`), JSON.stringify(pact));
    writeFileSync(
      join(v2Dir, `${TEAM}-${PROVIDER}.json`),
      JSON.stringify({ ...pact, interactions: pact.interactions.slice(1) }),
    );
    [broker, failing, passing] = await Promise.all([
      startBroker(),
      // 202 where the pact expects 201: a provider version that breaks the team's pact.
      startHandProvider({ credentials: CREDENTIALS, faults: ["wrong-status"] }),
      startHandProvider({ credentials: CREDENTIALS }),
    ]);
    for (const name of ["production", "staging"]) {
      const created = await pactBroker([
        "create-environment",
        "--name",
        name,
        ...(name === "production" ? ["--production"] : []),
      ]);
      if (created.code !== 0) throw new Error(created.stdout + created.stderr);
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all([broker?.stop(), failing?.close(), passing?.close()]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("publish, then can-i-deploy before any verification: never-verified (exit 1), for the pacts' consumer", async () => {
    const published = await idpPacts(["publish", "--pacts-dir", v1Dir], {
      PACT_CONSUMER_VERSION: "v1",
      PACT_CONSUMER_BRANCH: "main",
    });
    expect(published.code, published.stdout + published.stderr).toBe(0);
    const no = await idpPactsBin(
      ["can-i-deploy", "--pacts-dir", v1Dir, "--to-environment", "production"],
      { PACT_CONSUMER_VERSION: "v1" },
    );
    expect(no.code, no.stdout + no.stderr).toBe(1);
    expect(no.stderr).toContain(`can ${TEAM} version v1 be deployed to production?`);
    expect(reasons(no.stdout)).toEqual(["production: never-verified"]);
    expect(no.stdout).toContain(
      `${PROVIDER} has never published a verification result for ${TEAM}'s pacts`,
    );
    expect(lines(no.stdout).at(-1)).toBe(
      `can-i-deploy: no, ${TEAM} version v1 may not go to production (never-verified)`,
    );
    expect(no.stdout).not.toContain(COMMITTED.consumer.name);

    // While only verifications are missing, --retry-while-unknown asks again (pact-broker's form).
    const waited = await ask("v1", "production", [
      "--",
      "--retry-while-unknown",
      "1",
      "--retry-interval",
      "0",
    ]);
    expect(waited.code).toBe(1);
    expect(waited.stderr).toMatch(/not yet \(never-verified\); asking again in 0 s \(1 of 1\)/);
  });

  it("a failing provider version, verified and deployed: verification-failed (exit 1)", async () => {
    const run = await verify(failing, "p1");
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const recorded = await recordProvider("p1", "production");
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    const no = await ask("v1", "production");
    expect(no.code, no.stdout + no.stderr).toBe(1);
    expect(reasons(no.stdout)).toEqual(["production: verification-failed"]);
    expect(no.stdout).toContain(
      `${PROVIDER} version p1 (in production) failed the pact of ${TEAM} version v1`,
    );
    expect(no.stdout).toMatch(
      /what to do: a real incompatibility: read the verification result at http/,
    );
  });

  it("a passing provider version, verified but not deployed: still failed where p1 runs, not-deployed elsewhere", async () => {
    const run = await verify(passing, "p2");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const production = await ask("v1", "production");
    expect(production.code).toBe(1);
    expect(reasons(production.stdout)).toEqual(["production: verification-failed"]);
    expect(production.stdout).toContain(
      `${PROVIDER} version p2 verified this pact successfully: deploying it to production and recording that (idp-pacts record-deployment --pacticipant ${PROVIDER} --version p2 --environment production) clears this.`,
    );
    const staging = await ask("v1", "staging");
    expect(staging.code).toBe(1);
    expect(reasons(staging.stdout)).toEqual(["staging: not-deployed"]);
    expect(staging.stdout).toContain(
      `no version of ${PROVIDER} is recorded as deployed or released in staging`,
    );

    // doctor (every environment the broker knows) explains both at once.
    const doctor = await idpPacts(["doctor", "--pacts-dir", v1Dir], {
      PACT_CONSUMER_VERSION: "v1",
    });
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(1);
    expect(reasons(doctor.stdout)).toEqual([
      "production: verification-failed",
      "staging: not-deployed",
    ]);
    expect(lines(doctor.stdout).at(-1)).toBe(
      `doctor: no, ${TEAM} version v1 may not go to production, staging (verification-failed in production; not-deployed in staging)`,
    );
  });

  it("the passing version deployed: yes (exit 0), and the broker agrees", async () => {
    expect((await recordProvider("p2", "production")).code).toBe(0);
    const yes = await idpPactsBin(
      ["can-i-deploy", "--pacts-dir", v1Dir, "--to-environment", "production"],
      { PACT_CONSUMER_VERSION: "v1" },
    );
    expect(yes.code, yes.stdout + yes.stderr).toBe(0);
    expect(reasons(yes.stdout)).toEqual([]);
    expect(yes.stdout).toContain(
      `✓ ${TEAM} → ${PROVIDER} in production\n    ${PROVIDER} version p2 (in production) verified the pact of ${TEAM} version v1 successfully`,
    );
    expect(lines(yes.stdout).at(-1)).toBe(
      `can-i-deploy: yes, ${TEAM} version v1 may go to production`,
    );
  });

  it("new pact content published: pending-verification (exit 1) until a provider build verifies it", async () => {
    const published = await idpPacts(["publish", "--pacts-dir", v2Dir], {
      PACT_CONSUMER_VERSION: "v2",
      PACT_CONSUMER_BRANCH: "main",
    });
    expect(published.code, published.stdout + published.stderr).toBe(0);
    const no = await ask("v2", "production");
    expect(no.code).toBe(1);
    expect(reasons(no.stdout)).toEqual(["production: pending-verification"]);
    expect(no.stdout).toContain(
      `${PROVIDER} version p2 (in production) has not verified this pact content of ${TEAM} version v2 yet`,
    );
  });

  it("a version deployed without pacts: no-pacts (exit 1); doctor names it and the provider side", async () => {
    // A build that records deployments without publishing (the version exists, its pacts do not).
    const created = await pactBroker([
      "create-or-update-version",
      "--pacticipant",
      TEAM,
      "--version",
      "v0",
      "--branch",
      "main",
    ]);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    const deployed = await idpPacts(
      ["record-deployment", "--pacts-dir", v1Dir, "--environment", "staging"],
      { PACT_CONSUMER_VERSION: "v0" },
    );
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    // The broker says yes ("no missing dependencies"); a version with no pacts is a "no" here.
    const no = await ask("v0", "production");
    expect(no.code).toBe(1);
    expect(reasons(no.stdout)).toEqual(["production: no-pacts"]);
    expect(no.stdout).toContain(`${TEAM} version v0 has no pact with ${PROVIDER} on the broker`);

    const doctor = await idpPacts(
      ["doctor", "--pacts-dir", v1Dir, "--to-environment", "production"],
      { PACT_CONSUMER_VERSION: "v2" },
    );
    expect(doctor.code).toBe(1);
    expect(reasons(doctor.stdout)).toEqual(["production: pending-verification"]);
    // Bookkeeping covers every environment the broker knows.
    expect(doctor.stdout).toContain(
      `! ${TEAM} version v0 is recorded as deployed in staging but has no pacts or verification results`,
    );

    // The provider's own question: p1 fails the pact of the team's version in production; p2 is fine.
    expect(
      (
        await idpPacts(["record-deployment", "--pacts-dir", v1Dir, "--environment", "production"], {
          PACT_CONSUMER_VERSION: "v1",
        })
      ).code,
    ).toBe(0);
    const p1 = await idpPacts([
      "can-i-deploy",
      "--pacticipant",
      PROVIDER,
      "--version",
      "p1",
      "--to-environment",
      "production",
    ]);
    expect(p1.code).toBe(1);
    expect(reasons(p1.stdout)).toEqual(["production: verification-failed"]);
    const p2 = await idpPacts([
      "can-i-deploy",
      "--pacticipant",
      PROVIDER,
      "--version",
      "p2",
      "--to-environment",
      "production",
    ]);
    expect(p2.code, p2.stdout + p2.stderr).toBe(0);
  });

  it("a pacticipant or version the broker does not know is a setup problem: exit 2, one line", async () => {
    const version = await idpPactsBin(
      ["can-i-deploy", "--pacts-dir", v1Dir, "--to-environment", "production"],
      { PACT_CONSUMER_VERSION: "v9" },
    );
    expect(version.code).toBe(2);
    expect(version.stdout).toBe("");
    expect(lines(version.stderr)).toEqual([
      `idp-pacts: the Pact Broker at ${broker.url} does not know version v9 of ${TEAM}: publish that version's pacts (or, a provider, its verification results) first, or check --version (default: PACT_CONSUMER_VERSION, else the git commit)`,
    ]);
    const who = await idpPactsBin([
      "doctor",
      "--pacticipant",
      `${TEAM.slice(0, -1)}`,
      "--version",
      "v1",
    ]);
    expect(who.code).toBe(2);
    expect(lines(who.stderr)).toEqual([
      expect.stringContaining(
        `does not know pacticipant "${TEAM.slice(0, -1)}" (did you mean ${TEAM}?)`,
      ),
    ]);
  });
});
