import { join } from "node:path";
import { fc, test } from "@fast-check/vitest";
import { readBrokerSettings } from "@idp/pact-consumer";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../src/config/parse.ts";
import { VerifyError } from "../src/errors.ts";
import { urlProvider } from "./support/config.ts";

const run = (argv: string[], env: Record<string, string> = {}) => {
  const r = parseConfig(argv, env, "/work/dir");
  if (r.kind !== "run") throw new Error(`expected a run, got ${r.kind}`);
  return r.config;
};
const errorOf = (argv: string[], env: Record<string, string> = {}) => {
  try {
    parseConfig(argv, env, "/work/dir");
  } catch (e) {
    if (e instanceof VerifyError) return e;
    throw e;
  }
  throw new Error("expected a VerifyError");
};

describe("parseConfig", () => {
  it("reads the process's own environment (process.env is no plain object)", () => {
    // The CLI hands it process.env itself; tests elsewhere hand plain objects.
    const r = parseConfig(["--runs", "1"], process.env, "/work/dir");
    expect(r.kind).toBe("run");
  });

  it("takes credentials from the environment, repeatable --pacts and --report, paths from the user's directory", () => {
    const c = run(
      [
        "--provider-url",
        "http://127.0.0.1:1/v1/",
        "--pacts",
        "a.json",
        "--pacts",
        "https://broker/pacts/x",
        "--report",
        "json=r.json",
        "--report",
        "junit=out/r.xml",
        "--checks",
        "R1,R5.invalid-rejected",
      ],
      { IDP_USERNAME: "u", IDP_PASSWORD: "p" },
    );
    expect(urlProvider(c).url).toBe("http://127.0.0.1:1/v1");
    expect(urlProvider(c).credentials).toEqual({ username: "u", password: "p" });
    expect(c.pacts).toEqual([
      { kind: "path", path: "/work/dir/a.json" },
      { kind: "url", url: "https://broker/pacts/x" },
    ]);
    expect(c.reports).toEqual([
      { format: "json", path: "/work/dir/r.json" },
      { format: "junit", path: "/work/dir/out/r.xml" },
    ]);
    expect(c.checks).toEqual(["R1", "R5.invalid-rejected"]);
  });

  it("reads relative paths from the working directory, never from an INIT_CWD it inherits", () => {
    // INIT_CWD names where an outer npm script was started (`"verify": "cd provider && idp-verify
    // --report html=x.html"` from the package root): the bin runs in provider/.
    const r = parseConfig(["--report", "html=x.html"], { INIT_CWD: "/home/me/project" });
    expect(r.kind === "run" && r.config.reports[0]?.path).toBe(join(process.cwd(), "x.html"));
  });

  it("splits URL user-info off where it is placed: provider, states, broker", () => {
    const c = run([
      "--provider-url",
      "http://alice:pa%40ss@127.0.0.1:1/v1",
      "--provider-states-url",
      "http://st:sp@127.0.0.1:1/_pact/provider-states",
      "--broker-url",
      "https://bu:bp@broker.example",
    ]);
    expect(urlProvider(c).url).toBe("http://127.0.0.1:1/v1");
    expect(urlProvider(c).credentials).toEqual({ username: "alice", password: "pa@ss" });
    expect(urlProvider(c).states?.url).toBe("http://127.0.0.1:1/_pact/provider-states");
    expect(urlProvider(c).states?.authorization).toBe(
      `Basic ${Buffer.from("st:sp").toString("base64")}`,
    );
    expect(c.broker?.url).toBe("https://broker.example");
    expect(c.broker?.auth).toEqual({ username: "bu", password: "bp" });
    for (const url of [urlProvider(c).url, urlProvider(c).states?.url, c.broker?.url])
      expect(url).not.toMatch(/alice|pa%40ss|st:|bu:|@/);
  });

  it("reads the broker from PACT_BROKER_* and lends its login to pact URLs on its origin", () => {
    const env = {
      PACT_BROKER_BASE_URL: "https://broker.example",
      PACT_BROKER_USERNAME: "u",
      PACT_BROKER_PASSWORD: "pw",
    };
    const c = run(["--pacts", "https://broker.example/pacts/provider/p/consumer/c/latest"], env);
    expect(c.broker).toBeUndefined(); // --pacts: no choosing on the broker
    expect(c.pactUrlAuth).toEqual({ username: "u", password: "pw" });
    expect(c.pacts[0]).toEqual({
      kind: "url",
      url: "https://broker.example/pacts/provider/p/consumer/c/latest",
      authorization: `Basic ${Buffer.from("u:pw").toString("base64")}`,
    });
    const elsewhere = run(["--pacts", "https://elsewhere/p.json"], {
      PACT_BROKER_BASE_URL: "https://broker.example",
    });
    expect(elsewhere.pacts[0]).toEqual({ kind: "url", url: "https://elsewhere/p.json" });
  });

  it("makes WIP pacts pending", () => {
    const c = run([
      "--broker-url",
      "http://b",
      "--include-wip-pacts-since",
      new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10),
      "--provider-branch",
      "main",
    ]);
    expect(c.broker?.enablePending).toBe(true);
  });

  it("defaults to the embedded provider, the repo's pacts, the default profile and a 600 s limit", () => {
    const c = run([]);
    expect(c.provider.kind).toBe("embedded");
    expect(c.defaultPacts).toBe(true);
    expect(c.profile.name).toBe("default");
    expect(c.maxDurationMs).toBe(600_000);
    expect(c.shrink).toBe(true);
  });

  it("--no-shrink turns shrinking off; a value for it is refused", () => {
    expect(run(["--no-shrink"]).shrink).toBe(false);
    expect(errorOf(["--no-shrink=yes"]).message).toMatch(/--no-shrink/);
  });

  it("reads --seed -5 as a value", () => {
    expect(run(["--seed", "-5"]).seed).toBe(-5);
  });

  it.each<[string[], RegExp, string?, Record<string, string>?]>([
    [["--nope"], /^unknown option --nope$/],
    [["--chekcs", "R1"], /^unknown option --chekcs \(did you mean --checks\?\)$/],
    [["--runs", "-1"], /^--runs must be a whole number from 1 to 1000000 \(received "-1"\)$/],
    [["--runs", "zero"], /^--runs must be a whole number/],
    [["--checks", "R11"], /^unknown check id "R11" in --checks/],
    [["--checks", "R1.auth.no-headr"], /did you mean "R1\.auth\.no-header"\?/],
    [["--report", "jsn=out.json"], /did you mean json=\.\.\.\?/],
    [["--provider-url", "http://127.0.0.1:9/v1"], /--provider-url needs credentials/],
    [
      ["--provider-url", "ftp://x/v1", "--username", "u", "--password", "p"],
      /--provider-url must be an http\(s\) URL/,
    ],
    [["--consumer-version-selectors", "[]"], /--consumer-version-selectors needs --broker-url/],
    [["--publish-verification-results"], /--publish-verification-results needs --provider-version/],
    [
      [
        "--broker-url",
        "http://b",
        "--broker-token",
        "t",
        "--broker-username",
        "u",
        "--broker-password",
        "p",
      ],
      /^give either --broker-token \(PactFlow\) or --broker-username and --broker-password/,
    ],
    [
      ["--provider-url", "http://127.0.0.1:9/v1", "--password", "p"],
      /^give both a username and a password .*: only the password is set$/,
    ],
    [
      ["--provider-url", "http://127.0.0.1:9/v1"],
      /^the username \(IDP_USERNAME\) must not contain ':'/,
      "E_CONFIG",
      { IDP_USERNAME: "a:b", IDP_PASSWORD: "p" },
    ],
    [
      ["--client-cert", "c.pem"],
      /^--client-key is missing: --client-cert and --client-key go together/,
    ],
    [["--replay-dir", ""], /^--replay-dir needs a directory \(DIR\); received an empty path$/],
    [
      ["--broker-url", "http://b", "--consumer-version-selectors", "[1]"],
      /^--consumer-version-selectors must be a JSON object or array of objects, .*\(received \[1\]\)$/,
    ],
    [["--profile", "./nope.json"], /^profile \.\/nope\.json: /, "E_PROFILE"],
  ])("refuses %j with one line naming the option", (argv, message, code = "E_CONFIG", env = {}) => {
    const e = errorOf(argv, env);
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain("\n");
  });

  test.prop([fc.string()])(
    "never throws anything but a VerifyError for any --runs value",
    (value) => {
      try {
        parseConfig(["--runs", value], {}, "/");
      } catch (e) {
        expect(e).toBeInstanceOf(VerifyError);
      }
    },
  );
});

