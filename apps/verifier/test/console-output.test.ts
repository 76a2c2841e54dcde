// What a person sees: live progress on stderr (a bar only on a terminal), the summary on stdout,
// colour by the terminal, FORCE_COLOR and NO_COLOR. Real runs against a provider written by hand.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { runNode } from "@idp/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { progressLine, renderConsole } from "../src/report/console.ts";
import type { VerifyReport } from "../src/results.ts";
import { runCli } from "../src/run.ts";
import { COLOURS, visible } from "../src/terminal/index.ts";
import { against, CREDENTIALS } from "./support/run.ts";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is what it looks for
const ESC = /\x1b/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the colours this tool writes
const SGR = /\x1b\[(?:1|2|22|31|32|33|39)m/;

// wrong-status (202 for a valid create schema) breaks R3 and R4.valid-accepted.createSchema. What is
// printed is under test, not how small the counterexample gets: no shrinking.
const CHECKS = ["--checks", "R3,R4.valid-accepted.createSchema,R8", "--no-shrink"];
let provider: RunningProvider;
beforeAll(async () => {
  provider = await startHandProvider({ credentials: CREDENTIALS, faults: ["wrong-status"] });
});
afterAll(() => provider.close());
const args = (extra: readonly string[] = []) =>
  against(provider, [...CHECKS, ...extra], { runs: 20, seed: 3, states: false });

interface Captured {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: VerifyReport;
}

/** runCli in-process with streams that say they are (or are not) terminals. */
async function capture(
  terminal: { stdoutIsTTY: boolean; stderrIsTTY: boolean },
  env: Record<string, string> = {},
): Promise<Captured> {
  const dir = mkdtempSync(join(tmpdir(), "idp-verify-console-"));
  let stdout = "";
  let stderr = "";
  try {
    const code = await runCli([...args(), "--report", `json=${join(dir, "r.json")}`], env, {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      terminal: { ...terminal, columns: () => 100 },
    });
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as VerifyReport;
    return { code, stdout, stderr, report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("idp-verify's console output", () => {
  let piped: Captured;
  let tty: Captured;
  beforeAll(async () => {
    piped = await capture({ stdoutIsTTY: false, stderrIsTTY: false });
    tty = await capture({ stdoutIsTTY: true, stderrIsTTY: true });
  });

  it("prints each check once, as it finishes, on stderr; the summary on stdout", () => {
    expect(piped.code).toBe(1);
    const lines = piped.stderr.split("\n");
    for (const c of piped.report.checks) {
      const line = progressLine(c);
      expect(
        lines.filter((l) => l === line),
        c.id,
      ).toHaveLength(1);
      expect(piped.stdout).not.toContain(line);
    }
    expect(piped.stdout).toBe(renderConsole(piped.report));
    const { passed, failed } = piped.report.summary;
    expect(failed).toBe(2);
    expect(piped.stdout.endsWith(`\nFAILED: ${passed} passed, ${failed} failed (exit 1)\n`)).toBe(
      true,
    );
  });

  it("writes no escape code and no carriage return when nothing is a terminal", () => {
    expect(piped.stdout).not.toMatch(ESC);
    expect(piped.stderr).not.toMatch(ESC);
    expect(piped.stderr).not.toContain("\r");
  });

  it("on terminals: colours both streams and draws a bar on stderr that is gone at the end", () => {
    expect(tty.stdout).toBe(renderConsole(tty.report, COLOURS));
    expect(tty.stdout).toContain("\x1b[1m\x1b[31mFAILED\x1b[39m\x1b[22m: ");
    expect(tty.stdout).toContain(`1. ${COLOURS.red("✗")} R3: 202 is not a documented status`);
    expect(visible(tty.stdout)).toBe(renderConsole(tty.report));
    // The bar: drawn in place with \r and clear-to-end-of-line, runs of the three checks run.
    expect(tty.stderr).toMatch(/\r▕.*▏ \d+\/60 runs · \d+ s/);
    // Cleared at the end: the last line is the report's path, not a bar.
    const clear = tty.stderr.lastIndexOf("\r\x1b[K");
    expect(tty.stderr.slice(clear + 4)).toMatch(/^JSON report written to \S+r\.json\n$/);
    for (const c of tty.report.checks)
      expect(tty.stderr).toContain(`${progressLine(c, COLOURS)}\n`);
    expect(tty.stderr).toContain(`${COLOURS.green("✓")} R8.no-success-body`);
  });

  it("honours NO_COLOR on a terminal (the bar stays, uncoloured)", async () => {
    const r = await capture({ stdoutIsTTY: true, stderrIsTTY: true }, { NO_COLOR: "1" });
    expect(r.stdout).toBe(renderConsole(r.report));
    expect(r.stderr).toContain("\r▕");
    expect(r.stderr).not.toMatch(SGR);
  });
});

/** The bin as a user runs it (from source: Node strips the types), stdout and stderr piped. */
async function runBin(
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  const r = await runNode(["--conditions=@idp/source", CLI, ...args()], {
    NODE_NO_WARNINGS: "1",
    PACT_DO_NOT_TRACK: "true",
    ...env,
  });
  return { code: r.code, out: r.stdout, err: r.stderr };
}

describe("idp-verify (spawned, piped)", () => {
  it("writes no escape code by default", async () => {
    const r = await runBin({});
    expect(r.code).toBe(1);
    expect(r.err).toContain("✗ R4.valid-accepted.createSchema");
    expect(r.out).toContain("FAILED: ");
    expect(`${r.out}${r.err}`).not.toMatch(ESC);
    expect(r.err).not.toContain("\r");
  });

  it("colours with FORCE_COLOR=1, but draws no bar into a pipe", async () => {
    const r = await runBin({ FORCE_COLOR: "1" });
    expect(r.out).toContain("\x1b[31mFAILED\x1b[39m");
    expect(r.err).toContain("\x1b[31m✗\x1b[39m R4.valid-accepted.createSchema");
    expect(r.err).not.toContain("\r");
    expect(r.err).not.toContain("\x1b[K");
  });

  it("writes no colour when NO_COLOR is set, even with FORCE_COLOR", async () => {
    const r = await runBin({ FORCE_COLOR: "1", NO_COLOR: "1" });
    expect(r.code).toBe(1);
    expect(`${r.out}${r.err}`).not.toMatch(ESC);
  });
});

// A real pseudo-terminal (util-linux `script`), where stdout and stderr are both the terminal.
const haveScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
describe.skipIf(!haveScript)("idp-verify on a real terminal (script)", () => {
  it("draws the bar and colours, and leaves the screen with the summary", async () => {
    const command = [process.execPath, "--conditions=@idp/source", CLI, ...args()]
      .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
      .join(" ");
    const r = await new Promise<string>((resolve) => {
      const child = spawn("script", ["-qec", `stty cols 100; ${command}`, "/dev/null"], {
        env: {
          PATH: process.env.PATH ?? "",
          TERM: "xterm",
          NODE_NO_WARNINGS: "1",
          PACT_DO_NOT_TRACK: "true",
        },
      });
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
      });
      child.on("close", () => resolve(out));
    });
    expect(r).toMatch(/\r▕.*▏ \d+\/60 runs/);
    expect(r).toContain("\x1b[31m✗\x1b[39m R4.valid-accepted.createSchema");
    expect(r).toContain("\x1b[1m\x1b[31mFAILED\x1b[39m\x1b[22m: ");
  });
});
