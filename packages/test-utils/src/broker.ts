// The real Pact Broker for tests: the official pact-foundation/pact_broker (v2.113, from source) of
// the shared broker kit, started per test file on a free port with a fresh SQLite database; or an
// already running broker named by PACT_BROKER_TEST_URL (for instance the official Docker image, see
// docs/verify-in-ci.md). With neither, the tests that need it skip, and say so in one loud line.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { awaitCiPackages } from "./ci-packages.ts";

/** Basic-auth users of a broker: a read-write user and, optionally, a read-only one. */
export interface BrokerAuth {
  readonly user: string;
  readonly password: string;
  readonly readOnlyUser?: string;
  readonly readOnlyPassword?: string;
}

export interface StartBrokerOptions {
  /** Basic auth on, with these users; absent: a broker without authentication. */
  readonly auth?: BrokerAuth;
}

export interface RunningBroker {
  /** Base URL, e.g. `http://127.0.0.1:39215` (no trailing slash, no credentials). */
  readonly url: string;
  /**
   * The users in effect: those asked for (kit), or those PACT_BROKER_TEST_* name (external broker).
   * Tests log in with these, never with their own constants.
   */
  readonly auth?: BrokerAuth;
  /** `kit` (started here, fresh database) or `external` (PACT_BROKER_TEST_URL, shared, not stopped). */
  readonly source: "kit" | "external";
  /** The broker's log file (kit only), for a failing test to point at. */
  readonly log?: string;
  /** Stops a kit broker and removes its database; nothing for an external one. */
  stop(): Promise<void>;
}

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The broker kit: $PACT_BROKER_KIT, else <repo>/../shared/broker-kit, else /work/shared/broker-kit. */
export function brokerKitDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [
    env.PACT_BROKER_KIT,
    join(REPO, "..", "shared", "broker-kit"),
    "/work/shared/broker-kit",
  ];
  return candidates.find(
    (dir): dir is string => dir !== undefined && dir !== "" && existsSync(join(dir, "start.sh")),
  );
}

export interface BrokerAvailability {
  readonly available: boolean;
  /** Why not, in one line (what to install or set). */
  readonly reason?: string;
}

let warned = false;

/**
 * Whether a broker can be had: PACT_BROKER_TEST_URL, or the kit with its Debian packages installed
 * (puma on PATH). When not, prints one loud warning line (once per test file) and returns false;
 * use it with `describe.skipIf(!brokerAvailable())`. With IDP_REQUIRE_BROKER=1 (set by .ci/run
 * when the kit is present) an unusable kit throws instead of skipping.
 */
export function brokerAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  const state = brokerAvailability(env);
  if (!state.available) {
    if (env.IDP_REQUIRE_BROKER === "1")
      throw new Error(`IDP_REQUIRE_BROKER=1 but no Pact Broker: ${state.reason}`);
    if (!warned) console.warn(`⚠⚠⚠ PACT BROKER TESTS SKIPPED: ${state.reason} ⚠⚠⚠`);
    warned = true;
  }
  return state.available;
}

export function brokerAvailability(env: NodeJS.ProcessEnv = process.env): BrokerAvailability {
  if (env.PACT_BROKER_TEST_URL) return { available: true };
  // Under .ci/run the kit's packages may still be installing.
  awaitCiPackages(env);
  const kit = brokerKitDir(env);
  if (!kit)
    return {
      available: false,
      reason:
        "no broker kit (set PACT_BROKER_KIT, or put it at ../shared/broker-kit) and no PACT_BROKER_TEST_URL (a running Pact Broker, e.g. the Docker Compose file in docs/verify-in-ci.md)",
    };
  if (spawnSync("sh", ["-c", "command -v puma"], { stdio: "ignore" }).status !== 0)
    return {
      available: false,
      reason: `the broker kit at ${kit} is not installed: run ${join(kit, "install.sh")} once (root, apt)`,
    };
  return { available: true };
}

