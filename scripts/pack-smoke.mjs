#!/usr/bin/env node
// The packed artifacts as a user gets them: pnpm pack the four published packages, npm install
// the tarballs into an empty project, then run the bins and a small consumer program from there,
// and verify the reference provider (started from this workspace) with the installed idp-verify.
// Prints one line per step and a final PASS/FAIL; exit 1 on any failure.
// `--keep` leaves the temporary project for inspection.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build, packAll, ROOT, run } from "./pack-packages.mjs";

const { values } = parseArgs({ options: { keep: { type: "boolean" } } });
const started = performance.now();
const work = mkdtempSync(join(tmpdir(), "idp-pack-smoke-"));
const tarballs = join(work, "tarballs");
const app = join(work, "app");
mkdirSync(tarballs);
mkdirSync(app);
// The installed tools run as a user would run them: no workspace, no telemetry, no colours.
const env = {
  ...process.env,
  PACT_DO_NOT_TRACK: "true",
  SCARF_ANALYTICS: "false",
  NO_COLOR: "1",
  npm_config_update_notifier: "false",
};
let failures = 0;
const step = (ok, what, detail = "") => {
  if (!ok) failures += 1;
  process.stdout.write(`${ok ? "ok  " : "FAIL"} ${what}${detail ? ` — ${detail}` : ""}\n`);
  return ok;
};
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const tail = (r) => `${r.stderr}${r.stdout}`.trim().split("\n").slice(-6).join(" | ");
const npx = (args, options = {}) =>
  run("npx", ["--no-install", ...args], { cwd: app, env, timeout: 180_000, ...options });

