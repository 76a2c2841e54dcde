// Providers that misbehave at the transport level: every run ends by itself in bounded time with
// exit 1 or 2 and one line per error, never a stack trace.
import { type HostileKind, type RunningHostile, startHostile } from "@idp/fault-providers";
import { afterEach, describe, expect, it } from "vitest";
import { against, verifyReport } from "./support/run.ts";

let hostile: RunningHostile | undefined;
afterEach(async () => {
  await hostile?.close();
  hostile = undefined;
});

describe("hostile providers", () => {
  it.each<[HostileKind, 1 | 2, RegExp]>([
    ["hang", 2, /E_PROVIDER_UNREACHABLE: .* did not answer \(ETIMEDOUT/],
    ["drip", 2, /E_PROVIDER_UNREACHABLE: .* did not answer \(ETIMEDOUT/],
    ["reset", 2, /E_PROVIDER_UNREACHABLE: .* did not answer/],
    ["garbage", 2, /E_PROVIDER_UNREACHABLE: .* answered something that is not HTTP \(HPE_/],
    ["refused", 2, /E_PROVIDER_UNREACHABLE: .* did not answer \(ECONNREFUSED/],
    ["redirect-loop", 1, /^FAILED: /m],
    ["bad-json", 1, /^FAILED: /m],
    ["huge-body", 1, /^FAILED: /m],
  ])("%s ends by itself with exit %i", async (kind, code, message) => {
    hostile = await startHostile(kind, { dripIntervalMs: 200 });
    const started = performance.now();
    const run = await verifyReport([
      ...against(hostile, [], { runs: 10, states: false }),
      "--timeout-ms",
      "600",
      "--max-duration",
      "60",
    ]);
    expect(performance.now() - started).toBeLessThan(45_000);
    expect(run.code).toBe(code);
    expect(run.stdout + run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    if (code === 1) expect(run.report?.verdict).toBe("failed");
  });

  it("calls a state URL that misbehaves a setup problem (exit 2), never a broken rule", async () => {
    hostile = await startHostile("redirect-loop");
    const run = await verifyReport(against(hostile, [], { runs: 5 }));
    expect(run.stderr).toMatch(/^idp-verify: E_STATE_HANDLER: .*answered 302/);
    expect(run.code).toBe(2);
  });

  it("cuts a 512 MiB answer at 1 MiB, for the checks and for Pact alike", async () => {
    hostile = await startHostile("huge-body");
    const run = await verifyReport(
      against(hostile, ["--checks", "R8,pact.create schema: 401 for wrong credentials"], {
        runs: 5,
        states: false,
      }),
    );
    const pact = run.report?.checks.find((c) => c.kind === "pact");
    expect(pact?.failure?.message).toMatch(/longer than 1 MiB/);
    const r8 = run.report?.checks.find((c) => c.id === "R8.no-success-body");
    expect(r8?.failure?.exchange?.result).toMatchObject({ kind: "response", truncated: true });
  });
});
