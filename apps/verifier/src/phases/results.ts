import { replayPaths } from "../replay/files.ts";
import { cellsOf, requiredCellsCheck } from "../report/cells.ts";
import { findingsOf } from "../report/findings.ts";
import { type CheckResult, exitCodeOf, type RestoreReport, type VerifyReport } from "../results.ts";
import { CHECKS } from "../rules/index.ts";
import { VERSION } from "../version.ts";
import type { ChecksOutcome } from "./checks-and-pacts.ts";
import type { RunRecord } from "./record.ts";

/** The statuses seen, per operation: this thread's (pacts, states) and the conformance threads'. */
function gridOf(
  tallies: readonly ReadonlyMap<string, ReadonlyMap<number, number>>[],
): Record<string, Record<string, number>> {
  const seen = new Map<string, Map<number, number>>();
  for (const tally of tallies)
    for (const [op, row] of tally) {
      const into = seen.get(op) ?? new Map<number, number>();
      for (const [status, n] of row) into.set(status, (into.get(status) ?? 0) + n);
      seen.set(op, into);
    }
  const grid: Record<string, Record<string, number>> = {};
  for (const [op, row] of seen)
    grid[op] = Object.fromEntries(
      [...row].sort(([a], [b]) => a - b).map(([s, n]) => [String(s), n]),
    );
  return grid;
}

/** The report of a run: every result in order, findings, the grid, counts and the verdict. */
export function assembleReport(
  run: RunRecord,
  outcome: ChecksOutcome,
  restored: RestoreReport,
): VerifyReport {
  const { config, io, sources, plan, provider } = run;
  const { client } = run.transport;
  const { conformance } = outcome;
  const grid = gridOf([client.tally, conformance.tally]);
  const cells = cellsOf(grid, config.profile.documentedStatuses);
  const order = new Map(CHECKS.map((c, i) => [c.info.id, i]));
  const sorted: CheckResult[] = [
    ...outcome.results.filter((r) => r.kind === "pact"),
    ...outcome.results
      .filter((r) => r.kind === "conformance")
      .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)),
  ];
  if (config.requireCells) {
    const cellsCheck = requiredCellsCheck(cells, config.profile);
    io.onResult?.(cellsCheck);
    sorted.push(cellsCheck);
  }
  const tool = { name: "idp-verify" as const, version: VERSION };
  const replays = config.replayDir
    ? replayPaths(sorted, { providerUrl: provider.url, tool }, config.profile, config.replayDir)
    : new Map<string, string>();
  const checks = sorted.map((r) => {
    const file = replays.get(r.id);
    return file && r.failure ? { ...r, failure: { ...r.failure, replayFile: file } } : r;
  });
  const summary = {
    passed: 0,
    failed: 0,
    incomplete: 0,
    error: 0,
    leftOut: plan.leftOut.length,
    warnings: 0,
  };
  for (const r of checks) {
    summary[r.status]++;
    summary.warnings += r.warnings.length;
  }
  const exitCode = exitCodeOf(checks);
  const stopped = client.stoppedReason ?? conformance.stoppedReason;
  const t = config.transport;
  return {
    tool,
    startedAt: run.startedAt.toISOString(),
    durationMs: Math.round(performance.now() - run.started),
    providerUrl: provider.url,
    embedded: provider.embedded,
    ...(provider.states ? { providerStatesUrl: provider.states.url } : {}),
    seed: config.seed,
    runs: config.runs,
    profile: {
      name: config.profile.name,
      ...(config.profileArg !== "default" && config.profileArg !== "strict"
        ? { file: config.profileArg }
        : {}),
    },
    runId: run.runId,
    ...(config.shard && plan.shardUnits ? { shard: { ...config.shard, ...plan.shardUnits } } : {}),
    pactSources: config.broker ? [config.broker.url] : sources.files.map((f) => f.location),
    checks,
    findings: findingsOf(checks),
    leftOut: plan.leftOut,
    grid,
    documentedStatuses: config.profile.documentedStatuses,
    cells,
    phases: outcome.phases,
    requests: {
      sent: client.sent + conformance.sent,
      answered: client.answered + conformance.answered,
      throttled: client.throttled + conformance.throttled,
      resent: {
        gateway: client.gateway + conformance.resent.gateway,
        connection: client.resent + conformance.resent.connection,
      },
    },
    deployment: {
      insecure: t.tls.insecure,
      ...(t.ratePerSecond !== undefined ? { rateLimitPerSecond: t.ratePerSecond } : {}),
      headers: t.headers.map(([name]) => name),
      privateCa: t.tls.ca !== undefined,
      clientCertificate: t.tls.cert !== undefined,
      ...(t.proxy.httpProxy || t.proxy.httpsProxy ? { proxied: true } : {}),
      ...(config.harPath ? { har: config.harPath } : {}),
    },
    restore: restored,
    ...(outcome.states ? { states: outcome.states } : {}),
    ...(stopped ? { providerStopped: stopped } : {}),
    warnings: [...run.secrets.warnings(), ...restored.warnings],
    summary,
    verdict: exitCode === 0 ? "passed" : exitCode === 1 ? "failed" : "could-not-verify",
    exitCode,
  };
}
