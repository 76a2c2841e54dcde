// Reach (issue 21): faults that need size or one exact wrong type to show, in providers written by
// hand (@idp/fault-providers: node:http, no @idp/* code). Each is caught on five seeds at the
// default runs by the check that owns it, and, where the provider's limit is a documented refusal,
// passes once a profile pins that limit as a bound (conformance.md §6).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type HandLimit,
  type HandProviderOptions,
  type RunningProvider,
  startHandProvider,
} from "@idp/fault-providers";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { against, CREDENTIALS, failedIds, verifyReport } from "./support/run.ts";

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});
const dir = mkdtempSync(join(tmpdir(), "idp-reach-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SEEDS = [1, 2, 3, 4, 5];
/**
 * The default runs (100) of the checks a fault can break: R4 and R5 of the one operation whose
 * body holds the faulty field, and R6 (every answer of the run) where the fault is a 5xx. Each hand
 * provider is the conforming one outside that field (faults.test.ts passes it on every check and
 * three seeds), so the other operations' R4 and R5 checks would send some 550 requests a run that
 * the fault cannot touch; and R6's own cases, half of them stressed, were more than half of a run's
 * CPU where a refusal in 4xx cannot fail it.
 */
const checksFor = (caught: string, rules: readonly string[]): string[] => {
  const operation = caught.split(".")[2];
  const r6 = rules.includes("R6") ? ",R6" : "";
  return ["--checks", `R4.valid-accepted.${operation},R5.invalid-rejected.${operation}${r6}`];
};

interface ReachCase {
  readonly name: string;
  readonly options: Pick<HandProviderOptions, "limits" | "acceptNullAt">;
  readonly caught: string;
  /** Rules a failing check may belong to. */
  readonly rules: readonly string[];
  /** The profile bound that describes the provider's limit, when it is a documented refusal. */
  readonly bound?: Record<string, unknown>;
}

const limit = (l: HandLimit) => ({ limits: [l] });
const CASES: ReachCase[] = [
  {
    name: "422 to a schema name over 64 code points",
    options: limit({ at: "schema.name", maxLength: 64, status: 422 }),
    caught: "R4.valid-accepted.createSchema",
    rules: ["R4"],
    bound: { "schema.name": { maxLength: 64, status: 422 } },
  },
  {
    name: "400 to a push title over 100 code points",
    options: limit({ at: "data.title", maxLength: 100, status: 400 }),
    caught: "R4.valid-accepted.pushToUserDevices",
    rules: ["R4"],
    bound: { "data.title": { maxLength: 100, status: 400 } },
  },
  {
    name: "422 to a label name over 32 code points",
    options: limit({ at: "rules.features.*.labels[].name", maxLength: 32, status: 422 }),
    caught: "R4.valid-accepted.updateClusteringRules",
    rules: ["R4"],
    bound: { "rules.features.*.labels[].name": { maxLength: 32, status: 422 } },
  },
  {
    name: "500 to rules with more than 8 features",
    options: limit({ at: "rules.features", maxItems: 8, status: 500 }),
    caught: "R4.valid-accepted.updateClusteringRules",
    rules: ["R4", "R6"],
  },
  {
    name: "422 to a schema with more than 20 fields",
    options: limit({ at: "schema.fields", maxItems: 20, status: 422 }),
    caught: "R4.valid-accepted.createSchema",
    rules: ["R4"],
    bound: { "schema.fields": { maxItems: 20, status: 422 } },
  },
  {
    name: "422 to a label with more than 10 keywords",
    options: limit({ at: "rules.features.*.labels[].keywords", maxItems: 10, status: 422 }),
    caught: "R4.valid-accepted.updateClusteringRules",
    rules: ["R4"],
    bound: { "rules.features.*.labels[].keywords": { maxItems: 10, status: 422 } },
  },
  {
    name: "null accepted for the push title",
    options: { acceptNullAt: "data.title" },
    caught: "R5.invalid-rejected.pushToUserDevices",
    rules: ["R5"],
  },
  {
    name: "null accepted for a schema field's unique",
    options: { acceptNullAt: "schema.fields[].unique" },
    caught: "R5.invalid-rejected.createSchema",
    rules: ["R5"],
  },
  {
    name: "null accepted for a classifier threshold",
    options: { acceptNullAt: "rules.features.*.classifier.threshold" },
    caught: "R5.invalid-rejected.updateClusteringRules",
    rules: ["R5"],
  },
];

describe("faults that need size or one exact wrong type", () => {
  it.each(CASES)(
    "$name: caught by $caught on five seeds",
    async ({ options, caught, rules }) => {
      provider = await startHandProvider({ credentials: CREDENTIALS, ...options });
      const checks = checksFor(caught, rules);
      for (const seed of SEEDS) {
        // Whether the fault is reached, and by which check, is known before shrinking starts: the
        // counterexample's size is not what this asserts (the last two tests below shrink).
        const run = await verifyReport(
          against(provider, [...checks, "--no-shrink"], { seed, runs: 100 }),
        );
        const failed = failedIds(run.report);
        expect(failed, `seed ${seed}: ${run.stdout}`).toContain(caught);
        for (const id of failed) expect(rules, `seed ${seed}: ${id}`).toContain(id.split(".")[0]);
        expect(run.code).toBe(1);
      }
      // Five full runs: a limit for a hang, not for speed (on 2 shared cores in CI they took 60 s).
    },
    240_000,
  );

  it.each(CASES.filter((c) => c.bound))(
    "$name: passes with a profile that pins the bound",
    async ({ name, options, bound, caught, rules }) => {
      const file = join(dir, `${name.replace(/\W+/g, "-")}.json`);
      writeFileSync(file, JSON.stringify({ name: "bounded", bounds: bound }));
      provider = await startHandProvider({ credentials: CREDENTIALS, ...options });
      for (const seed of SEEDS.slice(0, 2)) {
        const run = await verifyReport(
          against(provider, [...checksFor(caught, rules), "--profile", file], { seed, runs: 100 }),
        );
        expect(failedIds(run.report), `seed ${seed}: ${run.stdout}`).toEqual([]);
        expect(run.code).toBe(0);
      }
    },
    120_000,
  );

  it("says where a size failure starts: the smallest refused size and the largest accepted", async () => {
    provider = await startHandProvider({
      credentials: CREDENTIALS,
      ...limit({ at: "schema.name", maxLength: 64, status: 422 }),
    });
    const run = await verifyReport(
      against(provider, ["--checks", "R4.valid-accepted.createSchema"], { seed: 1, runs: 100 }),
    );
    const failure = run.report?.checks.find(
      (c) => c.id === "R4.valid-accepted.createSchema",
    )?.failure;
    expect(failure?.message).toContain(
      "a schema.name of 65 code points is refused; 64 is accepted",
    );
  });

  it("--no-shrink cites the first failing case as found: the same verdict, fewer requests", async () => {
    provider = await startHandProvider({
      credentials: CREDENTIALS,
      ...limit({ at: "schema.name", maxLength: 64, status: 422 }),
    });
    const id = "R4.valid-accepted.createSchema";
    const args = ["--checks", id];
    const shrunk = await verifyReport(against(provider, args, { seed: 2, runs: 100 }));
    const found = await verifyReport(
      against(provider, [...args, "--no-shrink"], { seed: 2, runs: 100 }),
    );
    for (const run of [shrunk, found]) {
      expect(failedIds(run.report), run.stdout).toEqual([id]);
      expect(run.code).toBe(1);
    }
    const shrunkFailure = shrunk.report?.checks.find((c) => c.id === id)?.failure;
    const foundFailure = found.report?.checks.find((c) => c.id === id)?.failure;
    expect(shrunkFailure?.shrinks).toBeGreaterThan(0);
    expect(shrunkFailure?.note).toBeUndefined();
    expect(foundFailure?.shrinks).toBe(0);
    expect(foundFailure?.note).toMatch(/^not shrunk \(--no-shrink\)/);
    expect(foundFailure?.exchange?.result).toMatchObject({ kind: "response", status: 422 });
    expect(found.stdout).toContain("not shrunk (--no-shrink)");
    // The cited request is the run's own first failure: a longer name than the shrunk one.
    const nameOf = (f: typeof foundFailure) =>
      (
        JSON.parse(f?.sentBody ?? f?.exchange?.request.body ?? "{}") as {
          schema?: { name?: string };
        }
      ).schema?.name;
    expect([...(nameOf(foundFailure) ?? "")].length).toBeGreaterThan(
      [...(nameOf(shrunkFailure) ?? "")].length,
    );
    expect(found.report?.requests.sent).toBeLessThan(shrunk.report?.requests.sent ?? 0);
  });

  it("names the bound as the source when a bounded provider breaks it", async () => {
    // The provider refuses long names with 400; the profile says 422.
    const file = join(dir, "wrong-status.json");
    writeFileSync(
      file,
      JSON.stringify({
        name: "bounded",
        bounds: { "schema.name": { maxLength: 64, status: 422 } },
      }),
    );
    provider = await startHandProvider({
      credentials: CREDENTIALS,
      ...limit({ at: "schema.name", maxLength: 64, status: 400 }),
    });
    const run = await verifyReport(
      against(provider, ["--checks", "R5.invalid-rejected.createSchema", "--profile", file], {
        seed: 1,
        runs: 100,
      }),
    );
    const failure = run.report?.checks.find(
      (c) => c.id === "R5.invalid-rejected.createSchema",
    )?.failure;
    expect(failure?.source).toEqual({ source: "profile", ref: `${file}: bounds.schema.name` });
  });
});