const running = new Set<number>();
process.once("exit", () => {
  // A test run that ends without stop() (a crash, a timeout) leaves no broker behind.
  for (const pid of running) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/**
 * Starts a Pact Broker (the kit's start.sh: a fresh database, after the first start a copy of the
 * migrated empty one, a free port, 3-8 s), or returns the external one of PACT_BROKER_TEST_URL.
 * With `auth`, basic auth is on; against an external broker the users come from
 * PACT_BROKER_TEST_USERNAME / _PASSWORD (and _READONLY_USERNAME / _READONLY_PASSWORD when a
 * read-only user is asked for), and a missing one is an error naming what the test needs; without
 * `auth`, an external broker with PACT_BROKER_TEST_USERNAME set is refused the same way.
 */
export async function startBroker(options: StartBrokerOptions = {}): Promise<RunningBroker> {
  const env = process.env;
  if (env.PACT_BROKER_TEST_URL) return externalBroker(env.PACT_BROKER_TEST_URL, options, env);
  const kit = brokerKitDir(env);
  if (!kit) throw new Error(`no Pact Broker: ${brokerAvailability(env).reason}`);
  const { auth } = options;
  const template = templatePath(kit, env);
  // A copy of a database the kit's broker migrated before: the same empty broker, without the
  // migrations its first start runs (~2 CPU-s and ~1.5 s of each start, measured).
  let stateArgs: string[] = [];
  if (template && existsSync(template)) {
    const dir = mkdtempSync(join(tmpdir(), "pact-broker."));
    copyFileSync(template, join(dir, "broker.sqlite3"));
    stateArgs = ["0", dir];
  }
  const child = spawn("bash", [join(kit, "start.sh"), ...stateArgs], {
    env: {
      ...env,
      ...(auth ? { BROKER_USER: auth.user, BROKER_PASS: auth.password } : {}),
      ...(auth?.readOnlyUser && auth.readOnlyPassword
        ? { BROKER_RO_USER: auth.readOnlyUser, BROKER_RO_PASS: auth.readOnlyPassword }
        : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const code = await new Promise<number | null>((done) => child.on("close", done));
  const [url, pidText, state] = stdout.trim().split(/\s+/);
  const pid = Number(pidText);
  if (code !== 0 || !url || !Number.isInteger(pid) || !state)
    throw new Error(
      `the broker kit did not start (exit ${code}): ${stderr.trim() || stdout.trim() || "no output"}`,
    );
  running.add(pid);
  if (template && stateArgs.length === 0) keepTemplate(join(state, "broker.sqlite3"), template);
  return {
    url,
    ...(auth ? { auth } : {}),
    source: "kit",
    log: join(state, "broker.log"),
    stop: async () => {
      running.delete(pid);
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
      for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive(pid)) process.kill(pid, "SIGKILL");
      rmSync(state, { recursive: true, force: true });
    },
  };
}

/**
 * Where the migrated empty database of this kit is kept between starts (one per kit and machine,
 * named by a hash of the kit's start script and sources, so a new kit gets a new template); none
 * for BROKER_DB=postgres, whose database is not a file.
 */
function templatePath(kit: string, env: NodeJS.ProcessEnv): string | undefined {
  if ((env.BROKER_DB ?? "sqlite") !== "sqlite") return undefined;
  const hash = createHash("sha256");
  for (const file of ["start.sh", "SOURCES.txt", "config.ru"]) {
    const path = join(kit, file);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return join(tmpdir(), `idp-pact-broker-${hash.digest("hex").slice(0, 16)}.sqlite3`);
}

/**
 * Keeps a just-started broker's database as the template: it holds the migrations and nothing else
 * yet (the kit returns once the broker answers its heartbeat, which writes nothing). Copied under
 * a temporary name and renamed, so a test starting a broker meanwhile never reads half a file.
 */
function keepTemplate(database: string, template: string): void {
  const partial = `${template}.${process.pid}.partial`;
  try {
    copyFileSync(database, partial);
    renameSync(partial, template);
  } catch {
    // No template this time: the next start migrates again.
    rmSync(partial, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function externalBroker(
  url: string,
  options: StartBrokerOptions,
  env: NodeJS.ProcessEnv,
): RunningBroker {
  const base = { url: url.replace(/\/+$/, ""), source: "external" as const, stop: async () => {} };
  if (!options.auth) {
    if (env.PACT_BROKER_TEST_USERNAME)
      throw new Error(
        "this test needs a Pact Broker without authentication, and PACT_BROKER_TEST_URL has basic auth on (PACT_BROKER_TEST_USERNAME is set)",
      );
    return base;
  }
  const need = (name: string) => {
    const value = env[name];
    if (!value)
      throw new Error(
        `this test needs a Pact Broker with basic auth on${options.auth?.readOnlyUser ? " and a read-only user" : ""}: PACT_BROKER_TEST_URL is set but ${name} is not`,
      );
    return value;
  };
  const user = need("PACT_BROKER_TEST_USERNAME");
  const password = need("PACT_BROKER_TEST_PASSWORD");
  const readOnly = options.auth.readOnlyUser
    ? {
        readOnlyUser: need("PACT_BROKER_TEST_READONLY_USERNAME"),
        readOnlyPassword: need("PACT_BROKER_TEST_READONLY_PASSWORD"),
      }
    : {};
  return { ...base, auth: { user, password, ...readOnly } };
}
