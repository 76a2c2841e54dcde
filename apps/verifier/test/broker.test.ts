// The release flow against the real Pact Broker (the official pact_broker v2.113 of the shared broker
// kit, @idp/test-utils' startBroker) with basic auth on, a read-write and a read-only user, all
// through the documented bins as a user runs them: idp-pacts publish -> idp-verify from the broker,
// publishing results -> can-i-deploy no -> record-deployment -> can-i-deploy yes; a pact by its URL;
// WIP and pending; and canary passwords that must appear in no output and no report.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createProvider, type IdpProvider } from "@idp/provider";
import {
  brokerAvailable,
  createTestPki,
  type NodeRun,
  type RunningBroker,
  runNode,
  startBroker,
  startGateway,
} from "@idp/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../src/config/parse.ts";
import { urlProvider } from "./support/config.ts";
import { runVerify } from "./support/run.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const IDP_VERIFY = join(ROOT, "apps/verifier/src/cli.ts");
const IDP_PACTS = join(ROOT, "packages/pact-consumer/src/pacts-cli.ts");
const PACT_BROKER = join(
  createRequire(import.meta.url)
    .resolve("@pact-foundation/pact-cli/package.json")
    .replace(/package\.json$/, ""),
  "bin/pact-broker.js",
);
const PACT_FILE = join(ROOT, "pacts/idp-toolkit-consumer-idp-service.json");
const COMMITTED = JSON.parse(readFileSync(PACT_FILE, "utf8")) as {
  interactions: { description: string; response: { status: number } }[];
};
const CONSUMER = "idp-toolkit-consumer";
const PROVIDER = "idp-service";
const VALID_SCHEMA = "create schema: 201 for a valid schema";

const HAVE_BROKER = brokerAvailable();
/** A date `n` days before today (UTC), as --include-wip-pacts-since takes it. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
/** Names unique to this run, so the tests also hold against a shared broker (PACT_BROKER_TEST_URL). */
const RUN = randomBytes(4).toString("hex");
const canary = (what: string) => `canary-${what}-${randomBytes(9).toString("hex")}`;
const WRITER = { user: "pact-writer", password: canary("rw") };
const READER = { user: "pact-reader", password: canary("ro") };
const PROVIDER_LOGIN = { username: "idp-ci", password: canary("provider") };

type Run = NodeRun;
/** Every output and report file of this file's runs, for the canary check at the end. */
const printed: string[] = [];
const reportFiles: string[] = [];

async function spawnBin(args: readonly string[], env: Record<string, string>): Promise<Run> {
  const run = await runNode(args, {
    NODE_NO_WARNINGS: "1",
    PACT_DO_NOT_TRACK: "true",
    PACT_BROKER_HTTP_RETRIES: "0",
    ...env,
  });
  printed.push(run.stdout, run.stderr);
  return run;
}
/** `idp-verify ...`, the bin from source (Node strips the types; workspace packages from src/). */
const idpVerify = (args: readonly string[], env: Record<string, string> = {}) =>
  spawnBin(["--conditions=@idp/source", IDP_VERIFY, ...args], env);
const idpPacts = (args: readonly string[], env: Record<string, string>) =>
  spawnBin([IDP_PACTS, ...args], env);
const pactBroker = (args: readonly string[], env: Record<string, string>) =>
  spawnBin([PACT_BROKER, ...args], env);

/** A Pact Broker webhook template variable, `${pactbroker.<name>}`. */
const webhookVariable = (name: string) => ["$", "{pactbroker.", name, "}"].join("");

/** The check ids of one status in idp-verify's console report. */
/** The pact checks with `icon` in idp-verify's live progress (one line per check, on stderr). */
const ids = (stderr: string, icon: "✓" | "✗") =>
  [...stderr.matchAll(new RegExp(`^${icon} (pact\\..+?) \\(\\d+\\.\\d s\\)`, "gm"))].map(
    (m) => m[1],
  );

