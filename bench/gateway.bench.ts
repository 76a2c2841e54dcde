// `pnpm bench:gateway`: a default idp-verify run against the reference provider directly, and
// behind a 300 req/s token-bucket gateway (429 + Retry-After: 1, JSON body; its own process), on
// three seeds; then behind it with --rate-limit 250/s. Prints the time, exit code and throttled
// count of each run. Build first (pnpm build).
//
//   node bench/gateway.bench.ts [--rate 300] [--burst 30] [--seeds 1,2,3] [--runs 100]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "300" },
    burst: { type: "string", default: "30" },
    seeds: { type: "string", default: "1,2,3" },
    runs: { type: "string", default: "100" },
  },
});
const CREDS = { IDP_USERNAME: "gateway-bench", IDP_PASSWORD: "gateway-bench-password" };

/** Starts a node script that prints its first line (an address), and returns it and a stopper. */
function startLine(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ line: string; stop: () => Promise<string> }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--no-warnings", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stderr.on("data", (c) => {
      err += c;
    });
    child.stdout.on("data", (c) => {
      out += c;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line)
        resolve({
          line: line.trim(),
          stop: () =>
            new Promise((r) => {
              child.once("exit", () => r(err.trim().split("\n").pop() ?? ""));
              child.kill("SIGTERM");
            }),
        });
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited ${code}: ${err}`)));
  });
}

/** The reference provider (built CLI), in memory, with provider states. */
async function startReference() {
  return new Promise<{ origin: string; stop: () => void }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(root, "apps/provider/dist/cli.mjs"),
        "--port",
        "0",
        "--db",
        ":memory:",
        "--provider-states",
      ],
      { env: { ...process.env, ...CREDS }, stdio: ["ignore", "ignore", "pipe"] },
    );
    let seen = "";
    child.stderr.on("data", (c) => {
      seen += c;
      const m = /"url":"(http:\/\/[^"]+)\/v1"/.exec(seen);
      if (m?.[1]) resolve({ origin: m[1], stop: () => child.kill("SIGTERM") });
    });
    child.once("exit", (code) => reject(new Error(`provider exited ${code}: ${seen}`)));
  });
}

async function verifyAt(origin: string, seed: string, extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), "idp-gateway-bench-"));
  const report = join(dir, "r.json");
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        join(root, "apps/verifier/dist/cli.mjs"),
        "--provider-url",
        `${origin}/v1`,
        "--provider-states-url",
        `${origin}/_pact/provider-states`,
        "--seed",
        seed,
        "--runs",
        values.runs,
        "--report",
        `json=${report}`,
        ...extra,
      ],
      { env: { ...process.env, ...CREDS }, stdio: "ignore" },
    );
    child.once("exit", resolve);
  });
  const seconds = (performance.now() - started) / 1000;
  const r = JSON.parse(readFileSync(report, "utf8")) as {
    requests: { sent: number; throttled: number };
    verdict: string;
  };
  rmSync(dir, { recursive: true, force: true });
  return {
    code,
    seconds,
    sent: r.requests.sent,
    throttled: r.requests.throttled,
    verdict: r.verdict,
  };
}

const provider = await startReference();
const rows: string[] = [];
try {
  const gateway = await startLine([
    join(root, "bench/support/run-gateway.mjs"),
    "--upstream",
    provider.origin,
    "--rate",
    values.rate,
    "--burst",
    values.burst,
  ]);
  try {
    for (const seed of values.seeds.split(",")) {
      const direct = await verifyAt(provider.origin, seed);
      const behind = await verifyAt(gateway.line, seed);
      const limited = await verifyAt(gateway.line, seed, [
        "--rate-limit",
        `${Math.round((Number(values.rate) * 5) / 6)}/s`,
      ]);
      for (const [what, r] of [
        ["direct", direct],
        [`gateway ${values.rate}/s`, behind],
        [`gateway, --rate-limit ${Math.round((Number(values.rate) * 5) / 6)}/s`, limited],
      ] as const)
        rows.push(
          `| ${seed} | ${what} | ${r.verdict}, exit ${r.code} | ${r.seconds.toFixed(1)} s | ${r.sent} | ${r.throttled} |`,
        );
    }
  } finally {
    process.stderr.write(`gateway counts: ${await gateway.stop()}\n`);
  }
} finally {
  provider.stop();
}
console.log("| seed | provider | verdict | time (spawn to exit) | requests sent | throttled |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
