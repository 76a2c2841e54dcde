// idp-verify --learn (conformance.md §6, "Learning a profile"): providers written by hand
// (@idp/fault-providers: node:http, no @idp/* code) that read the spec's gaps their own way get a
// learned profile under which a run with another seed passes; faults that must never be learned
// still fail the same checks under their learned profile. The checks are R1-R8 without the pacts:
// a pact is the consumer's expectation, which a profile never changes (a provider answering 422
// where the pact records 400 fails that pact whatever it learns).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type HandProviderOptions,
  type RunningProvider,
  startHandProvider,
} from "@idp/fault-providers";
import { afterAll, describe, expect, it } from "vitest";
import { against, CREDENTIALS, failedIds, runVerify, verifyReport } from "./support/run.ts";

const dir = mkdtempSync(join(tmpdir(), "idp-learn-"));
const started: RunningProvider[] = [];
afterAll(async () => {
  await Promise.all(started.map((p) => p.close()));
  rmSync(dir, { recursive: true, force: true });
});
const start = async (options: Omit<HandProviderOptions, "credentials">) => {
  const p = await startHandProvider({ credentials: CREDENTIALS, ...options });
  started.push(p);
  return p;
};

const RULES = ["--checks", "R1,R2,R3,R4,R5,R6,R7,R8"];
const KEYWORD = "rules.features.*.labels[].keywords[]";
const keyword = (unit: "codePoints" | "utf16" | "bytes") => ({
  at: KEYWORD,
  maxLength: 100,
  unit,
  status: 422,
});

interface GapCase {
  readonly name: string;
  readonly options: Omit<HandProviderOptions, "credentials">;
  /** Keys the learned file must hold, with their values. */
  readonly learned: Readonly<Record<string, unknown>>;
}

const GAPS: readonly GapCase[] = [
  {
    name: "keywords of at most 100 UTF-16 units (JavaScript's length), push's wrong types 422",
    options: {
      limits: [keyword("utf16")],
      bodyStatuses: { pushToUserDevices: { "wrong-type": 422 } },
    },
    learned: {
      [`bounds.${KEYWORD}`]: { maxLength: 100, unit: "utf16", status: 422 },
      "statusMapping.pushToUserDevices.wrong-type": 422,
      "documentedStatuses.pushToUserDevices": [200, 400, 401, 403, 404, 422, 500],
    },
  },
  {
    name: "keywords of at most 100 UTF-8 bytes (Go's len), 404 for another app's user, 20 features, badges to 99999",
    options: {
      limits: [
        keyword("bytes"),
        { at: "rules.features", maxItems: 20, status: 422 },
        { at: "data.badge", maximum: 99999, status: 400 },
      ],
      loginUserStatuses: { otherLoginApp: 404 },
    },
    learned: {
      [`bounds.${KEYWORD}`]: { maxLength: 100, unit: "bytes", status: 422 },
      "bounds.rules.features": { maxItems: 20, status: 422 },
      "bounds.data.badge": { maximum: 99999, status: 400 },
      "loginUserStatuses.otherLoginApp": 404,
    },
  },
  {
    name: "keywords of at most 100 code points, the service's public documentation's reading",
    options: { limits: [keyword("codePoints")], reading: "observed-service" },
    learned: {
      [`bounds.${KEYWORD}`]: { maxLength: 100, unit: "codePoints", status: 422 },
      "statusMapping.pushToUserDevices.wrong-type": 422,
      "loginUserStatuses.unknown": 403,
      errorsItems: ["string", "object"],
      "valuesInUse.schema.fields[].type": [
        "array",
        "boolean",
        "date",
        "date_time",
        "float",
        "hash",
        "integer",
        "string",
        "time",
      ],
    },
  },
];

/** The value of a profile key in a profile file's JSON. */
function keyValue(file: Record<string, unknown>, key: string): unknown {
  const [head = "", ...rest] = key.split(".");
  const path =
    head === "valuesInUse" || head === "bounds" ? [head, rest.join(".")] : [head, ...rest];
  return path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], file);
}

