export { FLAGS, type Flags, GROUP_TITLES } from "./config/flags.ts";
export type { ReportFormat } from "./config/output.ts";
export { type Config, parseConfig } from "./config/parse.ts";
export { EXIT, type ExitCode, VerifyError, type VerifyErrorCode } from "./errors.ts";
export { helpText } from "./help.ts";
export { MAX_BODY_BYTES } from "./http/send.ts";
export { parseFfiResults } from "./pact/ffi-results.ts";
export { writeReplays } from "./replay/files.ts";
export { cellsOf, missingClientErrorCells, REQUIRED_CLIENT_ERRORS } from "./report/cells.ts";
export { renderConsole } from "./report/console.ts";
export { renderHtml } from "./report/html.ts";
export { renderJunit } from "./report/junit.ts";
export type {
  Cell,
  CheckResult,
  CheckStatus,
  Failure,
  LeftOut,
  PactMismatch,
  Phase,
  VerifyReport,
  Warning,
} from "./results.ts";
export { AUTH_VARIANTS, type AuthVariant, CONFORMANCE_CHECKS } from "./rules/index.ts";
export type { CheckInfo } from "./rules/types.ts";
export { type CliIo, runCli } from "./run.ts";
export { COLOURS, colourWanted, type Paint, PLAIN } from "./terminal/index.ts";
export { type VerifyIo, verify } from "./verify.ts";
export { VERSION } from "./version.ts";
