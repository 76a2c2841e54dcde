// idp-pacts against the real Pact Broker (the official pact_broker v2.113 from the shared broker kit,
// see @idp/test-utils' startBroker): the bin, spawned as a user runs it, drives the official
// pact-broker CLI, and the broker's own API is the oracle. Without a broker these tests skip, loudly.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { flagUsage } from "@idp/contracts/cli";
import {
  brokerAvailable,
  type NodeRun,
  type RunningBroker,
  runNode,
  startBroker,
} from "@idp/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PACT_CONSUMER,
  PACT_FILE,
  PACT_PROVIDER,
  PactsCliError,
  pactBrokerBin,
  readBrokerSettings,
} from "../src/index.ts";
import { run } from "../src/pacts-command.ts";
import { PACTS_COMMANDS, PACTS_ENVIRONMENT, PACTS_GENERAL } from "../src/pacts-flags.ts";

const CLI = fileURLToPath(new URL("../src/pacts-cli.ts", import.meta.url));
const HAVE_BROKER = brokerAvailable();
// PACT_BROKER_TEST_URL names one broker; with basic auth on, there is none without auth to test.
const EXTERNAL_WITH_AUTH = Boolean(
  process.env.PACT_BROKER_TEST_URL && process.env.PACT_BROKER_TEST_USERNAME,
);
if (HAVE_BROKER && EXTERNAL_WITH_AUTH)
  console.warn(
    "⚠ SKIPPED: the test of a broker without auth needs one; PACT_BROKER_TEST_URL has basic auth on",
  );
/** Names unique to this run, so the tests also hold against a shared broker (PACT_BROKER_TEST_URL). */
const RUN = randomBytes(4).toString("hex");
// Canary passwords: distinctive, so finding one in any output is a leak, not a coincidence.
const WRITER = { user: "pact-writer", password: `canary-rw-${randomBytes(9).toString("hex")}` };
const READER = { user: "pact-reader", password: `canary-ro-${randomBytes(9).toString("hex")}` };

type Run = NodeRun;
/** Everything any command printed in this file, for the canary check at the end. */
const printed: string[] = [];

/** Runs a bin with exactly `env` (plus PATH and HOME), from the repository. */
async function spawnBin(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<Run> {
  const run = await runNode([file, ...args], { PACT_BROKER_HTTP_RETRIES: "0", ...env });
  printed.push(run.stdout, run.stderr);
  return run;
}
const idpPacts = (args: readonly string[], env: Record<string, string> = {}) =>
  spawnBin(CLI, args, env);
/**
 * The bin's command function in this process, with the environment the bin would get: for the
 * usage tables, whose every row would otherwise start a Node (a second each on CI's two cores).
 * The bin's own wiring (exit code, streams) is shown by the spawned rows beside them.
 */
async function idpPactsHere(args: readonly string[], env: Record<string, string>): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await run(
    args,
    {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      PACT_BROKER_HTTP_RETRIES: "0",
      ...env,
    },
    {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
    },
  );
  printed.push(stdout, stderr);
  return { code, stdout, stderr };
}
const pactBroker = (args: readonly string[], env: Record<string, string>) =>
  spawnBin(pactBrokerBin(), args, env);

/** A git repository whose HEAD is detached, as a deploy job checks out: GIT_DIR points git at it. */
function detachedCheckout(): { gitDir: string; sha: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "idp-detached-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@example.invalid", "-c", "user.name=t", ...args], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  git("init", "-q");
  writeFileSync(join(dir, "f"), RUN + randomBytes(4).toString("hex"));
  git("add", "f");
  git("commit", "-qm", "c");
  git("checkout", "-q", "--detach");
  return { gitDir: join(dir, ".git"), sha: git("rev-parse", "HEAD"), dir };
}

const lines = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .filter((l) => l !== "");

