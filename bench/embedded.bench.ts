// `pnpm bench:embedded`: the README's first command, `pnpm verify` (idp-verify on the embedded
// reference provider: every pact and every conformance check), timed as a newcomer runs it.
//
//   node bench/embedded.bench.ts [--rounds 7] [--seed 3]
//
// Each round times three commands, in an order that rotates from round to round:
//   1. `pnpm verify --seed S`: what the README says to run (pnpm, scripts/run-bin.mjs, idp-verify,
//      the provider started in its own thread, the run, the provider stopped);
//   2. `idp-verify --seed S` alone (its bin run with node: no pnpm, no run-bin);
//   3. the reference: the same idp-verify run against the same provider (apps/provider's
//      `idp-provider --db :memory: --provider-states`) started beforehand in a process of its own
//      and not timed: the same requests and checks, none of the embedded mode's own cost.
//   4. the floor: bench/support/http-floor.mjs, the same number of requests exchanged between two
//      threads of one Node process over node:http, nothing loaded and nothing judged: the part of
//      the wall time no change to the verifier or the provider can remove on this machine.
// Printed per command: the median wall time with its range, idp-verify's own account of where the
// time went (its report: before the first check, the checks and pacts, after them) and the CPU
// it used (user + sys of the process tree). The ratio embedded / reference says what the embedded
// mode costs beyond the run itself; this machine's speed moves between rounds, so the medians of
// several rounds, and the ratio of each round's pair, are what to read. Build first (`pnpm build`).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "apps", "verifier", "dist", "cli.mjs");
const providerCli = join(root, "apps", "provider", "dist", "cli.mjs");
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "7" },
    seed: { type: "string", default: "3" },
  },
});
const ROUNDS = Number(values.rounds);
const SEED = String(values.seed);
const CREDS = { IDP_USERNAME: "bench-user", IDP_PASSWORD: "bench-password-0" };
const dir = mkdtempSync(join(tmpdir(), "idp-bench-embedded-"));

interface Timed extends Measured {
  readonly report: {
    readonly durationMs: number;
    readonly verdict: string;
    readonly phases: Record<string, { readonly startedMs: number; readonly durationMs: number }>;
    readonly requests: { readonly sent: number };
  };
}

interface Measured {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly code: number | null;
  /** What the command printed on stdout. */
  readonly stdout: string;
}

/** Runs a command to its end: its wall time, the CPU of its process tree and its stdout. */
function measure(
  cmd: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Measured> {
  const out = join(dir, `stdout-${Math.random().toString(36).slice(2)}.txt`);
  return new Promise<Measured>((resolve, reject) => {
    const started = performance.now();
    // `time` is bash's: user + sys of the command and every process it waited for, printed on
    // bash's stdout; the command's own stdout goes to a file.
    const child = spawn(
      "bash",
      ["-c", 'TIMEFORMAT="%U %S"; { time "$@" >"$0" 2>/dev/null; } 2>&1', out, cmd, ...args],
      { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] },
    );
    let times = "";
    child.stdout.on("data", (c) => {
      times += c;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - started;
      const [user = 0, sys = 0] = times.trim().split(/\s+/).map(Number);
      resolve({ wallMs, cpuMs: (user + sys) * 1000, code, stdout: readFileSync(out, "utf8") });
    });
  });
}

/** Runs idp-verify (or pnpm verify) to its end, measured, with its JSON report. */
async function timed(
  cmd: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Timed> {
  const report = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const m = await measure(cmd, [...args, "--report", `json=${report}`], env);
  try {
    return { ...m, report: JSON.parse(readFileSync(report, "utf8")) };
  } catch (e) {
    throw new Error(`${cmd} ${args.join(" ")} wrote no report (exit ${m.code}): ${e}`);
  }
}

/** The reference provider in its own process; its URL from its "listening" log line. */
function startReference(): Promise<{ baseUrl: string; statesUrl: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [providerCli, "--port", "0", "--db", ":memory:", "--provider-states"],
      { env: { ...process.env, ...CREDS }, stdio: ["ignore", "ignore", "pipe"] },
    );
    let err = "";
    child.stderr.on("data", (c) => {
      err += c;
      const m = /"url":"([^"]+)"/.exec(err);
      if (m?.[1]) {
        const baseUrl = m[1];
        resolve({
          baseUrl,
          statesUrl: baseUrl.replace(/\/v1$/, "/_pact/provider-states"),
          stop: () => child.kill("SIGTERM"),
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`idp-provider exited ${code}: ${err}`)));
  });
}