describe("the broker settings mean the same in idp-verify and idp-pacts", () => {
  const settings: Record<string, string>[] = [
    { PACT_BROKER_BASE_URL: "https://b.example/" },
    { PACT_BROKER_BASE_URL: "https://b.example", PACT_BROKER_TOKEN: "tok-1234" },
    {
      PACT_BROKER_BASE_URL: "https://b.example",
      PACT_BROKER_USERNAME: "u",
      PACT_BROKER_PASSWORD: "pw-1",
    },
    { PACT_BROKER_BASE_URL: "https://bu:b%40p@b.example/" },
    { PACT_BROKER_BASE_URL: "https://b.example", PACT_BROKER_TOKEN: " ", PACT_BROKER_PASSWORD: "" },
  ];
  it.each(settings)("reads %j alike", (env) => {
    const pacts = readBrokerSettings(env);
    const verify = run([], env);
    expect(verify.broker?.url).toBe(pacts.baseUrl);
    expect(verify.broker?.auth).toEqual(pacts.login);
  });

  const refused: Record<string, string>[] = [
    { PACT_BROKER_BASE_URL: "ftp://b.example" },
    { PACT_BROKER_BASE_URL: "https://b.example", PACT_BROKER_USERNAME: "u" },
    {
      PACT_BROKER_BASE_URL: "https://b.example",
      PACT_BROKER_TOKEN: "t",
      PACT_BROKER_PASSWORD: "p",
    },
    { PACT_BROKER_BASE_URL: "https://u:p@b.example", PACT_BROKER_TOKEN: "t" },
  ];
  it.each(refused)("refuses %j alike, with the same line", (env) => {
    let pactsMessage = "";
    try {
      readBrokerSettings(env);
    } catch (e) {
      pactsMessage = (e as Error).message;
    }
    expect(pactsMessage).not.toBe("");
    expect(errorOf([], env).message).toBe(pactsMessage);
  });
});