describe.skipIf(!HAVE_BROKER)("idp-pacts against the real Pact Broker", () => {
  let secured: RunningBroker;
  /** Without auth; its start may fail alone (an external broker has one auth setup). */
  let openStart: PromiseSettledResult<RunningBroker>;
  let writer: { user: string; password: string };
  let reader: { user: string; password: string };
  let checkout: ReturnType<typeof detachedCheckout>;
  const branch = `feat-${RUN}`;
  const environment = `prod-${RUN}`;
  // Made in beforeAll: a skipped describe still runs its body, but never its hooks.
  let work = "";

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "idp-pacts-broker-"));
    // One broker with basic auth (a read-write and a read-only user), one without; started together.
    const [securedStart, open] = await Promise.allSettled([
      startBroker({
        auth: { ...WRITER, readOnlyUser: READER.user, readOnlyPassword: READER.password },
      }),
      EXTERNAL_WITH_AUTH ? Promise.reject(new Error("no broker without auth")) : startBroker(),
    ]);
    openStart = open;
    if (securedStart.status === "rejected") {
      if (open.status === "fulfilled") await open.value.stop();
      throw securedStart.reason;
    }
    secured = securedStart.value;
    const auth = secured.auth;
    if (!auth?.readOnlyUser || !auth.readOnlyPassword) throw new Error("no read-only user");
    writer = { user: auth.user, password: auth.password };
    reader = { user: auth.readOnlyUser, password: auth.readOnlyPassword };
    checkout = detachedCheckout();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([
      secured?.stop(),
      openStart?.status === "fulfilled" ? openStart.value.stop() : undefined,
    ]);
    if (work) rmSync(work, { recursive: true, force: true });
    if (checkout) rmSync(checkout.dir, { recursive: true, force: true });
  });

  const as = (who: { user: string; password: string }, extra: Record<string, string> = {}) => ({
    PACT_BROKER_BASE_URL: secured.url,
    PACT_BROKER_USERNAME: who.user,
    PACT_BROKER_PASSWORD: who.password,
    GIT_DIR: checkout.gitDir,
    ...extra,
  });
  /** The broker's own API, read as the read-write user: the oracle. */
  const brokerGet = async (path: string) => {
    const res = await fetch(`${secured.url}${path}`, {
      headers: {
        accept: "application/hal+json",
        authorization: `Basic ${btoa(`${writer.user}:${writer.password}`)}`,
      },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("starts from an empty broker (a kit broker's database is fresh, or a copy of the migrated empty one)", async () => {
    if (secured.source !== "kit") return; // an external broker holds what others wrote
    const { status, body } = await brokerGet("/pacticipants");
    expect(status).toBe(200);
    expect(
      (body._embedded as { pacticipants?: unknown[] } | undefined)?.pacticipants ?? [],
    ).toEqual([]);
  });

  it("publish needs a branch: on a detached HEAD without PACT_CONSUMER_BRANCH it exits 2 saying so", async () => {
    const r = await idpPacts(["publish"], as(writer));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(/^idp-pacts: git HEAD is detached, .* set PACT_CONSUMER_BRANCH/),
    ]);
  });

  it("publishes every pact with the read-write user, as the git commit on the given branch", async () => {
    const r = await idpPacts(["publish"], as(writer, { PACT_CONSUMER_BRANCH: branch }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `idp-pacts: publishing 1 pact file(s) from ${join(fileURLToPath(new URL("../../../pacts/", import.meta.url)))}`,
    );
    // The broker holds the pact under the commit of the detached checkout, on the branch.
    const pact = await brokerGet(
      `/pacts/provider/${PACT_PROVIDER}/consumer/${PACT_CONSUMER}/version/${checkout.sha}`,
    );
    expect(pact.status).toBe(200);
    const committed = JSON.parse(readFileSync(PACT_FILE, "utf8")) as {
      interactions: { description: string }[];
    };
    expect((pact.body.interactions as { description: string }[]).map((i) => i.description)).toEqual(
      committed.interactions.map((i) => i.description),
    );
    const onBranch = await brokerGet(
      `/pacticipants/${PACT_CONSUMER}/branches/${branch}/versions/${checkout.sha}`,
    );
    expect(onBranch.status).toBe(200);
  });

  it("republishes identical content; changed content under the same version is refused (exit 1, the broker's reason)", async () => {
    const again = await idpPacts(["publish"], as(writer, { PACT_CONSUMER_BRANCH: branch }));
    expect(again.code, again.stdout + again.stderr).toBe(0);

    const changedDir = join(work, "changed");
    execFileSync("mkdir", ["-p", changedDir]);
    const doc = JSON.parse(readFileSync(PACT_FILE, "utf8")) as {
      interactions: { response: { status: number } }[];
    };
    const first = doc.interactions[0];
    if (first) first.response.status = 299;
    writeFileSync(join(changedDir, `${PACT_CONSUMER}-${PACT_PROVIDER}.json`), JSON.stringify(doc));
    const changed = await idpPacts(
      ["publish", "--pacts-dir", changedDir],
      as(writer, { PACT_CONSUMER_BRANCH: branch }),
    );
    expect(changed.code).toBe(1);
    expect(changed.stdout + changed.stderr).toMatch(/Cannot change the content of the pact/);
  });

  it("the read-only user cannot publish: exit 2, one line saying a read-only user cannot write", async () => {
    const r = await idpPacts(
      ["publish"],
      as(reader, { PACT_CONSUMER_VERSION: `ro-${RUN}`, PACT_CONSUMER_BRANCH: branch }),
    );
    expect(r.code).toBe(2);
    expect(lines(r.stderr).at(-1)).toBe(
      `idp-pacts: the Pact Broker at ${secured.url} refused the request (401 Unauthorized): check PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD; a read-only user cannot publish or record (use the broker's read-write user)`,
    );
    const none = await brokerGet(`/pacticipants/${PACT_CONSUMER}/versions/ro-${RUN}`);
    expect(none.status).toBe(404);
  });

  it("a missing environment is one line saying how to create it; that command creates it", async () => {
    for (const args of [
      ["can-i-deploy", "--to-environment", environment],
      ["record-deployment", "--environment", environment],
      ["record-release", "--environment", environment],
    ]) {
      const r = await idpPacts(args, as(reader));
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^idp-pacts: environment "${environment}" does not exist on the Pact Broker at ${secured.url} \\(it has[^)]*\\); create it once with: pact-broker create-environment --name ${environment} --production\\n$`,
        ),
      );
    }
    const suggested = /create it once with: pact-broker (.+)$/m.exec(printed.at(-1) ?? "")?.[1];
    expect(suggested).toBeDefined();
    const created = await pactBroker(
      [...(suggested ?? "").split(" "), "--broker-base-url", secured.url],
      as(writer),
    );
    expect(created.code, created.stdout + created.stderr).toBe(0);
  });

  it("on a detached HEAD, can-i-deploy says no (exit 1, never-verified) before a verification, and record-* work", async () => {
    // No PACT_CONSUMER_VERSION or _BRANCH: the version is the detached commit, no branch is needed.
    const no = await idpPacts(["can-i-deploy", "--to-environment", environment], as(reader));
    expect(no.code, no.stdout + no.stderr).toBe(1);
    expect(lines(no.stdout).at(-1)).toBe(
      `can-i-deploy: no, ${PACT_CONSUMER} version ${checkout.sha} may not go to ${environment} (never-verified)`,
    );
    expect(no.stderr).toContain(
      `idp-pacts: can ${PACT_CONSUMER} version ${checkout.sha} be deployed to ${environment}?`,
    );

    // Recording needs the read-write user: the read-only one is refused with one line.
    const refused = await idpPacts(["record-deployment", "--environment", environment], as(reader));
    expect(refused.code).toBe(2);
    expect(lines(refused.stderr).at(-1)).toMatch(/401 Unauthorized.*read-only user cannot/);

    const deployed = await idpPacts(
      ["record-deployment", "--environment", environment],
      as(writer),
    );
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    const released = await idpPacts(["record-release", "--environment", environment], as(writer));
    expect(released.code, released.stdout + released.stderr).toBe(0);

    // The broker's view: this commit of the consumer is deployed and released there.
    const envs = await brokerGet("/environments");
    const env = (
      envs.body._embedded as { environments: { name: string; uuid: string }[] }
    ).environments.find((e) => e.name === environment);
    expect(env).toBeDefined();
    const versionsOf = async (path: string) => {
      const r = await brokerGet(`/environments/${env?.uuid}/${path}`);
      const key = path.startsWith("deployed") ? "deployedVersions" : "releasedVersions";
      return (
        (r.body._embedded as Record<string, { _embedded: { version: { number: string } } }[]>)[
          key
        ] ?? []
      ).map((d) => d._embedded.version.number);
    };
    expect(await versionsOf("deployed-versions/currently-deployed")).toContain(checkout.sha);
    expect(await versionsOf("released-versions/currently-supported")).toContain(checkout.sha);
  });

  it("another pacticipant needs its own version; one the broker does not know is exit 2, not the exit 1 of a no", async () => {
    const bare = await idpPacts(
      ["record-deployment", "--environment", environment, "--pacticipant", PACT_PROVIDER],
      as(writer),
    );
    expect(bare.code).toBe(2);
    expect(lines(bare.stderr)).toEqual([
      `idp-pacts: --pacticipant ${PACT_PROVIDER} needs --version V (the default version, the git commit, is that of the consumer the pacts name: ${PACT_CONSUMER})`,
    ]);
    // The provider has no version yet: a setup problem, found before the pact-broker CLI runs.
    const unknown = await idpPacts(
      [
        "record-deployment",
        "--environment",
        environment,
        "--pacticipant",
        PACT_PROVIDER,
        "--version",
        `p-${RUN}`,
      ],
      as(writer),
    );
    expect(unknown.code).toBe(2);
    expect(lines(unknown.stderr).at(-1)).toBe(
      `idp-pacts: the Pact Broker at ${secured.url} does not know version p-${RUN} of ${PACT_PROVIDER}: publish that version's pacts (or, a provider, its verification results) first, or check --version (default: PACT_CONSUMER_VERSION, else the git commit)`,
    );
  });

  it("a bearer token is refused by the open-source broker (400): exit 2 saying to use basic auth", async () => {
    const token = `canary-token-${RUN}`;
    const r = await idpPacts(["can-i-deploy", "--to-environment", environment], {
      PACT_BROKER_BASE_URL: secured.url,
      PACT_BROKER_TOKEN: token,
      PACT_CONSUMER_VERSION: checkout.sha,
    });
    expect(r.code).toBe(2);
    expect(lines(r.stderr).at(-1)).toMatch(
      /refused the bearer token \(400 Bad Request\): the open-source Pact Broker takes basic auth only/,
    );
    expect(r.stdout + r.stderr).not.toContain(token);
  });

  it("without credentials against a broker with auth: exit 2 naming the variables to set", async () => {
    const r = await idpPacts(["can-i-deploy", "--to-environment", environment], {
      PACT_BROKER_BASE_URL: secured.url,
      PACT_CONSUMER_VERSION: checkout.sha,
    });
    expect(r.code).toBe(2);
    expect(lines(r.stderr).at(-1)).toMatch(
      /401 Unauthorized\): no credentials were given: set PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD/,
    );
  });

  it.skipIf(EXTERNAL_WITH_AUTH)(
    "a broker without auth needs no credentials: publish, then can-i-deploy says no",
    async () => {
      if (openStart.status === "rejected") throw openStart.reason;
      const open = openStart.value;
      const base = {
        PACT_BROKER_BASE_URL: open.url,
        PACT_CONSUMER_VERSION: `open-${RUN}`,
        PACT_CONSUMER_BRANCH: "main",
      };
      const published = await idpPacts(["publish"], base);
      expect(published.code, published.stdout + published.stderr).toBe(0);
      expect(published.stderr).toContain(`to ${open.url} (no auth)`);
      const created = await pactBroker(
        ["create-environment", "--name", "staging", "--broker-base-url", open.url],
        {},
      );
      expect(created.code, created.stdout + created.stderr).toBe(0);
      const no = await idpPacts(["can-i-deploy", "--to-environment", "staging"], base);
      expect(no.code).toBe(1);
      expect(no.stdout).toMatch(
        /^✗ idp-toolkit-consumer → idp-service in staging: never-verified$/m,
      );
    },
  );

  it("no output of any command carried a broker password", () => {
    expect(printed.length).toBeGreaterThan(20);
    const all = printed.join("\n");
    for (const secret of [
      writer.password,
      reader.password,
      btoa(`${writer.user}:${writer.password}`),
      btoa(`${reader.user}:${reader.password}`),
    ])
      expect(all).not.toContain(secret);
  });
});

