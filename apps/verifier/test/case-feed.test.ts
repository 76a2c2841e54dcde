import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { defaultProfile } from "@idp/contracts";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseFeed } from "../src/engine/case-feed.ts";
import { CASE_THREAD_FROM } from "../src/engine/case-threads.ts";
import { casesOf } from "../src/engine/cases.ts";
import { ruleContext } from "../src/engine/rule-context.ts";
import type { ConformanceSetup } from "../src/engine/setup.ts";
import { DIRECT } from "../src/http/settings.ts";
import { checkSeed } from "../src/rules/check-seed.ts";
import { CHECKS } from "../src/rules/index.ts";
import type { Case } from "../src/rules/types.ts";
import { Secrets } from "../src/secrets.ts";
import { against, CREDENTIALS, verifyReport } from "./support/run.ts";

// The case thread must give each check exactly the cases the check would generate itself, in the
// same order: a replay (--seed, --checks) and shrinking (which regenerates here) depend on it. The
// oracle is casesOf in this thread, over the check's own arbitrary.

const SEED = 20261125;
const setup: ConformanceSetup = {
  providerUrl: "http://127.0.0.1:1/v1",
  credentials: { username: "feed-user", password: "feed-password-1" },
  states: { url: "http://127.0.0.1:1/_states" },
  profileArg: "default",
  cwd: process.cwd(),
  secretValues: [],
  seed: SEED,
  runs: 200,
  timeoutMs: 1000,
  concurrency: 16,
  maxConsecutiveTransportFailures: 5,
  deadlineEpochMs: Date.now() + 60_000,
  maxDurationText: "60 s",
  shrink: true,
  runId: "feed",
  replay: { profileArg: "default" },
  threads: 1,
  transport: DIRECT,
  cleanup: false,
};
// More than two of the feed's batches (32 each) after the examples, so more are asked for as they run out.
const TAKE = 70;

/**
 * What a case is on the wire: the exact bytes of its body and every field a check reads. A case of
 * the case thread carries its body encoded (the bytes travel; the text is decoded only if read).
 */
const shape = (c: Case, encoded: boolean, prepared: unknown) => ({
  prepared,
  operation: c.operation,
  pathId: c.pathId,
  auth: c.auth,
  kind: c.body.kind,
  note: c.body.note,
  // Digests: a failing comparison of bodies up to 1 MiB would take the diff minutes to print.
  text: digest(c.body.text),
  bytes: digest(encoded ? c.body.bytes : Buffer.from(c.body.text, "utf8")),
});
const digest = (data: string | Buffer | undefined) =>
  data === undefined
    ? "none"
    : `${data.length}:${createHash("sha256").update(data).digest("hex").slice(0, 16)}`;

let feed: CaseFeed;
beforeAll(async () => {
  feed = new CaseFeed({ setup, checkIds: CHECKS.map((c) => c.info.id), slot: 0 });
  await feed.ready;
}, 60_000);
afterAll(() => feed.close());