describe("a provider that reads the gaps its own way: --learn, then a run under the file passes", () => {
  it.each(GAPS)("$name", async ({ name, options, learned }) => {
    const provider = await start(options);
    const file = join(dir, `${name.slice(0, 20).replace(/\W+/g, "-")}.json`);
    const first = await verifyReport(
      against(provider, [...RULES, "--learn", file], { seed: 1, runs: 10 }),
    );
    // The run's verdict is its own: red, with the profile written.
    expect(first.code, first.stdout).toBe(1);
    const json = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    for (const [key, value] of Object.entries(learned))
      expect(keyValue(json, key), `${key} in ${JSON.stringify(json)}`).toEqual(value);
    // Each learned key with its evidence, and nothing else in the file.
    const sources = json.sources as Record<string, { check: string; request: string }>;
    expect(Object.keys(sources).sort()).toEqual(
      first.report?.learn?.learned.map((k) => k.key).sort(),
    );
    for (const key of Object.keys(learned)) expect(sources[key]?.check).toMatch(/^R\d\./);
    // Every failure of the first run is explained by a learned key.
    expect(
      first.report?.learn?.notLearned.filter((n) => n.kind !== "not-surveyed"),
      first.stdout,
    ).toEqual([]);
    expect(first.stdout).toContain(`Learned profile: ${file} (extends default)`);

    const second = await verifyReport(
      against(provider, [...RULES, "--profile", file], { seed: 2, runs: 30 }),
    );
    expect(failedIds(second.report), second.stdout).toEqual([]);
    expect(second.code).toBe(0);
  });
});

it("writes the same bytes for the same provider and seed, and never a secret", async () => {
  const provider = await start({ limits: [keyword("utf16")], faults: ["echo-authorization"] });
  const texts: string[] = [];
  for (const n of [1, 2]) {
    const file = join(dir, `again-${n}.json`);
    const run = await verifyReport(
      against(provider, ["--checks", "R4,R5", "--learn", file], { seed: 5, runs: 20 }),
    );
    expect(run.report?.learn?.learned.map((k) => k.key)).toEqual([`bounds.${KEYWORD}`]);
    texts.push(readFileSync(file, "utf8"));
  }
  expect(texts[1]).toBe(texts[0]);
  expect(texts[0]).toContain('"unit": "utf16"');
  const token = Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString("base64");
  for (const secret of [CREDENTIALS.password, token]) expect(texts[0]).not.toContain(secret);
});

interface FaultCase {
  readonly name: string;
  readonly options: Omit<HandProviderOptions, "credentials">;
  readonly checks: string;
  /** The check that fails, before and under the learned profile. */
  readonly caught: string;
  /** What the learned file must not hold, and the output's reason for it. */
  readonly notLearned: { readonly subject: string; readonly why: RegExp };
}

const FAULTS: readonly FaultCase[] = [
  {
    name: "a 500 for a data.message over 100 code points (a 5xx on a valid body)",
    options: { limits: [{ at: "data.message", maxLength: 100, status: 500 }] },
    checks: "R4,R6",
    caught: "R6.no-5xx",
    notLearned: { subject: "bounds.data.message", why: /a 5xx is never learned/ },
  },
  {
    name: "a create acknowledged and lost (R9 selected)",
    options: { faults: ["lost-create"] },
    checks: "R4,R9",
    caught: "R9.read-back.createSchema",
    notLearned: { subject: "R9.read-back.createSchema", why: /a lost or altered write/ },
  },
  {
    name: "202 for a valid create",
    options: { faults: ["wrong-status"] },
    checks: "R3,R4,R5",
    caught: "R4.valid-accepted.createSchema",
    notLearned: {
      subject: "bounds (createSchema)",
      why: /202: a success status other than the spec's 201 is never learned/,
    },
  },
  {
    name: "a 422 whose body has no errors (text/plain)",
    options: { faults: ["broken-error-body"] },
    checks: "R2,R5",
    caught: "R2.error-body",
    notLearned: { subject: "errorsItems", why: /a broken error body is never learned/ },
  },
];

it("names what it saw both ways, with one exchange of each, and learns it not", async () => {
  // Push answers a wrong-typed data.badge with 422 and every other wrong type with 400.
  const provider = await start({ fieldStatuses: { "data.badge": 422 } });
  const file = join(dir, "both-ways.json");
  const check = "R5.invalid-rejected.pushToUserDevices";
  const first = await verifyReport(
    against(provider, ["--checks", check, "--learn", file], { seed: 1, runs: 10 }),
  );
  const key = "statusMapping.pushToUserDevices.wrong-type";
  const both = first.report?.learn?.notLearned.find((n) => n.subject === key);
  expect(both?.kind).toBe("inconsistent");
  expect(both?.why).toMatch(/^400 to \d+, 422 to \d+ of the bodies with wrong-type$/);
  expect(both?.exchanges.map((e) => e.answer.slice(0, 4))).toEqual(["400 ", "422 "]);
  expect(both?.exchanges[1]?.request).toContain('"badge":');
  expect(first.stdout).toContain(`- ${key}: seen both ways: 400 to`);
  expect(JSON.parse(readFileSync(file, "utf8")).statusMapping).toBeUndefined();
  const second = await verifyReport(
    against(provider, ["--checks", check, "--profile", file], { seed: 2, runs: 10 }),
  );
  expect(failedIds(second.report)).toEqual([check]);
});

