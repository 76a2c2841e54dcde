// Concurrent cases, exact shrinking: the counterexample, seed, path and shrink count a run reports
// do not depend on how many cases were in flight, and replaying the seed gives them again.
import { type Fault, type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterEach, describe, expect, it } from "vitest";
import { against, CREDENTIALS, verifyReport } from "./support/run.ts";

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function failureOf(
  fault: Fault,
  check: string,
  concurrency: number,
  seed: number,
  selection: readonly string[] = ["--checks", check],
) {
  provider = await startHandProvider({ credentials: CREDENTIALS, faults: [fault] });
  const run = await verifyReport(
    against(provider, [...selection, "--concurrency", String(concurrency)], {
      runs: 200,
      seed,
    }),
  );
  await provider.close();
  provider = undefined;
  const f = run.report?.checks.find((c) => c.id === check)?.failure;
  return {
    path: f?.counterexamplePath,
    shrinks: f?.shrinks,
    seed: f?.seed,
    checkSeed: f?.checkSeed,
    body: f?.exchange?.request.body,
    message: f?.message,
    replay: f?.replay?.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT"),
  };
}

describe("the engine", () => {
  it.each<[Fault, string, number]>([
    ["crash-on-empty-name", "R4.valid-accepted.createSchema", 11],
    ["reject-empty-fields", "R4.valid-accepted.createSchema", 12],
    // R1's near misses are caught by its examples now (sent as they are); bad base64 is generated.
    ["bad-base64-crash", "R1.auth.bad-base64", 13],
    ["crash-on-large-integer", "R4.valid-accepted.pushToUserDevices", 14],
  ])(
    "reports the same shrunk counterexample for %s with 1, 16 and 64 cases in flight",
    async (fault, check, seed) => {
      const one = await failureOf(fault, check, 1, seed);
      expect(one.path).toMatch(/^\d+(:\d+)*$/);
      expect(one.body).toBeDefined();
      expect(await failureOf(fault, check, 16, seed)).toEqual(one);
      expect(await failureOf(fault, check, 64, seed)).toEqual(one);
      expect(one.replay).toContain(`--checks ${check} --seed ${seed} --runs 200`);
    },
  );

  it("reports in a whole run, over two threads, the failure its replay command reports alone", async () => {
    const check = "R4.valid-accepted.createSchema";
    const whole = await failureOf("crash-on-empty-name", check, 16, 21, ["--threads", "2"]);
    expect(whole.path).toMatch(/^\d+(:\d+)*$/);
    expect(whole.seed).toBe(21);
    expect(whole.checkSeed).not.toBe(21);
    const args = whole.replay?.split(" ") ?? [];
    const replayed = await failureOf("crash-on-empty-name", check, 16, 21, [
      "--checks",
      args[args.indexOf("--checks") + 1] as string,
      "--threads",
      "1",
    ]);
    expect(replayed).toEqual(whole);
  });

  it("sends each case inside its batch's state, sets the next batch up ahead, tears every one down", async () => {
    // Provider states come per batch of 64 cases, each under its own login user id; the next
    // batch's state is set up half a batch ahead, so its cases do not wait a round trip for it.
    const log: { state?: { action: string; id: string }; path?: string }[] = [];
    provider = await startHandProvider({
      credentials: CREDENTIALS,
      onRequest: ({ url, body }) => {
        if (url.startsWith("/_pact/")) {
          const b = JSON.parse(String(body)) as { action: string; params: Record<string, string> };
          log.push({ state: { action: b.action, id: Object.values(b.params)[0] as string } });
        } else log.push({ path: url });
      },
    });
    // Four in flight: few enough that the setup's own request never waits behind the cases for a
    // connection, so "ahead" below holds however loaded the machine (at 16, 9 were seen under load).
    const inFlight = 4;
    const run = await verifyReport(
      against(provider, ["--checks", "R7.push-403", "--concurrency", String(inFlight)], {
        runs: 300,
      }),
    );
    expect(run.report?.verdict).toBe("passed");
    // The batches' own ids (idpv-<run id>-c<check>-...), not the probe's: the run id is hex, so
    // "-c" alone also matches a run id that begins with c.
    const batchId = /^idpv-[0-9a-f]+-c\d/;
    const ids = [
      ...new Set(log.flatMap((e) => (e.state && batchId.test(e.state.id) ? [e.state.id] : []))),
    ];
    // 300 cases in batches of 64: five states (the probe's own state aside).
    expect(ids).toHaveLength(5);
    const at = (id: string, action: string) =>
      log.findIndex((e) => e.state?.id === id && e.state.action === action);
    const uses = (id: string) =>
      log.flatMap((e, i) => (e.path?.includes(`/users/${encodeURIComponent(id)}/`) ? [i] : []));
    ids.forEach((id, k) => {
      const setup = at(id, "setup");
      const teardown = at(id, "teardown");
      const sent = uses(id);
      expect(sent).toHaveLength(k < 4 ? 64 : 300 - 4 * 64);
      expect(setup).toBeLessThan(Math.min(...sent));
      expect(teardown).toBeGreaterThan(Math.max(...sent));
      // Set up ahead: more of the batch before came after this setup than those in flight explain.
      if (k > 0)
        expect(uses(ids[k - 1] as string).filter((i) => i > setup).length).toBeGreaterThan(
          inFlight,
        );
    });
  });
});
