// `node bench/edges.ts`: the verifier README's tables of what is caught and what passes at the
// edges (conformance.md §1 R1, R2 and names this run created; §4 state handlers), measured as a
// provider team would run it: `idp-verify` (the built CLI, its own process) with default options
// (--runs 100, every check, the repo's pacts, provider states) against each provider of
// @idp/fault-providers written by hand for it. Each quiet break on seeds 1-3, each provider that
// conforms unusually on seeds 1-2; prints one Markdown row per provider.
//
//   node bench/edges.ts [--seeds-caught 1,2,3] [--seeds-pass 1,2] [--runs N]
//
// Build first (`pnpm exec turbo run build`). Slow (about 20 runs of a few seconds): not in CI, which
// runs one seed of each (apps/verifier/test/edges.test.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  type HandProviderOptions,
  startHandProvider,
} from "../packages/fault-providers/src/index.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "apps", "verifier", "dist", "cli.mjs");
const { values } = parseArgs({
  options: {
    "seeds-caught": { type: "string", default: "1,2,3" },
    "seeds-pass": { type: "string", default: "1,2" },
    runs: { type: "string" },
  },
});
const seeds = (s: string) => s.split(",").map(Number);
const CREDENTIALS = { username: "edges-user", password: "edges-password-0" };

interface Case {
  readonly name: string;
  readonly options: Omit<HandProviderOptions, "credentials"> & {
    readonly credentials?: HandProviderOptions["credentials"];
  };
}
const QUIET_BREAKS: Case[] = [
  { name: "split-credentials", options: { faults: ["split-credentials"] } },
  { name: "trimmed-password", options: { faults: ["trimmed-password"] } },
  { name: "latin1-error-bodies", options: { faults: ["latin1-error-bodies"] } },
];
const CONFORMING: Case[] = [
  { name: "reset-on-setup states", options: { stateHandlers: "reset-on-setup" } },
  { name: "reset-on-teardown states", options: { stateHandlers: "reset-on-teardown" } },
  {
    name: "Application/JSON;Charset=UTF-8",
    options: { jsonContentType: "Application/JSON;Charset=UTF-8" },
  },
  { name: "unique schema names", options: { uniqueNames: true } },
  {
    name: "a password with colons",
    options: { credentials: { username: "edges-user", password: "pa:ss:w0rd" } },
  },
  {
    name: "a one-letter password",
    options: { credentials: { username: "edges-user", password: "p" } },
  },
];

interface Outcome {
  readonly code: number;
  readonly failed: string[];
  readonly warnings: string[];
  readonly states: string | undefined;
}

async function verify(c: Case, seed: number): Promise<Outcome> {
  const credentials = c.options.credentials ?? CREDENTIALS;
  const provider = await startHandProvider({ ...c.options, credentials });
  const dir = mkdtempSync(join(tmpdir(), "idp-edges-"));
  const report = join(dir, "report.json");
  try {
    const args = [
      cli,
      "--provider-url",
      provider.baseUrl,
      "--provider-states-url",
      provider.statesUrl,
      "--seed",
      String(seed),
      ...(values.runs ? ["--runs", values.runs] : []),
      "--report",
      `json=${report}`,
    ];
    const code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, args, {
        env: {
          ...process.env,
          IDP_USERNAME: credentials.username,
          IDP_PASSWORD: credentials.password,
        },
        stdio: ["ignore", "ignore", "ignore"],
      });
      child.on("exit", (n) => resolve(n ?? 2));
    });
    const r = JSON.parse(readFileSync(report, "utf8")) as {
      checks: { id: string; status: string; warnings: { message: string }[] }[];
      warnings: string[];
      states?: { detail: string };
    };
    return {
      code,
      failed: r.checks.filter((x) => x.status !== "passed").map((x) => `${x.id} (${x.status})`),
      warnings: [
        ...r.warnings,
        ...r.checks.flatMap((x) => x.warnings.map((w) => `${x.id}: ${w.message}`)),
      ],
      states: r.states?.detail,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await provider.close();
  }
}

const cell = (xs: readonly string[]) => (xs.length === 0 ? "none" : [...new Set(xs)].join("; "));

console.log(`| quiet break | seed | exit | checks that fail |\n|---|---|---|---|`);
for (const c of QUIET_BREAKS)
  for (const seed of seeds(values["seeds-caught"] as string)) {
    const o = await verify(c, seed);
    console.log(`| ${c.name} | ${seed} | ${o.code} | ${cell(o.failed)} |`);
  }
console.log(
  `\n| conforming provider | seed | exit | failing | warnings | states |\n|---|---|---|---|---|---|`,
);
for (const c of CONFORMING)
  for (const seed of seeds(values["seeds-pass"] as string)) {
    const o = await verify(c, seed);
    console.log(
      `| ${c.name} | ${seed} | ${o.code} | ${cell(o.failed)} | ${cell(o.warnings)} | ${o.states ?? ""} |`,
    );
  }
