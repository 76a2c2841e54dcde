export {
  AUTH_VARIANTS,
  type AuthVariant,
  type CheckInfo,
  CONFORMANCE_CHECKS,
} from "./check-ids.ts";
export { type Config, parseConfig, type ReportFormat, USAGE } from "./config.ts";
export { EXIT, type ExitCode, VerifyError, type VerifyErrorCode } from "./errors.ts";
export { MAX_BODY_BYTES } from "./http.ts";
export { renderConsole } from "./report/console.ts";
export { renderHtml } from "./report/html.ts";
export { renderJunit } from "./report/junit.ts";
export type { CheckResult, CheckStatus, Failure, VerifyReport, Warning } from "./results.ts";
export { type CliIo, runCli } from "./run.ts";
export { type VerifyIo, verify } from "./verify.ts";
