#!/usr/bin/env node
// The packed artifacts as a user gets them: pnpm pack the five published packages, npm install
// the tarballs into an empty project, then run the bins and a small consumer program from there,
// start the installed idp-provider and verify it with the installed idp-verify; then play a consumer
// team (examples/consumer-team: its own client, builders, property test and Pact V4 test), verify
// the pact it records, and plant the traps a new team falls into (a fractional value, a misspelt
// builder key, two interactions for one cell, a stale pact file, a database file, the broker asked
// about the wrong consumer): each is caught, saying what and where.
// Prints one line per step and a final PASS/FAIL; exit 1 on any failure.
// `--keep` leaves the temporary project for inspection; `--tarballs DIR` installs tarballs packed
// earlier (`pnpm test` packs once, after its build) instead of building and packing here.
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build, findTarballs, packAll, ROOT, run } from "./pack-packages.mjs";

const { values } = parseArgs({
  options: { keep: { type: "boolean" }, tarballs: { type: "string" } },
});
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
// The installed bins as npm scripts and npx run them (node_modules/.bin), without npx's own Node
// start around each (half a second of CPU a call): npx is used once, for --help.
const bin = ([name, ...args], options = {}) =>
  run(join(app, "node_modules", ".bin", name), args, {
    cwd: app,
    env,
    timeout: 180_000,
    ...options,
  });