const CONSUMER = `import * as fc from "fast-check";
import { CreateSchemaRequest, classifyRequestBody } from "@idp/contracts";
import { createSchemaRequestArb, invalidBodyArb, requestBodyText } from "@idp/generators";
import { IdpClient } from "@idp/pact-consumer";

const fail = (message: string): never => {
  process.stderr.write(\`consumer: \${message}\\n\`);
  process.exit(1);
};

// Generated valid bodies parse with the contract; generated invalid ones are classified as such.
const bodies = fc.sample(createSchemaRequestArb(), { seed: 1, numRuns: 20 });
for (const body of bodies) {
  const parsed = CreateSchemaRequest.safeParse(body);
  if (!parsed.success) fail(\`a generated body does not parse: \${parsed.error.message}\`);
}
const invalid = fc.sample(invalidBodyArb("createSchema"), { seed: 1, numRuns: 20 });
for (const c of invalid) {
  const verdict = classifyRequestBody("createSchema", requestBodyText(c));
  if (verdict.outcome !== "invalid" || verdict.status !== c.expectedStatus)
    fail(\`an invalid body (\${c.violation}) was classified \${verdict.outcome}\`);
}

// The typed client against a real provider.
const idp = new IdpClient({
  baseUrl: process.env.IDP_BASE_URL ?? fail("IDP_BASE_URL unset"),
  username: process.env.IDP_USERNAME ?? fail("IDP_USERNAME unset"),
  password: process.env.IDP_PASSWORD ?? fail("IDP_PASSWORD unset"),
});
const [first] = bodies;
if (first === undefined) fail("no sample");
else await idp.createSchema(first);
process.stdout.write(\`\${bodies.length} valid + \${invalid.length} invalid bodies checked; createSchema accepted\\n\`);
`;

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2023",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      skipLibCheck: false,
      // the user's own @types/node; this workspace's copy saves a registry fetch
      typeRoots: [join(ROOT, "node_modules", "@types")],
      types: ["node"],
    },
    files: ["consumer.mts"],
  },
  null,
  2,
)}\n`;

let provider;
try {
  // 1. Build and pack.
  const b = build();
  if (
    !step(
      b.status === 0,
      "build (turbo, @idp/verifier and its dependencies)",
      b.status === 0 ? secs(b.ms) : tail(b),
    )
  )
    throw new Error("stop");
  const packs = packAll(tarballs);
  for (const p of packs)
    step(
      !p.error,
      `pnpm pack ${p.name}`,
      p.error ?? `${(p.bytes / 1024).toFixed(1)} kB, ${secs(p.ms)}`,
    );
  if (packs.some((p) => p.error)) throw new Error("stop");

  // 2. An empty project that installs only the tarballs (their dependencies come from the registry).
  const init = run("npm", ["init", "-y"], { cwd: app, env });
  if (!step(init.status === 0, "npm init -y", init.status === 0 ? "" : tail(init)))
    throw new Error("stop");
  const install = run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", ...packs.map((p) => p.tarball)],
    { cwd: app, env, timeout: 600_000 },
  );
  if (
    !step(
      install.status === 0,
      "npm install <4 tarballs>",
      install.status === 0 ? secs(install.ms) : tail(install),
    )
  )
    throw new Error("stop");

  // 3. The bins.
  const help = npx(["idp-verify", "--help"]);
  step(
    help.status === 0 &&
      /^idp-verify \d+\.\d+\.\d+: /.test(help.stdout) &&
      help.stdout.includes("Usage: idp-verify"),
    "idp-verify --help",
    help.status === 0 ? "" : `exit ${help.status}: ${tail(help)}`,
  );

  const gen = npx(["idp-gen", "push", "--count", "3", "--seed", "1"]);
  const lines = gen.stdout.trim().split("\n").filter(Boolean);
  const allJson = lines.every((l) => {
    try {
      return typeof JSON.parse(l) === "object";
    } catch {
      return false;
    }
  });
  step(
    gen.status === 0 && lines.length === 3 && allJson,
    "idp-gen push --count 3",
    gen.status === 0
      ? `${lines.length} lines, ${allJson ? "all JSON" : "not all JSON"}`
      : `exit ${gen.status}: ${tail(gen)}`,
  );

  // Installed alone: no @idp/provider to embed, so without --provider-url it must say so, once, exit 2.
  const alone = npx(["idp-verify"]);
  const errorLines = alone.stderr.split("\n").filter((l) => l.startsWith("idp-verify: E_"));
  step(
    alone.status === 2 && errorLines.length === 1 && errorLines[0].includes("--provider-url"),
    "idp-verify without --provider-url: exit 2 and one line asking for --provider-url",
    alone.status === 2 && errorLines.length === 1
      ? errorLines[0]
      : `exit ${alone.status}: ${tail(alone)}`,
  );

  // 4. The reference provider, from this workspace, as the provider under test.
  const username = "smoke-user";
  const password = `smoke-${Math.random().toString(36).slice(2)}`;
  provider = await startProvider(username, password);
  step(true, "reference provider started (apps/provider/dist/cli.mjs --port 0)", provider.baseUrl);

  // 5. A consumer program that uses the three libraries as installed, types included.
  writeFileSync(join(app, "consumer.mts"), CONSUMER);
  writeFileSync(join(app, "tsconfig.json"), TSCONFIG);
  const tsc = run(
    process.execPath,
    [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."],
    { cwd: app, env },
  );
  step(
    tsc.status === 0,
    "consumer.mts type-checks against the installed .d.mts",
    tsc.status === 0 ? "" : tail(tsc),
  );
  const consumer = run(process.execPath, ["consumer.mts"], {
    cwd: app,
    env: { ...env, IDP_BASE_URL: provider.baseUrl, IDP_USERNAME: username, IDP_PASSWORD: password },
    timeout: 60_000,
  });
  step(
    consumer.status === 0,
    "consumer.mts (contracts + generators + pact-consumer client)",
    consumer.status === 0 ? consumer.stdout.trim() : tail(consumer),
  );

  // 6. idp-verify, installed, against the provider: the pacts in ./pacts (its default) + every check.
  cpSync(join(ROOT, "pacts"), join(app, "pacts"), { recursive: true });
  const verify = npx(
    [
      "idp-verify",
      "--provider-url",
      provider.baseUrl,
      "--provider-states-url",
      provider.statesUrl,
      "--runs",
      "20",
      "--seed",
      "20261123",
      // Two worker threads: the installed package's conformance-worker.mjs must load and run.
      "--threads",
      "2",
      "--report",
      "junit=reports/idp.xml",
    ],
    { env: { ...env, IDP_USERNAME: username, IDP_PASSWORD: password } },
  );
  const verdict =
    verify.stdout.split("\n").find((l) => /^(PASSED|FAILED|COULD NOT VERIFY)/.test(l)) ?? "";
  step(
    verify.status === 0 && verdict.startsWith("PASSED") && /^✓ pact\./m.test(verify.stderr),
    "idp-verify --provider-url <reference provider> --threads 2 (pacts from ./pacts + conformance checks)",
    `${secs(verify.ms)}, exit ${verify.status}: ${verdict || tail(verify)}`,
  );
} catch (e) {
  if (e.message !== "stop") step(false, "unexpected error", e.stack);
} finally {
  await provider?.stop();
  if (values.keep) process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
process.stdout.write(
  `pack-smoke: ${failures === 0 ? "PASS" : `FAIL (${failures} failed)`} in ${secs(performance.now() - started)}\n`,
);
process.exitCode = failures === 0 ? 0 : 1;

/** Starts the built reference provider on a free port; resolves once it logs where it listens. */
function startProvider(username, password) {
  const cli = join(ROOT, "apps", "provider", "dist", "cli.mjs");
  const child = spawn(
    process.execPath,
    [
      cli,
      "--port",
      "0",
      "--db",
      ":memory:",
      "--provider-states",
      "--username",
      username,
      "--password",
      password,
    ],
    { stdio: ["ignore", "ignore", "pipe"], env },
  );
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the reference provider did not start in 15 s: ${seen}`));
    }, 15_000);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      seen += chunk;
      for (const line of seen.split("\n")) {
        let entry;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        if (entry.msg === "listening" && typeof entry.url === "string") {
          clearTimeout(timer);
          const statesUrl = `${new URL(entry.url).origin}/_pact/provider-states`;
          resolve({ baseUrl: entry.url, statesUrl, stop });
          return;
        }
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference provider exited (${code}) before listening: ${seen}`));
    });
  });
}
