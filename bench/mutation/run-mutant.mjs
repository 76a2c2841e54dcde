#!/usr/bin/env node
// One mutant of apps/provider/src, judged by idp-verify (Stryker's command runner runs this for
// each mutant with __STRYKER_ACTIVE_MUTANT__ set). Starts the provider from its (instrumented)
// sources on a fresh in-memory database, runs the built idp-verify against it with the repo's pacts
// and the checks of MUTATION_CHECKS, and exits with idp-verify's code: 0 means the mutant survived.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const CREDS = { IDP_USERNAME: "mutant-user", IDP_PASSWORD: "mutant-password-0" };
const checks = process.env.MUTATION_CHECKS ?? "R1,R2,R3,R4,R5,R6,R7,R8,R9";
const runs = process.env.MUTATION_RUNS ?? "20";

const provider = spawn(
  process.execPath,
  [
    "--conditions=@idp/source",
    "--no-warnings",
    join(root, "apps/provider/src/cli.ts"),
    "--port",
    "0",
    "--db",
    ":memory:",
    "--provider-states",
  ],
  { env: { ...process.env, ...CREDS }, stdio: ["ignore", "ignore", "pipe"] },
);
const origin = await new Promise((resolve) => {
  let seen = "";
  const timer = setTimeout(() => resolve(undefined), 15_000);
  provider.stderr.on("data", (c) => {
    seen += c;
    const m = /"url":"(http:\/\/[^"]+)\/v1"/.exec(seen);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
  provider.once("exit", () => resolve(undefined));
});
// A mutant that cannot even start is killed.
if (!origin) {
  provider.kill("SIGKILL");
  process.exit(1);
}
const code = await new Promise((resolve) => {
  const verify = spawn(
    process.execPath,
    [
      join(root, "apps/verifier/dist/cli.mjs"),
      "--provider-url",
      `${origin}/v1`,
      "--provider-states-url",
      `${origin}/_pact/provider-states`,
      "--checks",
      `${checks},pact`,
      "--runs",
      runs,
      "--seed",
      "1",
      "--max-duration",
      "60",
    ],
    { env: { ...process.env, ...CREDS }, stdio: "ignore" },
  );
  verify.once("exit", (c) => resolve(c ?? 1));
});
provider.kill("SIGKILL");
process.exit(code === 0 ? 0 : 1);