describe("a fault is never learned: the run under its learned profile still fails the same check", () => {
  it.each(FAULTS)("$name", async ({ name, options, checks, caught, notLearned }) => {
    const provider = await start(options);
    const file = join(dir, `fault-${name.slice(0, 12).replace(/\W+/g, "-")}.json`);
    const first = await verifyReport(
      against(provider, ["--checks", checks, "--learn", file], { seed: 1, runs: 30 }),
    );
    expect(failedIds(first.report), first.stdout).toContain(caught);
    expect(first.code).toBe(1);
    const refused = first.report?.learn?.notLearned.find((n) => n.subject === notLearned.subject);
    expect(refused?.why, first.stdout).toMatch(notLearned.why);
    expect(refused?.exchanges.length).toBeGreaterThan(0);
    expect(first.stdout).toMatch(
      new RegExp(`- ${notLearned.subject.replace(/[.()]/g, "\\$&")}: never learned`),
    );
    const second = await verifyReport(
      against(provider, ["--checks", checks, "--profile", file], { seed: 2, runs: 30 }),
    );
    expect(failedIds(second.report), second.stdout).toContain(caught);
    expect(second.code).toBe(1);
  });
});

it("refuses, before the first request, a path it cannot write (--learn, --report, --replay-dir, --har) and --learn with --shard (exit 2)", async () => {
  const notADir = join(dir, "a-file");
  writeFileSync(notADir, "");
  // Nothing listens on port 9: a request would be E_PROVIDER_UNREACHABLE, not these.
  const base = [
    ...["--provider-url", "http://127.0.0.1:9/v1", "--checks", "R4"],
    ...["--username", CREDENTIALS.username, "--password", CREDENTIALS.password],
  ];
  const unwritable = await runVerify([...base, "--learn", join(notADir, "team.json")]);
  expect(unwritable.code).toBe(2);
  expect(unwritable.stderr).toMatch(
    /^idp-verify: E_LEARN: --learn: cannot write the learned profile to .*team\.json: E[A-Z]+\n/,
  );
  // Under /proc no folder can be made: Node's recursive mkdir never returned there, and the run hung.
  if (process.platform === "linux") {
    const underProc = await runVerify([
      ...base,
      ...["--learn", "/proc/idp-verify-test/team.json"],
      ...["--report", "json=/proc/idp-verify-test/r.json"],
    ]);
    expect(underProc.code).toBe(2);
    expect(underProc.stderr).toMatch(
      /^idp-verify: E_REPORT_WRITE: cannot write the json report to \/proc\/idp-verify-test\/r\.json: ENOENT\n/,
    );
    const learnOnly = await runVerify([...base, "--learn", "/proc/idp-verify-test/team.json"]);
    expect(learnOnly.stderr).toMatch(
      /E_LEARN: .* to \/proc\/idp-verify-test\/team\.json: ENOENT\n/,
    );
    const replays = await runVerify([...base, "--replay-dir", "/proc/idp-verify-test/replays"]);
    expect(replays.stderr).toMatch(
      /E_REPORT_WRITE: cannot write replay files to \/proc\/.*: ENOENT/,
    );
    const har = await runVerify([...base, "--har", "/proc/idp-verify-test/run.har"]);
    expect(har.code).toBe(2);
    expect(har.stderr).toMatch(
      /^idp-verify: E_REPORT_WRITE: cannot write the HAR file to \/proc\/idp-verify-test\/run\.har \(--har\): ENOENT\n/,
    );
  }
  // A HAR file's folders are made, as a report's: the run gets as far as the provider.
  const newFolder = await runVerify([
    ...["--provider-url", "http://127.0.0.1:9/v1", "--checks", "R2"],
    ...["--username", CREDENTIALS.username, "--password", CREDENTIALS.password],
    ...["--har", join(dir, "new", "sub", "run.har")],
  ]);
  expect(newFolder.stderr).toMatch(/^idp-verify: E_PROVIDER_UNREACHABLE: /);
  const sharded = await runVerify([...base, "--learn", "x.json", "--shard", "1/2"]);
  expect(sharded.code).toBe(2);
  expect(sharded.stderr).toContain(
    "E_CONFIG: --learn asks the whole provider how it reads the gaps; it does not go with --shard",
  );
});
