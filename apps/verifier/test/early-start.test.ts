// The CLI starts the embedded provider's thread and a case thread before it loads the rest of the
// verifier (src/early-start.ts): the run takes them, and a run that needs neither is not held up.
// Before that, it turns Node's compile cache on for itself and what it starts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runNode } from "@idp/test-utils";
import { describe, expect, it } from "vitest";
import { startEarly } from "../src/early-start.ts";
import { nextEmbeddedCredentials } from "../src/embedded.ts";
import {
  CASE_THREAD_FROM,
  CONFORMANCE_CHECK_COUNT,
  caseThreadPays,
  caseThreads,
  giveBack,
  takeThread,
} from "../src/engine/case-threads.ts";
import { CHECKS } from "../src/rules/index.ts";
import { verifyReport } from "./support/run.ts";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

describe("threads started before the verifier loads", () => {
  it("leaves the provider alone when --provider-url is given, in either form", () => {
    startEarly(["--provider-url", "http://127.0.0.1:9/v1", "--runs", "3"]);
    startEarly(["--provider-url=http://127.0.0.1:9/v1"]);
    startEarly(["--help"]);
    // No thread waits: each call makes new credentials.
    expect(nextEmbeddedCredentials()).not.toBe(nextEmbeddedCredentials());
  });

  it("starts a case thread only where it pays: enough cases, and a core for it", async () => {
    // The early start cannot load the registry; its count of the checks must be the registry's.
    expect(CONFORMANCE_CHECK_COUNT).toBe(CHECKS.length);
    const least = Math.ceil(CASE_THREAD_FROM / CONFORMANCE_CHECK_COUNT);
    const remote = ["--provider-url", "http://127.0.0.1:9/v1"];
    // Threads kept idle by earlier runs of this process are taken first: with one waiting, an
    // early start starts none either way.
    const taken = [];
    while (caseThreads().idle > 0) taken.push(takeThread());
    try {
      const before = caseThreads().started;
      startEarly([...remote, "--runs", String(least - 1)]);
      startEarly([...remote, "--runs=5", "--checks", "R1,R4"]);
      expect(caseThreads()).toEqual({ started: before, idle: 0 });
      // Enough runs for every check together: one is started, idle for the run, given a core.
      startEarly([...remote, "--runs", String(least)]);
      const one = availableParallelism() >= 2 ? 1 : 0;
      expect(caseThreads()).toEqual({ started: before + one, idle: one });
    } finally {
      for (const w of taken) await giveBack(w);
    }
  });

  it("counts a core for the sending thread, the case thread and the embedded provider's thread", () => {
    expect(caseThreadPays(CASE_THREAD_FROM, false, 2)).toBe(true);
    expect(caseThreadPays(CASE_THREAD_FROM - 1, false, 2)).toBe(false);
    expect(caseThreadPays(CASE_THREAD_FROM, false, 1)).toBe(false);
    expect(caseThreadPays(CASE_THREAD_FROM, true, 2)).toBe(false);
    expect(caseThreadPays(CASE_THREAD_FROM, true, 3)).toBe(true);
    expect(caseThreadPays(Number.NaN, false, 8)).toBe(false);
  });

  it("the run takes the embedded provider started early, with its credentials", async () => {
    startEarly(["--runs", "5", "--seed", "3"]);
    const early = nextEmbeddedCredentials();
    expect(nextEmbeddedCredentials()).toBe(early);
    const run = await verifyReport(["--runs", "5", "--seed", "3"]);
    expect(run.code).toBe(0);
    expect(run.report?.embedded).toBe(true);
    // Taken: the next run gets a thread (and credentials) of its own.
    expect(nextEmbeddedCredentials()).not.toBe(early);
    // The early thread's password is a secret of the run like any other.
    expect(`${run.stdout}${run.stderr}${JSON.stringify(run.report)}`).not.toContain(early.password);
  });

  it("a handle left open after the verdict ends the bin with the verdict's code, saying so", async () => {
    // A referenced interval, loaded before the CLI, stands for any handle the run left open.
    const open = ["--import", "data:text/javascript,setInterval(() => {}, 1000)"];
    const started = performance.now();
    const r = await runNode([...open, "--conditions=@idp/source", CLI, "--runz", "5"], {
      NODE_NO_WARNINGS: "1",
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([
      "idp-verify: E_CONFIG: unknown option --runz (did you mean --runs?)",
      "Run idp-verify --help for usage.",
      "idp-verify: something was left open 3 s after the verdict; ending with exit 2",
    ]);
    // A limit for a hang, not for speed.
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it("bad arguments still end the bin at once with exit 2: the threads started keep nothing alive", async () => {
    const r = await runNode(["--conditions=@idp/source", CLI, "--runz", "5"], {
      NODE_NO_WARNINGS: "1",
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--runz.*did you mean --runs/);
    expect(r.stderr.trim().split("\n")).toEqual([
      "idp-verify: E_CONFIG: unknown option --runz (did you mean --runs?)",
      "Run idp-verify --help for usage.",
    ]);
  });

  it("keeps Node's compile cache between runs: in the temp directory, where NODE_COMPILE_CACHE says, or not at all", () => {
    const dir = mkdtempSync(join(tmpdir(), "idp-compile-cache-"));
    // Exactly these variables (the test runner's own NODE_COMPILE_CACHE would decide otherwise).
    const run = (env: Record<string, string>, args = ["--version"]) =>
      spawnSync(process.execPath, ["--conditions=@idp/source", CLI, ...args], {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TMPDIR: dir, ...env },
        encoding: "utf8",
      });
    // The cache is one folder per Node version, with a file per module compiled.
    const cached = (root: string) =>
      existsSync(root) ? readdirSync(root).flatMap((v) => readdirSync(join(root, v))).length : 0;
    try {
      const off = run({ NODE_DISABLE_COMPILE_CACHE: "1" });
      expect(off.status).toBe(0);
      expect(cached(join(dir, "node-compile-cache"))).toBe(0);
      const named = join(dir, "named");
      expect(run({ NODE_COMPILE_CACHE: named }).status).toBe(0);
      expect(cached(join(dir, "node-compile-cache"))).toBe(0);
      // --version loads the whole verifier (its modules, zod's, fast-check's): scores of files.
      expect(cached(named)).toBeGreaterThan(20);
      const plain = run({});
      expect(plain.status).toBe(0);
      expect(plain.stdout).toBe(off.stdout);
      expect(cached(join(dir, "node-compile-cache"))).toBeGreaterThan(20);
      // The embedded provider's thread uses it too: hono is loaded there only (Node's own debug
      // lines name each module the cache holds).
      const embedded = run({ NODE_DEBUG_NATIVE: "COMPILE_CACHE" }, [
        "--checks",
        "R8",
        "--runs",
        "1",
      ]);
      expect(embedded.status).toBe(0);
      expect(embedded.stderr).toMatch(/compile cache.*\/hono\/dist\/hono-base\.js/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