describe.skipIf(!HAVE_BROKER)("the release flow on the real Pact Broker, basic auth on", () => {
  let broker: RunningBroker;
  let writer: { user: string; password: string };
  let reader: { user: string; password: string };
  let provider: IdpProvider;
  let providerUrls: { baseUrl: string; providerStatesUrl: string };
  // Made in beforeAll: a skipped describe still runs its body, but never its hooks.
  let work = "";
  const consumerBranch = `feat-${RUN}`;
  const wipBranch = `wip-${RUN}`;
  const providerBranch = `main-${RUN}`;
  const environment = `production-${RUN}`;
  const c1 = `c1-${RUN}`;
  const c2 = `c2-${RUN}`;
  let pactUrl = "";

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "idp-verify-broker-"));
    broker = await startBroker({
      auth: { ...WRITER, readOnlyUser: READER.user, readOnlyPassword: READER.password },
    });
    const auth = broker.auth;
    if (!auth?.readOnlyUser || !auth.readOnlyPassword) throw new Error("no read-only user");
    writer = { user: auth.user, password: auth.password };
    reader = { user: auth.readOnlyUser, password: auth.readOnlyPassword };
    // apps/provider, started here, for the runs that verify a provider by URL.
    provider = createProvider({
      db: ":memory:",
      credentials: PROVIDER_LOGIN,
      providerStates: true,
      log: () => {},
    });
    providerUrls = await provider.listen({ port: 0, host: "127.0.0.1" });
  }, 120_000);
  afterAll(async () => {
    await broker?.stop();
    await provider?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const as = (who: { user: string; password: string }) => ({
    PACT_BROKER_BASE_URL: broker.url,
    PACT_BROKER_USERNAME: who.user,
    PACT_BROKER_PASSWORD: who.password,
  });
  /** The provider under test (results may be published only for a provider of one's own). */
  const providerArgs = () => [
    "--provider-url",
    providerUrls.baseUrl,
    "--provider-states-url",
    providerUrls.providerStatesUrl,
    "--username",
    PROVIDER_LOGIN.username,
    "--password",
    PROVIDER_LOGIN.password,
  ];
  const report = (name: string) => {
    const path = join(work, name);
    reportFiles.push(path);
    return path;
  };
  /** The JSON, JUnit and HTML reports of one run, all read by the canary check at the end. */
  const allReports = (name: string) => [
    "--report",
    `json=${report(`${name}.json`)}`,
    "--report",
    `junit=${report(`${name}.xml`)}`,
    "--report",
    `html=${report(`${name}.html`)}`,
  ];
  /** The broker's matrix row for a consumer version: the oracle for published results. */
  const verificationOf = async (consumerVersion: string) => {
    const res = await fetch(
      `${broker.url}/matrix?q[][pacticipant]=${CONSUMER}&q[][version]=${consumerVersion}&latestby=cvpv`,
      { headers: { authorization: `Basic ${btoa(`${reader.user}:${reader.password}`)}` } },
    );
    const body = (await res.json()) as {
      matrix: {
        provider: { version?: { number: string } };
        verificationResult?: { success: boolean };
      }[];
    };
    return body.matrix.map((row) => ({
      provider: row.provider.version?.number,
      success: row.verificationResult?.success,
    }));
  };

  it("publish -> verify from the broker with published results -> can-i-deploy no -> record-deployment -> yes", async () => {
    // The consumer publishes (read-write user); the broker says where the pact is.
    const published = await idpPacts(["publish"], {
      ...as(writer),
      PACT_CONSUMER_VERSION: c1,
      PACT_CONSUMER_BRANCH: consumerBranch,
    });
    expect(published.code, published.stdout + published.stderr).toBe(0);
    pactUrl = /View the published pact at (\S+)/.exec(published.stdout)?.[1] ?? "";
    expect(pactUrl.startsWith(`${broker.url}/pacts/provider/${PROVIDER}/`)).toBe(true);

    // The provider verifies its running provider from the broker: broker and login from
    // PACT_BROKER_* (no --broker-url), results published.
    const verified = await idpVerify(
      [
        "--checks",
        "pact",
        ...providerArgs(),
        "--consumer-version-selectors",
        JSON.stringify([{ branch: consumerBranch }]),
        "--publish-verification-results",
        "--provider-version",
        `p1-${RUN}`,
        "--provider-branch",
        providerBranch,
        ...allReports("flow"),
      ],
      as(writer),
    );
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(ids(verified.stderr, "✓")).toEqual(
      COMMITTED.interactions.map((i) => `pact.${i.description}`),
    );
    // (On a shared broker, other results for the same pact content may be listed too.)
    expect(await verificationOf(c1)).toContainEqual({ provider: `p1-${RUN}`, success: true });

    // The environment exists once per broker (the documented admin step).
    const created = await pactBroker(
      [
        "create-environment",
        "--name",
        environment,
        "--production",
        "--broker-base-url",
        broker.url,
      ],
      as(writer),
    );
    expect(created.code, created.stdout + created.stderr).toBe(0);

    // Nothing of the provider is deployed there yet: no (the read-only user may ask).
    const ask = () =>
      idpPacts(["can-i-deploy", "--to-environment", environment], {
        ...as(reader),
        PACT_CONSUMER_VERSION: c1,
      });
    const no = await ask();
    expect(no.code, no.stdout + no.stderr).toBe(1);
    expect(no.stdout).toMatch(
      new RegExp(`^✗ ${CONSUMER} → ${PROVIDER} in ${environment}: not-deployed$`, "m"),
    );

    const recorded = await idpPacts(
      [
        "record-deployment",
        "--environment",
        environment,
        "--pacticipant",
        PROVIDER,
        "--version",
        `p1-${RUN}`,
      ],
      as(writer),
    );
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);

    const yes = await ask();
    expect(yes.code, yes.stdout + yes.stderr).toBe(0);
    expect(yes.stdout).toMatch(new RegExp(`^can-i-deploy: yes, ${CONSUMER} version ${c1} `, "m"));
  });

  it("verifies one pact by its URL (the webhook flow), with the broker's credentials, and publishes the result", async () => {
    // The documented webhook (docs/verify-in-ci.md), aimed at a closed local port instead of
    // GitHub's API; the broker's test execution renders the request it would send.
    const created = await pactBroker(
      [
        "create-webhook",
        "https://127.0.0.1:1/repos/OWNER/PROVIDER-REPO/dispatches",
        "--request",
        "POST",
        "--header",
        "Content-Type: application/json",
        "Accept: application/vnd.github+json",
        "--data",
        JSON.stringify({
          event_type: "contract_requiring_verification_published",
          client_payload: {
            pact_url: webhookVariable("pactUrl"),
            sha: webhookVariable("providerVersionNumber"),
            branch: webhookVariable("providerVersionBranch"),
          },
        }),
        "--provider",
        PROVIDER,
        "--contract-requiring-verification-published",
        "--broker-base-url",
        broker.url,
      ],
      as(writer),
    );
    expect(created.code, created.stdout + created.stderr).toBe(0);
    const links = (
      JSON.parse(created.stdout) as {
        _links: { "pb:execute": { href: string }; self: { href: string } };
      }
    )._links;
    const authorization = `Basic ${btoa(`${writer.user}:${writer.password}`)}`;
    const rendered = (await (
      await fetch(links["pb:execute"].href, { method: "POST", headers: { authorization } })
    ).json()) as { request: { body: { client_payload: { pact_url: string } } } };
    // A shared broker (PACT_BROKER_TEST_URL) keeps no webhook of ours.
    expect(
      (await fetch(links.self.href, { method: "DELETE", headers: { authorization } })).ok,
    ).toBe(true);
    const webhookPactUrl = rendered.request.body.client_payload.pact_url;
    expect(webhookPactUrl).toMatch(
      new RegExp(`^${broker.url}/pacts/provider/${PROVIDER}/consumer/${CONSUMER}/pact-version/`),
    );

    const run = await idpVerify([
      "--checks",
      "pact",
      ...providerArgs(),
      "--pacts",
      webhookPactUrl,
      "--broker-url",
      broker.url,
      "--broker-username",
      writer.user,
      "--broker-password",
      writer.password,
      "--publish-verification-results",
      "--provider-version",
      `p2-${RUN}`,
      "--provider-branch",
      providerBranch,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(ids(run.stderr, "✓")).toHaveLength(COMMITTED.interactions.length);
    expect(await verificationOf(c1)).toContainEqual({ provider: `p2-${RUN}`, success: true });

    // The pact URL publish printed, without the broker's credentials: refused, exit 2, saying 401.
    expect(pactUrl).not.toBe("");
    const refused = await idpVerify(["--checks", "pact", "--pacts", pactUrl]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^idp-verify: E_PACT_UNREADABLE: .*401 Unauthorized \(no broker credentials were given: /m,
    );
  });

  it("reaches an https broker with a private CA (--ca-cert), Pact's core included; --insecure there is refused (exit 2)", async () => {
    const pki = createTestPki();
    const gateway = await startGateway({
      upstream: broker.url,
      tls: { key: pki.server.key, cert: pki.server.cert },
    });
    try {
      // A version of our own, tagged, so the selector picks it and nothing another test published.
      const version = `tls-${RUN}`;
      const authorization = `Basic ${btoa(`${writer.user}:${writer.password}`)}`;
      const base = `${broker.url}/pacts/provider/${PROVIDER}/consumer/${CONSUMER}/version/${version}`;
      const put = await fetch(base, {
        method: "PUT",
        headers: { authorization, "content-type": "application/json" },
        body: readFileSync(PACT_FILE, "utf8"),
      });
      expect(put.ok).toBe(true);
      const tagged = await fetch(
        `${broker.url}/pacticipants/${CONSUMER}/versions/${version}/tags/${version}`,
        { method: "PUT", headers: { authorization, "content-type": "application/json" } },
      );
      expect(tagged.ok).toBe(true);
      const args = [
        "--provider-url",
        providerUrls.baseUrl,
        "--provider-states-url",
        providerUrls.providerStatesUrl,
        "--checks",
        "pact",
        "--broker-url",
        gateway.origin,
        "--consumer-version-selectors",
        JSON.stringify([{ tag: version, latest: true }]),
      ];
      const env = {
        IDP_USERNAME: PROVIDER_LOGIN.username,
        IDP_PASSWORD: PROVIDER_LOGIN.password,
        PACT_BROKER_USERNAME: reader.user,
        PACT_BROKER_PASSWORD: reader.password,
      };
      // Our login check and Pact's own fetch both trust the CA; without it, neither would.
      const run = await runVerify([...args, "--ca-cert", pki.ca.path], env);
      printed.push(run.stdout, run.stderr);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(ids(run.stderr, "✓")).toHaveLength(COMMITTED.interactions.length);
      expect(gateway.counts.forwarded).toBeGreaterThan(1);
      const insecure = await runVerify([...args, "--insecure"], env);
      printed.push(insecure.stdout, insecure.stderr);
      expect(insecure.code).toBe(2);
      expect(insecure.stderr).toMatch(
        /^idp-verify: E_CONFIG: --insecure cannot reach Pact's own requests to https:/m,
      );
    } finally {
      await gateway.close();
      pki.remove();
    }
  });

  it("WIP pacts are pending: a consumer's work in progress does not fail the provider's build", async () => {
    // A consumer branch whose pact the reference provider breaks (expects 200 where 201 comes).
    const dir = join(work, "wip-pacts");
    mkdirSync(dir);
    const broken = structuredClone(COMMITTED);
    for (const i of broken.interactions)
      if (i.description === VALID_SCHEMA) i.response.status = 200;
    writeFileSync(join(dir, `${CONSUMER}-${PROVIDER}.json`), JSON.stringify(broken));
    const published = await idpPacts(["publish", "--pacts-dir", dir], {
      ...as(writer),
      PACT_CONSUMER_VERSION: c2,
      PACT_CONSUMER_BRANCH: wipBranch,
    });
    expect(published.code, published.stdout + published.stderr).toBe(0);

    // WIP without --enable-pending: pending all the same, so exit 0 with a warning.
    const wip = await idpVerify(
      [
        "--checks",
        "pact",
        "--consumer-version-selectors",
        JSON.stringify([{ branch: consumerBranch }]),
        "--include-wip-pacts-since",
        daysAgo(30),
        "--provider-branch",
        providerBranch,
      ],
      as(reader),
    );
    expect(wip.code, wip.stdout + wip.stderr).toBe(0);
    // Two pacts of one consumer: each check names its pact (version, or branch for a WIP pact).
    expect(ids(wip.stderr, "✓")).toContain(`pact.${CONSUMER}@${c1}.${VALID_SCHEMA}`);
    // (A WIP pact is named by its branch; on a shared broker, other branches with the same content
    // may be named with it.)
    const wipId = `pact\\.${CONSUMER}@[^ ]*${wipBranch}[^ ]*\\.${VALID_SCHEMA}`;
    expect(ids(wip.stderr, "✓")).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(wipId))]),
    );
    expect(wip.stdout).toMatch(
      new RegExp(
        `⚠ ${wipId}: pending pact failed \\(not counted\\): status: expected 200, got 201`,
      ),
    );
    expect(wip.stdout).toMatch(/^PASSED: \d+ passed, 0 failed/m);
  });

  it("a failure names the consumer version that failed; with --enable-pending it is a warning", async () => {
    const both = [
      "--checks",
      "pact",
      "--consumer-version-selectors",
      JSON.stringify([{ branch: consumerBranch }, { branch: wipBranch }]),
      "--provider-branch",
      providerBranch,
      "--report",
      `json=${report("two-versions.json")}`,
    ];
    const failing = await idpVerify(both, as(reader));
    expect(failing.code, failing.stdout + failing.stderr).toBe(1);
    expect(ids(failing.stderr, "✗")).toEqual([`pact.${CONSUMER}@${c2}.${VALID_SCHEMA}`]);
    expect(ids(failing.stderr, "✓")).toContain(`pact.${CONSUMER}@${c1}.${VALID_SCHEMA}`);
    expect(ids(failing.stderr, "✓")).toHaveLength(2 * COMMITTED.interactions.length - 1);
    const json = JSON.parse(readFileSync(report("two-versions.json"), "utf8")) as {
      checks: { id: string; title: string; status: string }[];
    };
    const failed = json.checks.filter((c) => c.status === "failed");
    expect(failed.map((c) => c.title)).toEqual([
      `${VALID_SCHEMA} (consumer ${CONSUMER} version ${c2}, branch ${wipBranch})`,
    ]);

    const pending = await idpVerify(
      [...both.slice(0, -2), "--enable-pending", ...allReports("pending")],
      as(reader),
    );
    expect(pending.code, pending.stdout + pending.stderr).toBe(0);
    expect(ids(pending.stderr, "✓")).toContain(`pact.${CONSUMER}@${c2}.${VALID_SCHEMA}`);
    expect(pending.stdout).toMatch(
      new RegExp(`⚠ pact\\.${CONSUMER}@${c2}\\.${VALID_SCHEMA}: pending pact failed`),
    );
    // Every report says, per interaction, whose pact it is: consumer, version, branch, pending.
    const n = COMMITTED.interactions.length;
    const verified = `consumer ${CONSUMER} version ${c1}, branch ${consumerBranch}, not pending`;
    const wip = `consumer ${CONSUMER} version ${c2}, branch ${wipBranch}, pending`;
    expect(pending.stdout).toContain(`pact of ${verified}: ${n} interactions (${n} passed)`);
    expect(pending.stdout).toContain(`pact of ${wip}: ${n} interactions (${n} passed)`);
    const pendingJson = JSON.parse(readFileSync(report("pending.json"), "utf8")) as {
      checks: { id: string; consumer?: Record<string, unknown> }[];
    };
    expect(
      pendingJson.checks.find((c) => c.id === `pact.${CONSUMER}@${c2}.${VALID_SCHEMA}`)?.consumer,
    ).toEqual({
      name: CONSUMER,
      version: c2,
      branch: wipBranch,
      pending: true,
    });
    expect(
      pendingJson.checks.filter((c) => c.consumer?.version === c1 && c.consumer.pending === false),
    ).toHaveLength(n);
    const junit = readFileSync(report("pending.xml"), "utf8");
    expect(junit.match(/<property name="pending" value="true"\/>/g)).toHaveLength(n);
    expect(junit.match(/<property name="pending" value="false"\/>/g)).toHaveLength(n);
    expect(junit).toContain(
      `<property name="consumer" value="${CONSUMER}"/><property name="consumer.version" value="${c2}"/><property name="consumer.branch" value="${wipBranch}"/><property name="pending" value="true"/>`,
    );
    const html = readFileSync(report("pending.html"), "utf8");
    expect(html).toContain(`Pact interactions of ${verified} (${n})`);
    expect(html).toContain(`Pact interactions of ${wip} (${n})`);
  });

  it("selectors that select no pact: exit 2 before the provider is asked anything", async () => {
    const run = await idpVerify(
      [
        "--checks",
        "pact",
        "--consumer-version-selectors",
        JSON.stringify([{ branch: `no-such-branch-${RUN}` }]),
      ],
      as(reader),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^idp-verify: E_NO_PACTS: the selectors select no pact: the Pact Broker at \S+ has no pact for idp-service matching --consumer-version-selectors \[\{"branch":"no-such-branch-/m,
    );
  });

  it("credentials in URL user-info (broker, provider, states) work and appear in no output or report", async () => {
    const at = (url: string, user: string, password: string) =>
      url.replace("http://", `http://${user}:${password}@`);
    const run = await idpVerify([
      "--checks",
      "pact",
      "--provider-url",
      at(providerUrls.baseUrl, PROVIDER_LOGIN.username, PROVIDER_LOGIN.password),
      "--provider-states-url",
      at(providerUrls.providerStatesUrl, PROVIDER_LOGIN.username, PROVIDER_LOGIN.password),
      "--broker-url",
      at(broker.url, writer.user, writer.password),
      "--consumer-version-selectors",
      JSON.stringify([{ branch: consumerBranch }]),
      "--publish-verification-results",
      "--provider-version",
      `p3-${RUN}`,
      "--provider-branch",
      providerBranch,
      ...allReports("userinfo"),
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`: ${providerUrls.baseUrl}\n`);
    expect(ids(run.stderr, "✓")).toHaveLength(COMMITTED.interactions.length);
    expect(await verificationOf(c1)).toContainEqual({ provider: `p3-${RUN}`, success: true });
    const json = JSON.parse(readFileSync(report("userinfo.json"), "utf8")) as {
      providerUrl: string;
      providerStatesUrl: string;
      pactSources: string[];
    };
    expect(json.providerUrl).toBe(providerUrls.baseUrl);
    expect(json.providerStatesUrl).toBe(providerUrls.providerStatesUrl);
    expect(json.pactSources).toEqual([broker.url]);
  });

  it("the read-only user cannot publish results: the run says so (exit 2) without its password", async () => {
    const run = await idpVerify(
      [
        "--checks",
        "pact",
        ...providerArgs(),
        "--consumer-version-selectors",
        JSON.stringify([{ branch: consumerBranch }]),
        "--publish-verification-results",
        "--provider-version",
        `p4-${RUN}`,
        "--report",
        `html=${report("read-only.html")}`,
      ],
      as(reader),
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(
      /! pact\.publish-verification-results +could not run: Publishing of verification results failed.*401/,
    );
    expect(await verificationOf(c1)).not.toContainEqual({
      provider: `p4-${RUN}`,
      success: true,
    });
  });

  it("a bearer token is refused by the open-source broker (400): exit 2, the token not shown", async () => {
    const token = canary("token");
    const run = await idpVerify(["--checks", "pact"], {
      PACT_BROKER_BASE_URL: broker.url,
      PACT_BROKER_TOKEN: token,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^idp-verify: E_PACT_UNREADABLE: .*400 Bad Request.* \(the open-source Pact Broker takes basic auth, not a token: --broker-username\/--broker-password or PACT_BROKER_USERNAME\/PACT_BROKER_PASSWORD\)$/m,
    );
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  it("no broker or provider password appears in any output or report file", () => {
    const texts = [...printed, ...reportFiles.map((f) => readFileSync(f, "utf8"))];
    expect(texts.length).toBeGreaterThan(20);
    const all = texts.join("\n");
    for (const [user, password] of [
      [writer.user, writer.password],
      [reader.user, reader.password],
      [PROVIDER_LOGIN.username, PROVIDER_LOGIN.password],
    ]) {
      expect(all).not.toContain(password);
      expect(all).not.toContain(btoa(`${user}:${password}`));
    }
  });
});

describe("idp-verify broker options", () => {
  const config = (argv: string[], env: Record<string, string> = {}) => {
    const r = parseConfig(argv, env, "/");
    if (r.kind !== "run") throw new Error(r.kind);
    return r.config;
  };

  it("takes the broker and its login from PACT_BROKER_*; --include-wip-pacts-since implies pending", () => {
    const since = daysAgo(90);
    const c = config(["--include-wip-pacts-since", since, "--provider-branch", "main"], {
      PACT_BROKER_BASE_URL: "https://broker.example/",
      PACT_BROKER_USERNAME: "u",
      PACT_BROKER_PASSWORD: "pw-secret",
    });
    expect(c.broker).toMatchObject({
      url: "https://broker.example",
      auth: { username: "u", password: "pw-secret" },
      enablePending: true,
      includeWipPactsSince: since,
    });
    expect(c.pacts).toEqual([]);
  });

  it("flags override the environment's login; a token is a token", () => {
    const c = config(["--broker-url", "https://b.example", "--broker-token", "tok-secret"], {
      PACT_BROKER_USERNAME: "u",
      PACT_BROKER_PASSWORD: "p",
    });
    expect(c.broker?.auth).toEqual({ token: "tok-secret" });
  });

  it("splits user-info off every URL: the URL without it, the credentials apart", () => {
    const c = config([
      "--provider-url",
      "http://pu:p%40ss-1@127.0.0.1:8080/v1",
      "--provider-states-url",
      "http://su:st-pass@127.0.0.1:8080/_pact/provider-states",
      "--broker-url",
      "https://bu:b-pass@broker.example/base",
    ]);
    expect(urlProvider(c).url).toBe("http://127.0.0.1:8080/v1");
    expect(urlProvider(c).credentials).toEqual({ username: "pu", password: "p@ss-1" });
    expect(urlProvider(c).states?.url).toBe("http://127.0.0.1:8080/_pact/provider-states");
    expect(urlProvider(c).states?.authorization).toBe(`Basic ${btoa("su:st-pass")}`);
    expect(c.broker).toMatchObject({
      url: "https://broker.example/base",
      auth: { username: "bu", password: "b-pass" },
    });
  });

  it("pact URLs on the broker get its login; others do not; --pacts turns broker selection off", () => {
    const env = {
      PACT_BROKER_BASE_URL: "https://broker.example",
      PACT_BROKER_USERNAME: "u",
      PACT_BROKER_PASSWORD: "p",
    };
    const onBroker = config(
      ["--pacts", "https://broker.example/pacts/provider/idp-service/consumer/c/version/1"],
      env,
    );
    expect(onBroker.broker).toBeUndefined();
    expect(onBroker.pacts).toEqual([
      {
        kind: "url",
        url: "https://broker.example/pacts/provider/idp-service/consumer/c/version/1",
        authorization: `Basic ${btoa("u:p")}`,
      },
    ]);
    expect(onBroker.pactUrlAuth).toEqual({ username: "u", password: "p" });
    const elsewhere = config(["--pacts", "https://files.example/pact.json"], env);
    expect(elsewhere.pactUrlAuth).toBeUndefined();
  });

  it.each([
    [
      "a token and a username",
      ["--broker-url", "http://b.example", "--broker-token", "t", "--broker-username", "u"],
      {},
      "give either --broker-token (PactFlow) or --broker-username and --broker-password",
    ],
    [
      "a username without a password",
      ["--broker-url", "http://b.example", "--broker-username", "u"],
      {},
      "--broker-password is not set (basic auth needs both --broker-username and --broker-password)",
    ],
    [
      "PACT_BROKER_TOKEN and PACT_BROKER_USERNAME",
      ["--broker-url", "http://b.example"],
      { PACT_BROKER_TOKEN: "t", PACT_BROKER_USERNAME: "u", PACT_BROKER_PASSWORD: "p" },
      "give either PACT_BROKER_TOKEN (PactFlow) or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD",
    ],
    [
      "broker credentials twice (user-info and flags)",
      [
        "--broker-url",
        "http://u:secret@b.example",
        "--broker-username",
        "u",
        "--broker-password",
        "p",
      ],
      {},
      "the broker credentials are given twice",
    ],
    [
      "provider credentials twice (user-info and --username)",
      ["--provider-url", "http://u:secret@p.example/v1", "--username", "u", "--password", "p"],
      {},
      "the provider credentials are given twice",
    ],
    [
      "--broker-username without a broker",
      ["--broker-username", "u", "--broker-password", "p"],
      {},
      "--broker-username needs --broker-url (or PACT_BROKER_BASE_URL)",
    ],
    [
      "a pact URL with user-info",
      ["--pacts", "https://u:secret@b.example/pacts/x"],
      {},
      "--pacts: a pact URL must not carry credentials",
    ],
    [
      "selectors with --pacts",
      [
        "--broker-url",
        "http://b.example",
        "--pacts",
        "p.json",
        "--consumer-version-selectors",
        "{}",
      ],
      {},
      "--consumer-version-selectors chooses pacts on the broker; it does not go with --pacts",
    ],
    [
      "pact URLs on the broker and elsewhere",
      [
        "--broker-url",
        "http://b.example",
        "--broker-token",
        "t",
        "--pacts",
        "http://b.example/pacts/1",
        "--pacts",
        "http://other.example/pacts/2",
      ],
      {},
      "--pacts mixes URLs on the broker",
    ],
    [
      "publishing results of files",
      ["--pacts", "p.json", "--publish-verification-results", "--provider-version", "1"],
      {},
      "--publish-verification-results needs pacts from a broker",
    ],
    [
      "--publish-verification-results without --provider-version",
      ["--broker-url", "http://b.example", "--publish-verification-results"],
      {},
      "--provider-version",
    ],
    [
      "--consumer-version-selectors that is not JSON",
      ["--broker-url", "http://b.example", "--consumer-version-selectors", '[{"mainBranch":true}'],
      {},
      "--consumer-version-selectors",
    ],
    [
      "--enable-pending without --provider-branch (a broker refuses pending without a branch)",
      ["--broker-url", "http://b.example", "--enable-pending"],
      {},
      "--provider-branch",
    ],
    [
      "--include-wip-pacts-since without --provider-branch",
      ["--broker-url", "http://b.example", "--include-wip-pacts-since", daysAgo(1)],
      {},
      "--provider-branch",
    ],
    [
      "a matchingBranch selector without --provider-branch (the broker would select nothing)",
      [
        "--broker-url",
        "http://b.example",
        "--consumer-version-selectors",
        '[{"mainBranch":true},{"matchingBranch":true}]',
      ],
      {},
      '--consumer-version-selectors: {"matchingBranch": true} needs --provider-branch',
    ],
    [
      "a WIP date more than 90 days back",
      [
        "--broker-url",
        "http://b.example",
        "--include-wip-pacts-since",
        daysAgo(92),
        "--provider-branch",
        "main",
      ],
      {},
      `--include-wip-pacts-since ${daysAgo(92)} is 92 days back; expected a date at most 90 days back`,
    ],
    [
      "a WIP date that is no date",
      ["--broker-url", "http://b.example", "--include-wip-pacts-since", "last week"],
      {},
      "--include-wip-pacts-since must be a date, e.g. ",
    ],
    [
      "publishing results of the embedded reference provider (nothing of yours was verified)",
      [
        "--broker-url",
        "http://b.example",
        "--publish-verification-results",
        "--provider-version",
        "1",
      ],
      {},
      "--publish-verification-results needs --provider-url: without it the embedded reference provider is verified, not your provider",
    ],
    [
      "--provider-branch that is blank",
      ["--broker-url", "http://b.example", "--provider-branch", " "],
      {},
      "--provider-branch",
    ],
  ])("should exit 2 with one line for %s", async (_, argv, env, message) => {
    const run = await runVerify(["--checks", "pact", ...argv], env);
    expect(run.code).toBe(2);
    const errors = run.stderr.split("\n").filter((l) => l.startsWith("idp-verify: "));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^idp-verify: E_CONFIG: /);
    expect(errors[0]).toContain(message);
    expect(run.stderr).not.toContain("secret");
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe("");
  });
});
