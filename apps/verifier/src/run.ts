import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
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
import { verify } from "./verify.ts";
import { VERSION } from "./version.ts";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

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
  for (const { format, path } of reports) {
    try {
      mkdirSync(dirname(path), { recursive: true });
      if (existsSync(path) && statSync(path).isDirectory()) throw new Error("it is a directory");
      const existed = existsSync(path);
      closeSync(openSync(path, "a"));
      if (!existed) unlinkSync(path);
    } catch (e) {
      throw new VerifyError(
        "E_REPORT_WRITE",
        `cannot write the ${format} report to ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        { cause: e },
      );
    }
  }
}

export function writeReports(report: VerifyReport, reports: Config["reports"]): void {
  for (const { format, path } of reports) {
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, RENDERERS[format](report, path));
    } catch (e) {
      throw new VerifyError(
        "E_REPORT_WRITE",
        `cannot write the ${format} report to ${path}: ${(e as Error).message}`,
        { cause: e },
      );
    }
  }
}

/** The whole command: argv -> exit code. Errors become one line on stderr and exit 2. */
export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliIo,
): Promise<ExitCode> {
  try {
    const parsed = parseConfig(argv, env);
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
    const report = await verify(config, {
      progress: (line) => io.stderr(`${line}\n`),
      onResult: (r) => io.stderr(`${progressLine(r)}\n`),
    });
    const replays = writeReplays(report, config.profile);
    writeReports(report, config.reports);
    io.stdout(renderConsole(report));
    for (const { format, path } of config.reports) io.stderr(`${format} report: ${path}\n`);
    if (config.replayDir)
      io.stderr(
        `replay files: ${replays.length} in ${config.replayDir} (run them: npx vitest run --root ${config.replayDir})\n`,
      );
    return report.exitCode;
  } catch (e) {
    io.stderr(`${describeError(e)}\n`);
    if (e instanceof VerifyError && e.code === "E_CONFIG")
      io.stderr("Run idp-verify --help for usage.\n");
    return EXIT.couldNotVerify;
  }
}
