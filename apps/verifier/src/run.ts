import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type Config, parseConfig, USAGE } from "./config.ts";
import { describeError, EXIT, type ExitCode, VerifyError } from "./errors.ts";
import { renderConsole } from "./report/console.ts";
import { renderHtml } from "./report/html.ts";
import { renderJunit } from "./report/junit.ts";
import type { VerifyReport } from "./results.ts";
import { verify } from "./verify.ts";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const RENDERERS = {
  json: (r: VerifyReport) => `${JSON.stringify(r, null, 2)}\n`,
  junit: renderJunit,
  html: renderHtml,
} as const;

export function writeReports(
  report: VerifyReport,
  reports: Config["reports"],
  scrub: (s: string) => string,
): void {
  for (const { format, path } of reports) {
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, scrub(RENDERERS[format](report)));
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
  const secrets: string[] = [];
  const scrub = (s: string) => secrets.reduce((t, secret) => t.split(secret).join("<redacted>"), s);
  try {
    const parsed = parseConfig(argv, env);
    if (parsed.help) {
      io.stdout(`${USAGE}\n`);
      return EXIT.passed;
    }
    const { config } = parsed;
    if (config.credentials) {
      secrets.push(
        config.credentials.password,
        Buffer.from(`${config.credentials.username}:${config.credentials.password}`).toString(
          "base64",
        ),
      );
    }
    const report = await verify(config, {
      progress: (line) => io.stderr(`${scrub(line)}\n`),
      onSecret: (s) => secrets.push(s),
    });
    writeReports(report, config.reports, scrub);
    io.stdout(scrub(renderConsole(report)));
    return report.exitCode;
  } catch (e) {
    io.stderr(`${scrub(describeError(e))}\n`);
    if (e instanceof VerifyError && e.code === "E_CONFIG")
      io.stderr("Run idp-verify --help for usage.\n");
    return EXIT.couldNotVerify;
  }
}
