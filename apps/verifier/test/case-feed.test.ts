import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { defaultProfile } from "@idp/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseFeed } from "../src/engine/case-feed.ts";
import { casesOf, checkSeed } from "../src/engine/cases.ts";
import type { ConformanceSetup } from "../src/engine/conformance.ts";
import { ruleContext } from "../src/engine/rule-context.ts";
import { DIRECT } from "../src/http/settings.ts";
import { CHECKS } from "../src/rules/index.ts";
import type { Case } from "../src/rules/types.ts";
import { Secrets } from "../src/secrets.ts";

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
  runId: "feed",
  replay: { profileArg: "default" },
  threads: 1,
  transport: DIRECT,
  cleanup: false,
};
// More than two of the feed's batches (32 each), so the third is asked for as the first runs out.
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
      const own = casesOf(def.cases(ctx), checkSeed(SEED, id));
      // What the check's judge reads of a case alone (R5: the profile's reading of the body) is
      // computed there too, and must be what this thread would compute.
      const expected = Array.from({ length: TAKE }, () => {
        const c = own.next().value as Case;
        return shape(c, false, def.prepare?.(c, ctx));
      });
      // Act
      const fed: ReturnType<typeof shape>[] = [];
      for (let i = 0; i < TAKE; i++) {
        const c = await feed.next(id);
        fed.push(shape(c, true, c.prepared?.value));
      }
      // Assert
      expect(fed).toEqual(expected);
    },
    30_000,
  );

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
