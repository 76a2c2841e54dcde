// `pnpm bench:pacts`: Pact verification of a 600-interaction pact (the 12 recorded interactions, 50
// times over) through `idp-verify --checks pact` and through Pact's own Rust CLI (`pact verifier`
// of @pact-foundation/pact-cli), against the same provider, in one run. Prints both wall times and
// the ratio (goal <= 0.6: faster than Pact's own CLI). Build first.
//
//   node bench/pacts.bench.ts [--copies 50]
//
// Each copy gets its own login-user ids and schema name (in its provider states and its request
// path), as 50 consumers' pacts would: interactions with the same state parameters are never run
// at the same time, so identical copies would leave nothing to run in parallel.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { pactCopies } from "../apps/verifier/test/support/pact-copies.ts";
import { spawnProvider } from "./support/spawn-provider.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "apps", "verifier", "dist", "cli.mjs");
const { values } = parseArgs({ options: { copies: { type: "string", default: "50" } } });
const COPIES = Number(values.copies);
// The pacts' placeholder credentials are the provider's own here, so Pact's CLI needs no filter.
const CREDS = { IDP_USERNAME: "pact-placeholder-user", IDP_PASSWORD: "pact-placeholder-password" };

const pact = JSON.parse(
  readFileSync(join(root, "pacts", "idp-toolkit-consumer-idp-service.json"), "utf8"),
) as { interactions: unknown[] };
const { interactions } = pactCopies(pact, COPIES);
const dir = mkdtempSync(join(tmpdir(), "idp-bench-pacts-"));
const file = join(dir, "bench-consumer-idp-service.json");
writeFileSync(file, JSON.stringify({ ...pact, interactions }));

const pactBin = join(
  dirname(
    createRequire(join(root, "apps", "verifier", "package.json")).resolve(
      "@pact-foundation/pact-cli/package.json",
    ),
  ),
  "..",
  "pact-cli-linux-x64",
  "standalone",
  "pact",
);

async function timed(cmd: string, args: string[], env: Record<string, string> = {}) {
  const started = performance.now();
  const child = spawn(cmd, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (d) => (err = (err + d).slice(-2000)));
  const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  return { code, seconds: (performance.now() - started) / 1000, err };
}

const provider = (await spawnProvider([], CREDS)) as {
  baseUrl: string;
  statesUrl: string;
  stop(): Promise<void>;
};
try {
  const port = new URL(provider.baseUrl).port;
  const rust = await timed(pactBin, [
    "verifier",
    "-f",
    file,
    "-h",
    "127.0.0.1",
    "-p",
    port,
    "--base-path",
    "/v1",
    "-n",
    "idp-service",
    "--state-change-url",
    provider.statesUrl,
    "--state-change-teardown",
    "-l",
    "error",
    "--no-colour",
  ]);
  const ours = await timed(
    process.execPath,
    [
      cli,
      "--provider-url",
      provider.baseUrl,
      "--provider-states-url",
      provider.statesUrl,
      "--pacts",
      file,
      "--checks",
      "pact",
    ],
    CREDS,
  );
  console.log(`| ${interactions.length} interactions | wall time | exit |`);
  console.log(`|---|---|---|`);
  console.log(
    `| Pact's CLI (\`pact verifier\`, pact-cli 18.1.2) | ${rust.seconds.toFixed(1)} s | ${rust.code} |`,
  );
  console.log(`| \`idp-verify --checks pact\` | ${ours.seconds.toFixed(1)} s | ${ours.code} |`);
  console.log(`| **ratio** (goal <= 0.6) | **${(ours.seconds / rust.seconds).toFixed(2)}** | |`);
  // A run that did not pass verified something else: its time means nothing.
  if (rust.code !== 0 || ours.code !== 0) {
    console.error(`Pact's CLI stderr:\n${rust.err}\nidp-verify stderr:\n${ours.err}`);
    console.error("bench:pacts: both runs must pass for the times to compare");
    process.exitCode = 1;
  }
} finally {
  await provider.stop();
}
