// A bound's unit (conformance.md §6, issue 29 point 7): providers written by hand (@idp/fault-providers:
// node:http, no @idp/* code) limit a keyword to 100 code points (`[...k].length`), 100 UTF-16 units
// (JavaScript's `k.length`) or 100 UTF-8 bytes (Go's `len`). Each passes with its own unit pinned
// and fails with another one, by the check the wrong unit shows up in; R4's shrink message names
// the limit in the provider's unit.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { against, CREDENTIALS, failedIds, runVerify, verifyReport } from "./support/run.ts";

const KEYWORD = "rules.features.*.labels[].keywords[]";
const UNITS = ["codePoints", "utf16", "bytes"] as const;
type Unit = (typeof UNITS)[number];
const R4 = "R4.valid-accepted.updateClusteringRules";
const R5 = "R5.invalid-rejected.updateClusteringRules";
const CHECKS = ["--checks", `${R4},${R5}`];

const providers = new Map<Unit, RunningProvider>();
const dir = mkdtempSync(join(tmpdir(), "idp-units-"));
const profileFor = (unit: Unit): string => {
  const file = join(dir, `${unit}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name: `keywords of at most 100 ${unit}`,
      bounds: { [KEYWORD]: { maxLength: 100, unit, status: 422 } },
    }),
  );
  return file;
};

beforeAll(async () => {
  for (const unit of UNITS)
    providers.set(
      unit,
      await startHandProvider({
        credentials: CREDENTIALS,
        limits: [{ at: KEYWORD, maxLength: 100, unit, status: 422 }],
      }),
    );
});
afterAll(async () => {
  await Promise.all([...providers.values()].map((p) => p.close()));
  rmSync(dir, { recursive: true, force: true });
});

// Which check a wrong unit shows up in: R5 when a string one past the pinned unit is within the
// provider's (an astral string of 101 UTF-16 units is 51 code points), R4 when a valid string at
// the pinned limit is past the provider's (100 astral code points are 200 UTF-16 units).
const CAUGHT: Record<Unit, Record<Unit, string | undefined>> = {
  codePoints: { codePoints: undefined, utf16: R5, bytes: R5 },
  utf16: { codePoints: R4, utf16: undefined, bytes: R5 },
  bytes: { codePoints: R4, utf16: R4, bytes: undefined },
};

describe.each(UNITS)("a provider that counts keywords in %s", (counted) => {
  it.each(UNITS)("under a profile pinning %s", async (pinned) => {
    const provider = providers.get(counted) as RunningProvider;
    const run = await verifyReport(
      against(provider, [...CHECKS, "--profile", profileFor(pinned)], { seed: 3, runs: 30 }),
    );
    const caught = CAUGHT[counted][pinned];
    expect(failedIds(run.report), run.stdout).toEqual(caught ? [caught] : []);
    expect(run.code, run.stdout).toBe(caught ? 1 : 0);
    if (caught === R5)
      expect(run.report?.checks.find((c) => c.id === R5)?.failure?.source?.ref).toBe(
        `${profileFor(pinned)}: bounds.${KEYWORD}`,
      );
  });
});

it("R4's shrink message names the limit in the unit the provider counts", async () => {
  for (const [unit, words] of [
    ["utf16", "UTF-16 units"],
    ["bytes", "bytes"],
  ] as const) {
    const run = await verifyReport(
      against(providers.get(unit) as RunningProvider, ["--checks", R4], { seed: 1, runs: 100 }),
    );
    const failure = run.report?.checks.find((c) => c.id === R4)?.failure;
    expect(failure?.message, run.stdout).toMatch(
      new RegExp(`keywords\\[\\d+\\] of 101 ${words} is refused; 100 is accepted`),
    );
  }
});

it("refuses a unit it does not know, naming the file, the key and the three units (exit 2)", async () => {
  const file = join(dir, "bad-unit.json");
  writeFileSync(
    file,
    JSON.stringify({
      name: "x",
      bounds: { [KEYWORD]: { maxLength: 100, unit: "chars", status: 422 } },
    }),
  );
  const run = await runVerify(["--profile", file, "--checks", "R4"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(
    `idp-verify: E_PROFILE: profile ${file}: bounds.${KEYWORD}.unit: expected "codePoints", "utf16", "bytes" (what maxLength counts: code points, UTF-16 units or UTF-8 bytes), received "chars"\n`,
  );
});