// The bin's own checks: nothing reaches a broker (the base URL points at a closed port).
describe("idp-pacts bin: usage", () => {
  const env = {
    PACT_BROKER_BASE_URL: "http://127.0.0.1:9",
    PACT_CONSUMER_VERSION: "v",
    PACT_CONSUMER_BRANCH: "b",
  };

  it("--help prints the usage on stdout, exit 0, also after a command", async () => {
    for (const [i, args] of [
      ["--help"],
      ["can-i-deploy", "--help"],
      ["record-release", "-h"],
    ].entries()) {
      const r = i === 0 ? await idpPacts(args, env) : await idpPactsHere(args, env);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      for (const command of ["publish", "can-i-deploy", "record-deployment", "record-release"])
        expect(r.stdout).toContain(`  ${command} `);
      expect(r.stdout).toContain("pact-broker create-environment --name production --production");
    }
  });

  it("--help lists every command and every flag and variable of the tables", async () => {
    let out = "";
    const code = await run(["--help"], env, {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        out += t;
      },
    });
    expect(code).toBe(0);
    const tables = [
      ...Object.values(PACTS_COMMANDS).map((c) => c.flags),
      PACTS_ENVIRONMENT,
      PACTS_GENERAL,
    ];
    for (const command of Object.keys(PACTS_COMMANDS)) expect(out).toContain(`\n  ${command} `);
    const listed = out.split("\n");
    for (const table of tables)
      for (const [name, spec] of Object.entries(table))
        expect(
          listed.some((l) => l.startsWith(`  ${flagUsage(name, spec)}  `)),
          name,
        ).toBe(true);
  });

  it("prints its version, the package's, with --version alone", async () => {
    const r = await idpPacts(["--version"], env);
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(r.stdout).toBe(`idp-pacts ${pkg.version}\n`);
    expect(r.code).toBe(0);
  });

  it.each([
    [[], "idp-pacts: missing command: one of publish, can-i-deploy, doctor, record-deployment"],
    [["deploy"], 'idp-pacts: unknown command "deploy"'],
    [["record-deploy"], 'unknown command "record-deploy" (did you mean record-deployment?)'],
    [["can-i-deplo"], "(did you mean can-i-deploy?)"],
    [
      ["can-i-deploy", "--to-env", "x"],
      "unknown option --to-env (did you mean --to-environment?) for can-i-deploy",
    ],
    [["can-i-deploy", "--environment", "x"], "(did you mean --to-environment?)"],
    [["record-deployment", "--to-environment", "x"], "(did you mean --environment?)"],
    [["publish", "--pacts", "x"], "(did you mean --pacts-dir?)"],
    [["publish", "extra"], "unexpected argument extra: publish takes only --pacts-dir"],
    [["can-i-deploy"], "idp-pacts: --to-environment ENV is missing"],
    [["record-release", "--environment"], "--environment needs a value (ENV)"],
    [["record-deployment"], "idp-pacts: --environment ENV is missing"],
    [["doctor", "--environment", "x"], "(did you mean --to-environment?)"],
    [["doctor", "--", "--output", "json"], "doctor reads the broker's API itself"],
    [
      ["can-i-deploy", "--to-environment", "x", "--", "--ignore", "y"],
      "can-i-deploy reads the broker's API itself: after -- it takes only --retry-while-unknown N and --retry-interval S (received --ignore)",
    ],
    [
      ["can-i-deploy", "--to-environment", "x", "--retry-while-unknown", "many"],
      '--retry-while-unknown must be a whole number >= 0 (received "many")',
    ],
    [
      ["can-i-deploy", "--to-environment", "x", "--pacts-dir", "/nonexistent-pacts"],
      "no --pacticipant, and no pact folder /nonexistent-pacts to take the consumer's name from",
    ],
  ])("%j: exit 2, one line on stderr, nothing on stdout", async (args, line) => {
    // The first row through the bin itself; the others through its command function.
    const r = args.length === 0 ? await idpPacts(args, env) : await idpPactsHere(args, env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(line);
  });

  it.each([
    [{ PACT_BROKER_BASE_URL: "" }, "idp-pacts: PACT_BROKER_BASE_URL is not set"],
    [{ PACT_BROKER_USERNAME: "u" }, "idp-pacts: PACT_BROKER_PASSWORD is not set"],
    [{ PACT_BROKER_TOKEN: "t", PACT_BROKER_PASSWORD: "p" }, "not both"],
    [
      { PACT_BROKER_BASE_URL: "http://u:secret@127.0.0.1:9", PACT_BROKER_TOKEN: "t" },
      "the broker credentials are given twice",
    ],
  ])("settings %j: exit 2 with one line", async (unset, line) => {
    const r = await idpPactsHere(["can-i-deploy", "--to-environment", "production"], {
      ...env,
      ...unset,
    });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringContaining(line)]);
    expect(r.stderr).not.toContain("secret");
  });
});

