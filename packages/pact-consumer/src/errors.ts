import type { DetailedOperationId, ErrorBody } from "@idp/contracts";

// Every error class of @idp/pact-consumer lives here (style P5): a stable `code`, the `cause`, and
// messages that say what was expected and what was received. No message ever carries a credential.

/**
 * The service answered a documented error status with a conforming error body (R2, R3).
 * `error`, `error_description` and `errors` are the body's fields; `body` keeps any extra keys.
 */
export class IdpApiError extends Error {
  override name = "IdpApiError";
  readonly code = "E_API_ERROR" as const;
  readonly operation: DetailedOperationId;
  readonly status: number;
  readonly error: string;
  readonly error_description: string;
  readonly errors: readonly string[];
  readonly body: ErrorBody;

  constructor(operation: DetailedOperationId, status: number, body: ErrorBody, message: string) {
    super(message);
    this.operation = operation;
    this.status = status;
    this.error = body.error;
    this.error_description = body.error_description;
    this.errors = body.errors;
    this.body = body;
  }
}

/** Why an answer was not one the interface documents. */
export type IdpProtocolErrorCode =
  /** A status the operation does not document (R3), including an undocumented 2xx. */
  | "E_UNDOCUMENTED_STATUS"
  /** An error status whose body is not JSON or not the contracts' error body (R2). */
  | "E_INVALID_ERROR_BODY"
  /** The request never got an answer (DNS, refused connection, reset, abort). */
  | "E_NETWORK";

/** The service (or the network) did not answer as the interface documents. */
export class IdpProtocolError extends Error {
  override name = "IdpProtocolError";
  readonly code: IdpProtocolErrorCode;
  readonly operation: DetailedOperationId;
  /** The HTTP status, when there was an answer. */
  readonly status: number | undefined;

  constructor(
    code: IdpProtocolErrorCode,
    operation: DetailedOperationId,
    status: number | undefined,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.code = code;
    this.operation = operation;
    this.status = status;
  }
}

/** Stable codes of `idp-pacts` usage and configuration errors (exit 2). */
export type PactsCliErrorCode =
  /** Missing or contradictory settings (exit 2). */
  | "E_CONFIG"
  /** A git command needed for the version or branch failed (exit 2). */
  | "E_GIT"
  /** The pact-broker binary could not be started (exit 2). */
  | "E_BROKER_CLI"
  /** The broker refused the credentials (401, a bearer token on basic auth, 403) (exit 2). */
  | "E_BROKER_REFUSED"
  /** The environment named does not exist on the broker (exit 2). */
  | "E_ENVIRONMENT"
  /** The broker does not know the pacticipant or the version asked about (exit 2). */
  | "E_UNKNOWN_PACTICIPANT"
  /** The broker could not be reached, or answered what a Pact Broker does not (exit 2). */
  | "E_BROKER_ANSWER";

/** A usage or configuration problem of `idp-pacts`; mapped to exit code 2 in one place. */
export class PactsCliError extends Error {
  override name = "PactsCliError";
  readonly code: PactsCliErrorCode;
  constructor(code: PactsCliErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/**
 * An interaction builder refused what it was given, when the test is written (before any mock
 * server runs): an example the contract does not allow for that status, a body Pact cannot carry
 * unchanged, or a header the builder owns. The message is one line naming the field and the value.
 */
export class IdpInteractionError extends Error {
  override name = "IdpInteractionError";
  readonly code = "E_INTERACTION_REFUSED" as const;
}
