/** Why a verification could not be carried out (exit 2), as opposed to a provider breaking a rule. */
export type VerifyErrorCode =
  | "E_CONFIG"
  | "E_PROFILE"
  | "E_PACT_UNREADABLE"
  | "E_NO_PACTS"
  | "E_PROVIDER_UNREACHABLE"
  | "E_PROVIDER_NOT_FOUND"
  | "E_THROTTLED"
  | "E_STATE_HANDLER"
  | "E_CHECK_UNAVAILABLE"
  | "E_EMBEDDED_PROVIDER"
  | "E_REPORT_WRITE"
  | "E_PACT_VERIFIER"
  | "E_LEARN";

/** A verification that cannot be carried out (exit 2): a stable code and one line. */
export class VerifyError extends Error {
  override name = "VerifyError";
  readonly code: VerifyErrorCode;
  constructor(code: VerifyErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** Exit statuses of `idp-verify` (conformance.md §5). */
export const EXIT = { passed: 0, violated: 1, couldNotVerify: 2 } as const;
/** 0, 1 or 2 (conformance.md §5). */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The first line of what was thrown (its message, or itself as text): never a stack trace. */
export function firstLineOf(error: unknown): string {
  return String((error as Error | undefined)?.message ?? error).split("\n")[0] ?? "";
}

/** One line for a user: the code and message, never a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof VerifyError) return `idp-verify: ${error.code}: ${firstLineOf(error)}`;
  return `idp-verify: E_INTERNAL: ${firstLineOf(error)}`;
}