interface Floor {
  readonly requests: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly exchangeMs: number;
}

/** The bare HTTP exchange of `requests` requests (bench/support/http-floor.mjs), measured alike. */
async function floor(requests: number): Promise<Floor> {
  const script = join(root, "bench", "support", "http-floor.mjs");
  const m = await measure(process.execPath, [script, String(requests)]);
  if (m.code !== 0) throw new Error(`http-floor.mjs exited ${m.code}: ${m.stdout}`);
  return {
    requests,
    wallMs: m.wallMs,
    cpuMs: m.cpuMs,
    exchangeMs: JSON.parse(m.stdout).exchangeMs,
  };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const range = (xs: readonly number[]) =>
  `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}`;

const reference = await startReference();
const kinds = {
  "pnpm verify": () => timed("pnpm", ["verify", "--seed", SEED]),
  "idp-verify (embedded)": () => timed(process.execPath, [cli, "--seed", SEED]),
  "idp-verify --provider-url (reference)": () =>
    timed(
      process.execPath,
      [
        cli,
        "--seed",
        SEED,
        "--provider-url",
        reference.baseUrl,
        "--provider-states-url",
        reference.statesUrl,
      ],
      CREDS,
    ),
} as const;
type Kind = keyof typeof kinds;
const names = Object.keys(kinds) as Kind[];
const results = new Map<Kind, Timed[]>(names.map((n) => [n, []]));
const floors: Floor[] = [];
try {
  // One unrecorded run of each first: the disk cache and Node's compile cache warm, as on a
  // newcomer's second run. The floor exchanges as many requests as that run sent.
  let requests = 0;
  for (const n of names) requests = (await kinds[n]()).report.requests.sent;
  await floor(requests);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i <= names.length; i++) {
      const at = (i + round) % (names.length + 1);
      if (at === names.length) {
        floors.push(await floor(requests));
        continue;
      }
      const n = names[at] as Kind;
      const t = await kinds[n]();
      if (t.code !== 0) throw new Error(`${n} exited ${t.code} (${t.report.verdict})`);
      results.get(n)?.push(t);
    }
  }
} finally {
  reference.stop();
  rmSync(dir, { recursive: true, force: true });
}

console.log(`bench:embedded: ${ROUNDS} rounds, seed ${SEED}, the default checks and pacts`);
for (const n of names) {
  const ts = results.get(n) ?? [];
  const walls = ts.map((t) => t.wallMs);
  const before = ts.map((t) => Math.min(...Object.values(t.report.phases).map((p) => p.startedMs)));
  const checks = ts.map(
    (t) =>
      Math.max(...Object.values(t.report.phases).map((p) => p.startedMs + p.durationMs)) -
      Math.min(...Object.values(t.report.phases).map((p) => p.startedMs)),
  );
  console.log(
    `${n.padEnd(38)} wall ${median(walls).toFixed(0)} ms (${range(walls)}); run ${median(ts.map((t) => t.report.durationMs)).toFixed(0)} ms: before the first check ${median(before).toFixed(0)}, checks and pacts ${median(checks).toFixed(0)}; CPU ${median(ts.map((t) => t.cpuMs)).toFixed(0)} ms; ${ts[0]?.report.requests.sent} requests`,
  );
}
const floorWalls = floors.map((f) => f.wallMs);
console.log(
  `${"the floor (node:http, nothing judged)".padEnd(38)} wall ${median(floorWalls).toFixed(0)} ms (${range(floorWalls)}); the exchange ${median(floors.map((f) => f.exchangeMs)).toFixed(0)} ms; CPU ${median(floors.map((f) => f.cpuMs)).toFixed(0)} ms; ${floors[0]?.requests} requests`,
);
const overFloor = (results.get("pnpm verify") ?? []).map(
  (t, i) => t.wallMs / (floors[i]?.wallMs ?? 1),
);
console.log(
  `pnpm verify / floor (wall, per round): median ${median(overFloor).toFixed(2)} (${overFloor.map((p) => p.toFixed(2)).join(" ")})`,
);
const pairs = (results.get("idp-verify (embedded)") ?? []).map(
  (t, i) => t.wallMs / (results.get("idp-verify --provider-url (reference)")?.[i]?.wallMs ?? 1),
);
console.log(
  `embedded / reference (wall, per round): median ${median(pairs).toFixed(2)} (${pairs.map((p) => p.toFixed(2)).join(" ")})`,
);