describe("broker settings", () => {
  it.each([
    [{}, /PACT_BROKER_BASE_URL is not set/],
    [{ PACT_BROKER_BASE_URL: "not a url" }, /not an absolute http\(s\) URL/],
    [{ PACT_BROKER_BASE_URL: "ftp://b.example" }, /not an absolute http\(s\) URL/],
    [
      { PACT_BROKER_BASE_URL: "https://u:secret@b.example", PACT_BROKER_PASSWORD: "p" },
      /given twice: in the user-info of PACT_BROKER_BASE_URL/,
    ],
    [
      { PACT_BROKER_BASE_URL: "https://b.example", PACT_BROKER_USERNAME: "u" },
      /PACT_BROKER_PASSWORD is not set/,
    ],
    [
      { PACT_BROKER_BASE_URL: "https://b.example", PACT_BROKER_PASSWORD: "p" },
      /PACT_BROKER_USERNAME is not set/,
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

  it.each([
    [{ PACT_BROKER_TOKEN: "t" }, "token"],
    [{ PACT_BROKER_USERNAME: "u", PACT_BROKER_PASSWORD: "p" }, "basic"],
    [{}, "none"],
    // A CI secret that is not set arrives as "": the same as not set.
    [{ PACT_BROKER_TOKEN: "", PACT_BROKER_USERNAME: " ", PACT_BROKER_PASSWORD: "" }, "none"],
  ])("%j -> %s auth", (creds, auth) => {
    expect(
      readBrokerSettings({ PACT_BROKER_BASE_URL: "https://b.example/", ...creds }),
    ).toMatchObject({
      baseUrl: "https://b.example",
      auth,
    });
  });

  it("takes user-info in the URL as the basic login, as idp-verify does, and keeps it off the URL", () => {
    const s = readBrokerSettings({ PACT_BROKER_BASE_URL: "https://bu:b%40p@b.example/" });
    expect(s).toEqual({
      baseUrl: "https://b.example",
      auth: "basic",
      login: { username: "bu", password: "b@p" },
    });
  });
});
