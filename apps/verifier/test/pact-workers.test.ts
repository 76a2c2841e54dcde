// Pact's verifier runs in a process of its own (src/pact/host.ts), kept between the runs of one
// process: a run takes an idle one, hands it its environment with the job, and gives it back.
import { describe, expect, it, vi } from "vitest";
import { pactWorkers } from "../src/pact/host.ts";
import { verifyReport } from "./support/run.ts";

const pactRun = () => verifyReport(["--checks", "pact", "--seed", "3"]);

describe("Pact's worker processes", () => {
  it("are kept between runs: back-to-back runs fork no new one, and each passes", async () => {
    const first = await pactRun();
    expect(first.code).toBe(0);
    const afterFirst = pactWorkers();
    expect(afterFirst.forked).toBeGreaterThan(0);
    expect(afterFirst.idle.length).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) {
      const again = await pactRun();
      expect(again.code).toBe(0);
      expect(again.report?.checks.filter((c) => c.status === "passed")).toHaveLength(12);
    }
    expect(pactWorkers().forked).toBe(afterFirst.forked);
  });

  it("one that died while idle is never handed out: the next run starts another", async () => {
    await pactRun();
    const { idle, forked } = pactWorkers();
    expect(idle.length).toBeGreaterThan(0);
    for (const pid of idle) process.kill(pid, "SIGKILL");
    // Once their exits were seen (a loaded machine can take longer than any fixed wait).
    await vi.waitFor(() => expect(pactWorkers().idle).toEqual([]), { timeout: 10_000 });
    const run = await pactRun();
    expect(run.code).toBe(0);
    expect(pactWorkers().forked).toBeGreaterThan(forked);
  });
});