// What a consumer team installs beside the tarballs, at the versions this workspace tests with.
const catalog = readFileSync(join(ROOT, "pnpm-workspace.yaml"), "utf8");
const catalogVersion = (name) => {
  const line = catalog.split("\n").find((l) => l.trim().replace(/"/g, "").startsWith(`${name}:`));
  if (!line) throw new Error(`pnpm-workspace.yaml has no catalog entry for ${name}`);
  return line.split(":").slice(1).join(":").trim();
};
const CONSUMER_TEAM_DEPS = [
  "@pact-foundation/pact",
  "vitest",
  "@fast-check/vitest",
  "fast-check",
].map((name) => `${name}@${catalogVersion(name)}`);

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
    // consumer.mts and the consumer team's own modules (examples/consumer-team/src), with every
    // installed .d.mts checked (skipLibCheck false)
    include: ["consumer.mts", "src/**/*.ts"],
  },
  null,
  2,
)}\n`;

// The consumer team's tests import @pact-foundation/pact, whose own .d.ts files need @types/express
// (pact-js's packaging): checked as most projects do, with skipLibCheck.
const TSCONFIG_TEAM = `${JSON.stringify(
  {
    extends: "./tsconfig.json",
    compilerOptions: { skipLibCheck: true },
    include: ["test/**/*.ts", "vitest.config.ts"],
  },
  null,
  2,
)}\n`;

let provider;
let broker;
try {
  // 1. Build and pack (or take the tarballs packed earlier).
  let packs;
  if (values.tarballs) packs = findTarballs(values.tarballs);
  else {
    const b = build();
    if (
      !step(
        b.status === 0,
        "build (turbo, @idp/verifier and its dependencies)",
        b.status === 0 ? secs(b.ms) : tail(b),
      )
    )
      throw new Error("stop");
    packs = packAll(tarballs);
  }
  for (const p of packs)
    step(
      !p.error,
      `${values.tarballs ? "packed" : "pnpm pack"} ${p.name}`,
      p.error ?? `${(p.bytes / 1024).toFixed(1)} kB${values.tarballs ? "" : `, ${secs(p.ms)}`}`,
    );
  if (packs.some((p) => p.error)) throw new Error("stop");

  // 2. An empty project that installs only the tarballs (their dependencies come from the registry).
  const init = run("npm", ["init", "-y"], { cwd: app, env });
  if (!step(init.status === 0, "npm init -y", init.status === 0 ? "" : tail(init)))
    throw new Error("stop");
  // --prefer-offline: what npm's cache holds is not asked of the registry again (the same tree
  // installed; 10.3 s and 12.9 CPU-s against 18.2 s and 15.6 here). A machine without that cache
  // still fetches everything.
  const install = run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...packs.map((p) => p.tarball),
      ...CONSUMER_TEAM_DEPS,
    ],
    { cwd: app, env, timeout: 600_000 },
  );
  if (
    !step(
      install.status === 0,
      `npm install <${packs.length} tarballs> ${CONSUMER_TEAM_DEPS.join(" ")}`,
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

  const gen = bin(["idp-gen", "push", "--count", "3", "--seed", "1"]);
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

  // @idp/provider is installed beside idp-verify: without --provider-url it is the embedded default.
  const embedded = bin(["idp-verify", "--checks", "R1,R4", "--runs", "5", "--seed", "1"]);
  const embeddedVerdict =
    embedded.stdout.split("\n").find((l) => /^(PASSED|FAILED|COULD NOT VERIFY)/.test(l)) ?? "";
  step(
    embedded.status === 0 && embeddedVerdict.startsWith("PASSED"),
    "idp-verify without --provider-url: the installed @idp/provider, embedded",
    `exit ${embedded.status}: ${embeddedVerdict || tail(embedded)}`,
  );

  // 4. The reference provider, from this workspace, as the provider under test.
  const username = "smoke-user";
  const password = `smoke-${Math.random().toString(36).slice(2)}`;
  provider = await startProvider(username, password);
  step(
    true,
    "the installed idp-provider started (--port 0 --db :memory: --provider-states)",
    provider.baseUrl,
  );

  // 5. A consumer program that uses the three libraries as installed, types included; and the
  // consumer team's project, type-checked with it.
  writeFileSync(join(app, "consumer.mts"), CONSUMER);
  for (const part of ["src", "test", "vitest.config.ts"])
    cpSync(join(ROOT, "examples", "consumer-team", part), join(app, part), { recursive: true });
  writeFileSync(join(app, "tsconfig.json"), TSCONFIG);
  writeFileSync(join(app, "tsconfig.team.json"), TSCONFIG_TEAM);
  // The packages' TypeScript (7, native), as a team on the current release would type it.
  const tscBin = join(ROOT, "packages", "contracts", "node_modules", "typescript", "bin", "tsc");
  const tsc = run(process.execPath, [tscBin, "-p", "."], { cwd: app, env });
  step(
    tsc.status === 0,
    "consumer.mts and the consumer team's modules type-check against the installed .d.mts",
    tsc.status === 0 ? "" : tail(tsc),
  );
  const tscTeam = run(process.execPath, [tscBin, "-p", "tsconfig.team.json"], { cwd: app, env });
  step(
    tscTeam.status === 0,
    "the consumer team's tests type-check (idpInteraction with pact-js's PactV4)",
    tscTeam.status === 0 ? "" : tail(tscTeam),
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
  const verify = bin(
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

  // 7. The consumer team (consumer my-backend), as docs/consumer-guide.md tells a new team: its
  // "pact" script (the guide's own snippet) records into an emptied pacts/ (a stale pact file is
  // planted first), the embedded verification leaves no database file, check-contracts.
  const guide = readFileSync(join(ROOT, "docs", "consumer-guide.md"), "utf8");
  const scriptsLine = /```json\n("scripts": \{.*\})\n```/.exec(guide)?.[1];
  const pkgPath = join(app, "package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
  pkg.scripts = { ...pkg.scripts, ...JSON.parse(`{${scriptsLine ?? '"scripts": {}'}}`).scripts };
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  step(
    Boolean(pkg.scripts.pact),
    'consumer team: the guide\'s "pact" script',
    pkg.scripts.pact ?? "not found in docs/consumer-guide.md",
  );
  const teamPact = join(app, "pacts", "my-backend-idp-service.json");
  const stale = JSON.parse(
    readFileSync(join(ROOT, "pacts", "idp-toolkit-consumer-idp-service.json"), "utf8"),
  );
  writeFileSync(
    teamPact,
    JSON.stringify({
      ...stale,
      consumer: { name: "my-backend" },
      interactions: stale.interactions.map((i) => ({
        ...i,
        description: `stale: ${i.description}`,
      })),
    }),
  );
  const teamEnv = { ...env, FC_SEED: "20261123" };
  const team = run("npm", ["run", "--silent", "pact"], {
    cwd: app,
    env: teamEnv,
    timeout: 180_000,
  });
  const recorded = existsSync(teamPact)
    ? JSON.parse(readFileSync(teamPact, "utf8")).interactions.map((i) => i.description)
    : [];
  step(
    team.status === 0 && recorded.length === 7 && !recorded.some((d) => d.startsWith("stale: ")),
    "consumer team: npm run pact (the builders' property test + the Pact V4 test) records a fresh pact",
    `exit ${team.status}, ${recorded.length} interactions in pacts/my-backend-idp-service.json, ${recorded.filter((d) => d.startsWith("stale: ")).length} stale${team.status === 0 ? "" : `: ${tail(team)}`}`,
  );
  const teamVerify = bin([
    "idp-verify",
    "--pacts",
    "pacts/my-backend-idp-service.json",
    "--checks",
    "pact",
  ]);
  const teamVerdict =
    teamVerify.stdout.split("\n").find((l) => /^(PASSED|FAILED|COULD NOT VERIFY)/.test(l)) ?? "";
  step(
    teamVerify.status === 0 && teamVerdict.startsWith("PASSED: 7 passed"),
    "consumer team: idp-verify --pacts pacts/my-backend-idp-service.json --checks pact (embedded provider)",
    `exit ${teamVerify.status}: ${teamVerdict || tail(teamVerify)}`,
  );
  const teamCheck = bin([
    "idp-pacts",
    "check-contracts",
    "--pacts",
    "pacts/my-backend-idp-service.json",
  ]);
  step(
    teamCheck.status === 0,
    "consumer team: idp-pacts check-contracts --pacts pacts/my-backend-idp-service.json",
    `exit ${teamCheck.status}${teamCheck.status === 0 ? "" : `: ${tail(teamCheck)}`}`,
  );
  const published = bin([
    "idp-verify",
    "--checks",
    "pact",
    "--broker-url",
    "http://127.0.0.1:9",
    "--publish-verification-results",
    "--provider-version",
    "1",
  ]);
  step(
    published.status === 2 &&
      /--publish-verification-results needs --provider-url/.test(published.stderr),
    "consumer team: --publish-verification-results of the embedded provider is refused (exit 2)",
    `exit ${published.status}: ${published.stderr.trim().split("\n")[0]}`,
  );

  // 8. The traps, planted: each caught when the tests run, saying what and where.
  const planted = (bug) => {
    const r = run("npm", ["run", "--silent", "pact"], {
      cwd: app,
      env: { ...teamEnv, PLANT_BUG: bug },
      timeout: 180_000,
    });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };
  const bug = planted("1");
  const property = /at data\.vibrate_duration: received \d+\.5 \(a fraction\)/.test(bug.out);
  const refused =
    /pushToUserDevices 200 interaction: the example body is not valid at data\.vibrate_duration: received 4\.5/.test(
      bug.out,
    );
  step(
    bug.status === 1 && property && refused,
    "PLANT_BUG=1 (a fractional vibrate_duration): the property test and the 2xx builder both catch it",
    `exit ${bug.status}; property test names the value: ${property}; 2xx example refused: ${refused}`,
  );
  const typo = planted("typo");
  step(
    typo.status === 1 &&
      typo.out.includes(
        "at schema.fields[0].uniqe: received true (a boolean); expected no such key: schema.fields[0] has only name, type, unique (did you mean unique?)",
      ),
    "PLANT_BUG=typo (uniqe: true in a builder): the property test fails, naming the key",
    `exit ${typo.status}`,
  );
  const duplicate = planted("duplicate");
  step(
    duplicate.status === 1 &&
      /received a second interaction "push to user devices: 200 for a valid notification to a login user" given "a login user exists" \(pushToUserDevices 200, id "u-4"\); the pact already holds one with that description and provider state \(pushToUserDevices 200, id "u-1"\)/.test(
        duplicate.out,
      ),
    "PLANT_BUG=duplicate (two interactions for one cell): refused, naming both",
    `exit ${duplicate.status}`,
  );
  const litter = run("find", [
    app,
    "-path",
    join(app, "node_modules"),
    "-prune",
    "-o",
    "-iname",
    "*sqlite*",
    "-print",
  ]);
  step(
    litter.status === 0 && litter.stdout.trim() === "",
    "consumer team: no SQLite file left in the project",
    litter.stdout.trim() || "none",
  );

  // 9. The broker (the shared kit, when installed): can-i-deploy and doctor ask about my-backend,
  // the consumer its pacts name, and say why not.
  const { brokerAvailability, startBroker } = await import("../packages/test-utils/src/broker.ts");
  if (!brokerAvailability().available) {
    step(true, "consumer team on the Pact Broker: skipped", brokerAvailability().reason);
  } else {
    broker = await startBroker();
    const git = (...args) =>
      run("git", ["-c", "user.email=t@example.invalid", "-c", "user.name=t", ...args], {
        cwd: app,
      });
    writeFileSync(join(app, ".gitignore"), "node_modules/\npacts/\n");
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-qm", "my-backend");
    const sha = git("rev-parse", "HEAD").stdout.trim();
    const brokerEnv = { ...env, PACT_BROKER_BASE_URL: broker.url };
    const withBroker = (args) => bin(args, { env: brokerEnv });
    const pub = withBroker(["idp-pacts", "publish"]);
    step(
      pub.status === 0,
      "consumer team: idp-pacts publish (the git commit on main)",
      `exit ${pub.status}${pub.status === 0 ? "" : `: ${tail(pub)}`}`,
    );
    withBroker(["pact-broker", "create-environment", "--name", "production", "--production"]);
    const no = withBroker(["idp-pacts", "can-i-deploy", "--to-environment", "production"]);
    step(
      no.status === 1 &&
        no.stdout.includes("✗ my-backend → idp-service in production: never-verified") &&
        no.stdout.includes(
          `can-i-deploy: no, my-backend version ${sha} may not go to production (never-verified)`,
        ) &&
        !`${no.stdout}${no.stderr}`.includes("idp-toolkit-consumer"),
      "consumer team: can-i-deploy asks about my-backend (its pacts' consumer) and says why not (exit 1)",
      `exit ${no.status}: ${no.stdout.trim().split("\n").at(-1)}`,
    );
    const doctor = withBroker(["idp-pacts", "doctor"]);
    step(
      doctor.status === 1 &&
        doctor.stdout.includes(
          "! idp-service has never published a verification result for my-backend's pacts",
        ),
      "consumer team: doctor explains it (the provider never published a result)",
      `exit ${doctor.status}`,
    );
    const unknown = bin(["idp-pacts", "can-i-deploy", "--to-environment", "production"], {
      env: { ...brokerEnv, PACT_CONSUMER_VERSION: "not-published" },
    });
    step(
      unknown.status === 2 &&
        unknown.stderr.includes("does not know version not-published of my-backend"),
      "consumer team: a version the broker does not know is exit 2, not a no",
      `exit ${unknown.status}`,
    );
  }
} catch (e) {
  if (e.message !== "stop") step(false, "unexpected error", e.stack);
} finally {
  await provider?.stop();
  await broker?.stop();
  if (values.keep) process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
process.stdout.write(
  `pack-smoke: ${failures === 0 ? "PASS" : `FAIL (${failures} failed)`} in ${secs(performance.now() - started)}\n`,
);
process.exitCode = failures === 0 ? 0 : 1;

/** Starts the built reference provider on a free port; resolves once it logs where it listens. */
function startProvider(username, password) {
  // The installed bin, as a consumer team starts it (not this workspace's build).
  const cli = join(app, "node_modules", "@idp", "provider", "dist", "cli.mjs");
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
