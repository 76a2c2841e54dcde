import { writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Config } from "./config/parse.ts";
import { parseConfig } from "./config/parse.ts";
import { describeError, EXIT, type ExitCode, VerifyError } from "./errors.ts";
import { helpText } from "./help.ts";
import { assertReplayDirWritable, writeReplays } from "./replay/files.ts";
import { progressLine, renderConsole } from "./report/console.ts";
import { renderHtml } from "./report/html.ts";
import { renderJunit } from "./report/junit.ts";
import type { VerifyReport } from "./results.ts";
import { LiveProgress, paintFor } from "./terminal/index.ts";
import { verify } from "./verify.ts";
import { VERSION } from "./version.ts";
import { assertWritableFile, asWriteError, makeDirs } from "./writable.ts";

/** Where `runCli` writes: stdout and stderr. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The directory relative paths are read from (default: the working directory). */
  readonly cwd?: string;
  /**
   * What the streams are. A terminal gets colour (unless NO_COLOR) and, on stderr, a live progress
   * bar; without this, both are pipes: no bar, colour only with FORCE_COLOR.
   */
  readonly terminal?: {
    readonly stdoutIsTTY?: boolean;
    readonly stderrIsTTY?: boolean;
    /** stderr's width now; 80 when unknown. */
    readonly columns?: () => number | undefined;
    /** Milliseconds, monotonic (tests pass a fake clock). */
    readonly now?: () => number;
  };
}

const REPORT_NAMES = { json: "JSON", junit: "JUnit", html: "HTML" } as const;

const RENDERERS = {
  json: (r: VerifyReport) => `${JSON.stringify(r, null, 2)}\n`,
  junit: renderJunit,
  html: (r: VerifyReport, path: string) => renderHtml(r, { path }),
} as const;

/**
 * Before the first request: every report path must be writable (a run that cannot write its
 * report is found at start, not after 1,500 requests).
 */
export function assertReportsWritable(reports: Config["reports"]): void {
  for (const { format, path } of reports)
    asWriteError("E_REPORT_WRITE", `cannot write the ${format} report to ${path}`, () =>
      assertWritableFile(path),
    );
}

/** Before the first request: the --har file must be writable (its folders are made, as a report's). */
export function assertHarWritable(path: string): void {
  asWriteError("E_REPORT_WRITE", `cannot write the HAR file to ${path} (--har)`, () =>
    assertWritableFile(path),
  );
}

export function writeReports(report: VerifyReport, reports: Config["reports"]): void {
  for (const { format, path } of reports)
    asWriteError("E_REPORT_WRITE", `cannot write the ${format} report to ${path}`, () => {
      makeDirs(dirname(path));
      writeFileSync(path, RENDERERS[format](report, path));
    });
}

/** The whole command: argv -> exit code. Errors become one line on stderr and exit 2. */
export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliIo,
): Promise<ExitCode> {
  const term = io.terminal ?? {};
  const stderrPaint = paintFor(term.stderrIsTTY === true, env);
  const live = new LiveProgress({
    write: io.stderr,
    isTTY: term.stderrIsTTY === true,
    paint: stderrPaint,
    ...(term.columns ? { columns: term.columns } : {}),
    ...(term.now ? { now: term.now } : {}),
  });
  // Keeps the elapsed time and ETA moving while no case finishes; never keeps the process alive.
  const ticker = term.stderrIsTTY ? setInterval(() => live.tick(), 1000).unref() : undefined;
  try {
    const parsed = parseConfig(argv, env, io.cwd);
    if (parsed.kind === "help") {
      io.stdout(helpText());
      return EXIT.passed;
    }
    if (parsed.kind === "version") {
      io.stdout(`idp-verify ${VERSION}\n`);
      return EXIT.passed;
    }
    const { config } = parsed;
    assertReportsWritable(config.reports);
    if (config.replayDir) assertReplayDirWritable(config.replayDir);
    if (config.harPath) assertHarWritable(config.harPath);
    const report = await verify(config, {
      progress: (line) => live.line(line),
      onResult: (r) => {
        live.checkDone(r.id, r.runs.asked);
        live.line(progressLine(r, stderrPaint));
      },
      onPlan: (total) => live.plan(total),
      onCaseDone: (id) => live.caseDone(id),
    });
    live.stop();
    const replays = writeReplays(report, config.profile);
    writeReports(report, config.reports);
    io.stdout(renderConsole(report, paintFor(term.stdoutIsTTY === true, env)));
    for (const { format, path } of config.reports)
      io.stderr(`${REPORT_NAMES[format]} report written to ${path}\n`);
    if (config.replayDir)
      io.stderr(
        `replay files: ${replays.length} in ${config.replayDir} (run them: npx vitest run --root ${config.replayDir})\n`,
      );
    return report.exitCode;
  } catch (e) {
    live.stop();
    io.stderr(`${describeError(e)}\n`);
    if (e instanceof VerifyError && e.code === "E_CONFIG")
      io.stderr("Run idp-verify --help for usage.\n");
    return EXIT.couldNotVerify;
  } finally {
    clearInterval(ticker);
  }
}
