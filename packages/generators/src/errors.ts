/** Stable codes of every error this package throws. */
export type GeneratorErrorCode =
  /** The zod schema uses a construct the derivation cannot generate without filtering. */
  | "E_UNSUPPORTED_SCHEMA"
  /** An argument (constraint, profile, CLI flag) is out of its domain. */
  | "E_USAGE";

/** The one error class of `@idp/generators`; `code` is stable, the message says expected vs received. */
export class GeneratorError extends Error {
  override name = "GeneratorError";
  readonly code: GeneratorErrorCode;
  constructor(code: GeneratorErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
