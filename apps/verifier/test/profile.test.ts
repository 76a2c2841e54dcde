// Profiles (conformance.md §6): a provider written by hand to the service's public developer
// documentation (@idp/fault-providers, reading "observed-service") fails the default reading with
// sourced, grouped findings, and passes the shipped profile that describes that reading.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterEach, describe, expect, it } from "vitest";
import { against, CREDENTIALS, failedIds, runVerify, verifyReport } from "./support/run.ts";

const SHIPPED = fileURLToPath(new URL("../../../profiles/observed-service.json", import.meta.url));
const CONFORMANCE = ["--checks", "R1,R2,R3,R4,R5,R6,R7,R8"];
let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const observed = () => startHandProvider({ credentials: CREDENTIALS, reading: "observed-service" });

/** A profile file with only `keys` (extends default), in a temporary folder. */
function profileFile(keys: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), "idp-profile-")), "team.json");
  writeFileSync(path, JSON.stringify({ name: "team", ...keys }));
  return path;
}

describe("a provider that reads the gaps as the service's public documentation does", () => {
  it("fails the default reading with one sourced finding per root cause", async () => {
    provider = await observed();
    // Which findings and their sources: known before shrinking, so none.
    const run = await verifyReport(against(provider, ["--no-shrink"], { runs: 60 }));
    expect(run.code).toBe(1);
    const failed = run.report?.checks.filter((c) => c.status === "failed") ?? [];
    for (const c of failed) expect(c.failure?.source?.source, c.id).toMatch(/^(spec|pinned|pact)$/);
    // Three behaviours, not a wall of equal failures.
    const findings = run.report?.findings ?? [];
    const byCheck = (id: string) => findings.find((f) => f.checks.includes(id));
    // Its field problems' `errors` items are objects: R2 and the pacts' error bodies.
    expect(byCheck("R2.error-body")?.checks).toEqual(
      expect.arrayContaining(["pact.create schema: 400 for a malformed body"]),
    );
    expect(byCheck("R5.invalid-rejected.pushToUserDevices")?.checks).toEqual(
      expect.arrayContaining([
        "R3.documented-status",
        "pact.push to user devices: 400 for a malformed notification",
      ]),
    );
    expect(byCheck("R7.push-404")?.checks).toContain(
      "pact.push to user devices: 404 for an unknown login user",
    );
    expect(findings).toHaveLength(3);
    expect(run.stdout).toMatch(/^Findings: 3 root causes behind \d+ failing checks$/m);
  });

  it("passes every check with the shipped profile, which says where each difference comes from", async () => {
    provider = await observed();
    const run = await verifyReport(
      against(provider, ["--profile", SHIPPED, ...CONFORMANCE], { runs: 60 }),
    );
    expect(failedIds(run.report)).toEqual([]);
    expect(run.report?.profile).toEqual({ name: "observed-service", file: SHIPPED });
    expect(run.code).toBe(0);
  });

  it("still fails the pacts with the profile: a profile never changes what a consumer expects", async () => {
    provider = await observed();
    const run = await verifyReport(against(provider, ["--profile", SHIPPED, "--checks", "pact"]));
    expect(failedIds(run.report)).toContain(
      "pact.push to user devices: 404 for an unknown login user",
    );
    expect(run.code).toBe(1);
  });
});

describe("each profile key changes what its checks assert, and is named as the source", () => {
  it.each<[string, Record<string, unknown>, string, RegExp]>([
    [
      "statusMapping (with documentedStatuses)",
      {
        documentedStatuses: { pushToUserDevices: [200, 400, 401, 403, 404, 422, 500] },
        statusMapping: { pushToUserDevices: { "wrong-type": 422 } },
      },
      "R5.invalid-rejected.pushToUserDevices",
      /^team\.json: statusMapping\.pushToUserDevices\.wrong-type$/,
    ],
    [
      "loginUserStatuses",
      { loginUserStatuses: { unknown: 403 } },
      "R7.push-404",
      /^team\.json: loginUserStatuses\.unknown$/,
    ],
    [
      "errorsItems",
      { errorsItems: ["string", "object"] },
      "R2.error-body",
      /^team\.json: errorsItems$/,
    ],
  ])("%s", async (_, keys, check, ref) => {
    provider = await observed();
    const file = profileFile(keys);
    const without = await verifyReport(against(provider, ["--checks", check], { runs: 60 }));
    expect(without.report?.checks[0]?.status).toBe("failed");
    const withKey = await verifyReport(
      against(provider, ["--checks", check, "--profile", file], { runs: 60 }),
    );
    expect(withKey.report?.checks[0]?.status, withKey.stdout).toBe("passed");
    // The same key, read against the default provider, is a failure sourced to the profile file.
    await provider.close();
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const other = await verifyReport(
      against(provider, ["--checks", check, "--profile", file], { runs: 60 }),
    );
    const source = other.report?.checks[0]?.failure?.source;
    if (check !== "R2.error-body") {
      expect(source?.source).toBe("profile");
      expect(source?.ref.replace(/^.*\//, "")).toMatch(ref);
    }
  });

  it("documentedStatuses makes R3 judge by the profile, and the grid marks by it", async () => {
    provider = await startHandProvider({ credentials: CREDENTIALS });
    const file = profileFile({
      documentedStatuses: { pushToUserDevices: [200, 400, 401, 403, 500] },
      loginUserStatuses: { unknown: 403 },
    });
    const run = await verifyReport(
      against(provider, ["--checks", "R3", "--profile", file], { runs: 60 }),
    );
    const f = run.report?.checks[0]?.failure;
    expect(f?.message).toMatch(/^R3: 404 is not a documented status of pushToUserDevices/);
    expect(f?.source?.ref).toMatch(/team\.json: documentedStatuses\.pushToUserDevices$/);
    expect(run.report?.documentedStatuses.pushToUserDevices).toEqual([200, 400, 401, 403, 500]);
  });
});

describe("bad profile files", () => {
  it.each<[unknown, RegExp]>([
    ["{not json", /received text that is not JSON/],
    [{ name: "t", statusMaping: {} }, /statusMaping: .*did you mean "statusMapping"/],
    [{ name: "t", extends: "lenient" }, /extends: expected/],
    [{ name: "t", loginUserStatuses: { unknown: "403" } }, /loginUserStatuses\.unknown: expected/],
  ])("%j is exit 2 with one line naming the file and the key", async (content, message) => {
    const path = join(mkdtempSync(join(tmpdir(), "idp-profile-")), "bad.json");
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
    const run = await runVerify(["--profile", path, "--checks", "R1"]);
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(
        `^idp-verify: E_PROFILE: profile ${path.replaceAll("/", "\\/").replaceAll(".", "\\.")}: `,
      ),
    );
    expect(lines[0]).toMatch(message);
    expect(lines).toHaveLength(1);
  });
});