describe("the case thread", () => {
  it.each(CHECKS.map((c) => [c.info.id, c] as const))(
    "should give %s's cases byte for byte, in the order the check generates them",
    async (id, def) => {
      // Arrange
      const ctx = ruleContext(setup, defaultProfile, new Secrets(), 0);
      // The check's examples (R5's) first, then its generated cases.
      const examples = def.examples?.(ctx) ?? [];
      const own = casesOf(def.cases(ctx), checkSeed(SEED, id));
      const take = examples.length + TAKE;
      // What the check's judge reads of a case alone (R5: the profile's reading of the body) is
      // computed there too, and must be what this thread would compute.
      const expected = Array.from({ length: take }, (_, i) => {
        const c = i < examples.length ? (examples[i] as Case) : (own.next().value as Case);
        return shape(c, false, def.prepare?.(c, ctx));
      });
      // Act
      const fed: ReturnType<typeof shape>[] = [];
      expect(feed.examples(id)).toBe(examples.length);
      for (let i = 0; i < take; i++) {
        const c = await feed.next(id);
        fed.push(shape(c, true, c.prepared?.value));
      }
      // Assert
      expect(fed).toEqual(expected);
    },
    30_000,
  );

  it("should give a run on a kept thread the cases a new thread gives, and nothing of the run before", async () => {
    // Arrange: a run that stops with batches of big bodies still asked for on its thread.
    const id = "R6.no-5xx";
    const first = new CaseFeed({
      setup,
      checkIds: [id, "R4.valid-accepted.createSchema"],
      slot: 0,
    });
    await first.ready;
    for (let i = 0; i < 40; i++) await first.next(id);
    await first.close();
    // Act: the next run of this process takes the kept thread.
    const second = new CaseFeed({ setup, checkIds: [id], slot: 0 });
    const fed: ReturnType<typeof shape>[] = [];
    try {
      await second.ready;
      for (let i = 0; i < TAKE; i++) fed.push(shape(await second.next(id), true, undefined));
    } finally {
      await second.close();
    }
    // Assert: the check's examples, then its own cases from the seed, as a fresh thread gives them.
    const ctx = ruleContext(setup, defaultProfile, new Secrets(), 0);
    const def = CHECKS.find((c) => c.info.id === id);
    if (!def) throw new Error(`no check ${id}`);
    const examples = def.examples?.(ctx) ?? [];
    const own = casesOf(def.cases(ctx), checkSeed(SEED, id));
    const expected = Array.from({ length: TAKE }, (_, i) =>
      shape(
        i < examples.length ? (examples[i] as Case) : (own.next().value as Case),
        false,
        undefined,
      ),
    );
    expect(fed).toEqual(expected);
  });

  it("should refuse a check it does not generate, and everything once closed", async () => {
    // Arrange
    const other = new CaseFeed({ setup, checkIds: ["R6.no-5xx"], slot: 0 });
    await other.ready;
    // Act, Assert
    expect(() => other.next("R2.error-body")).toThrow(/does not generate R2.error-body/);
    await other.close();
    expect(() => other.next("R6.no-5xx")).toThrow(/closed/);
  });
});

describe("a failure found through the case thread", () => {
  let provider: RunningProvider | undefined;
  afterAll(() => provider?.close());

  it.each([
    // R5's examples come first: a provider swapping 400 and 422 fails on one of them.
    [
      "an example",
      "swap-400-422" as const,
      "R5.invalid-rejected.createSchema",
      /^example \d+ of \d+$/,
    ],
    // A generated case, then shrunk by the sending thread's own arbitrary.
    ["a generated, shrunk case", "crash-on-long-string" as const, "R6.no-5xx", /^\d+(:\d+)*$/],
  ])(
    "is %s, and the replay command (too few cases for the case thread) finds the very same one",
    async (_, fault, id, path) => {
      // Arrange: enough cases for the case thread (CASE_THREAD_FROM), with every R check.
      provider = await startHandProvider({ credentials: CREDENTIALS, faults: [fault] });
      const checks = [
        "R5.invalid-rejected.createSchema",
        "R6.no-5xx",
        "R2.error-body",
        "R3.documented-status",
      ];
      const runs = Math.ceil(CASE_THREAD_FROM / checks.length);
      // Act
      const whole = await verifyReport(
        against(provider, ["--checks", checks.join(",")], { runs, seed: 5 }),
      );
      const alone = await verifyReport(against(provider, ["--checks", id], { runs, seed: 5 }));
      // Assert
      const found = whole.report?.checks.find((c) => c.id === id)?.failure;
      const replayed = alone.report?.checks.find((c) => c.id === id)?.failure;
      expect(found?.counterexamplePath, whole.stdout).toMatch(path);
      expect(replayed?.counterexamplePath).toBe(found?.counterexamplePath);
      expect(replayed?.message).toBe(found?.message);
      expect(replayed?.exchange?.request.body).toBe(found?.exchange?.request.body);
      expect(replayed?.sentBody).toBe(found?.sentBody);
    },
    120_000,
  );

  it("makes no more cases than a check takes: its examples and its runs", async () => {
    // Fewer runs than two of the feed's batches: asking a batch ahead of the last case would make
    // cases the run never sends.
    const runs = 40;
    const ids = ["R5.invalid-rejected.createSchema", "R6.no-5xx"];
    const small = new CaseFeed({ setup: { ...setup, runs }, checkIds: ids, slot: 0 });
    try {
      await small.ready;
      for (const id of ids) {
        const total = small.examples(id) + runs;
        for (let i = 0; i < total; i++) await small.next(id);
        // Anything asked for would have come by the time the same thread answers again.
        await small.ready;
        await new Promise((r) => setTimeout(r, 200));
        expect(small.received(id)).toBe(total);
      }
    } finally {
      await small.close();
    }
  });
});
