import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fc, test } from "@fast-check/vitest";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterEach, describe, expect, it } from "vitest";
import type { VerifyReport } from "../src/index.ts";
import { assignShards, shardSchema, unitsOfShard } from "../src/shard.ts";
import { against, CREDENTIALS, runVerify } from "./support/run.ts";

const PACTS = fileURLToPath(new URL("./fixtures/pacts/", import.meta.url));

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

interface Run {
  readonly code: number;
  readonly report: VerifyReport;
  readonly junit: string;
  readonly stdout: string;
}

/** One idp-verify run with json and junit reports, parsed. */
async function run(args: readonly string[]): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), "idp-verify-shard-"));
  const json = join(dir, "r.json");
  const junit = join(dir, "r.xml");
  const r = await runVerify([...args, "--report", `json=${json}`, "--report", `junit=${junit}`]);
  expect(r.stderr).not.toMatch(/E_[A-Z_]+:/);
  return {
    code: r.code,
    report: JSON.parse(readFileSync(json, "utf8")) as VerifyReport,
    junit: readFileSync(junit, "utf8"),
    stdout: r.stdout,
  };
}

const verdicts = (r: Run) => new Map(r.report.checks.map((c) => [c.id, c.status]));

/** The whole run and shards 1..n of the same arguments, one after the other. */
async function wholeAndShards(args: readonly string[], n: number) {
  const whole = await run(args);
  const shards: Run[] = [];
  for (let i = 1; i <= n; i++) shards.push(await run([...args, "--shard", `${i}/${n}`]));
  return { whole, shards };
}

describe("--shard i/n", () => {
  it("should split the embedded provider's run into disjoint shards whose union is the whole run, with the same verdicts", async () => {
    // Act
    const { whole, shards } = await wholeAndShards(["--runs", "5", "--seed", "11"], 3);
    // Assert: the whole run has pacts and conformance checks, and passes
    const all = verdicts(whole);
    expect([...all.keys()].filter((id) => id.startsWith("pact.")).length).toBeGreaterThan(0);
    expect([...all.keys()].filter((id) => id.startsWith("R")).length).toBeGreaterThan(0);
    expect(whole.code).toBe(0);
    // disjoint, and the union is the whole run
    const ids = shards.flatMap((s) => s.report.checks.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...all.keys()].sort());
    // each shard's verdicts are the whole run's for its units
    for (const s of shards) {
      expect(s.code).toBe(0);
      for (const [id, status] of verdicts(s)) expect([id, status]).toEqual([id, all.get(id)]);
    }
    // balanced: sizes differ by at most one; the shard is in every report
    const sizes = shards.map((s) => s.report.checks.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    shards.forEach((s, k) => {
      expect(s.report.shard).toEqual({
        index: k + 1,
        total: 3,
        units: sizes[k],
        of: all.size,
      });
      expect(s.stdout).toContain(`shard ${k + 1}/3 (${sizes[k]} of ${all.size} checks`);
      expect(s.junit).toContain(`<property name="shard" value="${k + 1}/3"/>`);
      expect(s.junit.match(/<testcase /g)).toHaveLength(sizes[k] ?? -1);
    });
    expect(whole.report.shard).toBeUndefined();
  });

  it("should keep every failure of the whole run when a provider breaks rules, and split pact files", async () => {
    // Arrange: a 500 on some valid pushes (R4, R6) and a body on 201 (R8)
    provider = await startHandProvider({
      credentials: CREDENTIALS,
      faults: ["crash-on-valid", "body-on-success"],
    });
    const args = against(provider, ["--pacts", PACTS], { runs: 10 });
    // Act
    const { whole, shards } = await wholeAndShards(args, 2);
    // Assert
    expect(whole.code).toBe(1);
    const failedIn = (runs: Run[]) =>
      runs.flatMap((r) => r.report.checks.filter((c) => c.status === "failed").map((c) => c.id));
    const failedWhole = failedIn([whole]);
    expect(failedWhole).toEqual(expect.arrayContaining(["R8.no-success-body"]));
    // Each failure of the whole run fails its check in the shards, or, when the whole run saw it
    // on another check's answer (an observed rule: R6 on a 500 that R4 got), that other check.
    const failedShards = new Set(failedIn(shards));
    for (const c of whole.report.checks.filter((c) => c.status === "failed")) {
      const during = c.failure?.observedDuring;
      expect(
        failedShards.has(c.id) || (during !== undefined && failedShards.has(during)),
        `${c.id}${during ? ` (seen during ${during})` : ""} fails in a shard`,
      ).toBe(true);
    }
    expect(Math.max(...shards.map((s) => s.code))).toBe(1);
    const ids = shards.flatMap((s) => s.report.checks.map((c) => c.id)).sort();
    expect(ids).toEqual([...verdicts(whole).keys()].sort());
    // A shard's pact interactions are exactly its own: Pact verified a copy holding only them.
    for (const s of shards) {
      const pact = s.report.checks.filter((c) => c.kind === "pact");
      expect(pact.length).toBeGreaterThan(0);
      expect(pact.every((c) => c.consumer?.name === "idp-toolkit-consumer")).toBe(true);
      expect(s.report.pactSources.every((p) => p.startsWith(PACTS))).toBe(true);
    }
  });

  it.each(["0/3", "4/3", "1/0", "3", "a/b", "1/3/5", "-1/3", "1/257"])(
    "should refuse --shard %s with exit 2 and one line naming the flag and the form",
    async (value) => {
      // Act
      const r = await runVerify([`--shard=${value}`]);
      // Assert
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.split("\n")[0]).toBe(
        `idp-verify: E_CONFIG: --shard must be i/n with 1 <= i <= n <= 256, e.g. --shard 2/3 (received "${value}")`,
      );
    },
  );
});

describe("assignShards", () => {
  const ids = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 60 });

  test.prop([ids, fc.integer({ min: 1, max: 9 })])(
    "should partition any set of ids into n balanced shards, whatever their order",
    (units, n) => {
      // Act
      const shards = Array.from({ length: n }, (_, k) =>
        unitsOfShard(units, { index: k + 1, total: n }),
      );
      // Assert: a partition
      const flat = shards.flatMap((s) => [...s]);
      expect(flat.length).toBe(units.length);
      expect(new Set(flat)).toEqual(new Set(units));
      // balanced
      const sizes = shards.map((s) => s.size);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      // deterministic from the set alone
      expect(assignShards([...units].reverse(), n)).toEqual(assignShards(units, n));
    },
  );

  it("should parse i/n", () => {
    expect(shardSchema.parse("2/3")).toEqual({ index: 2, total: 3 });
    expect(shardSchema.parse("1/1")).toEqual({ index: 1, total: 1 });
  });
});
