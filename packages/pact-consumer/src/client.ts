import {
  basicAuthorization,
  type ClusteringRules,
  type CreateSchemaRequest,
  type DetailedOperation,
  type DetailedOperationId,
  detailedOperations,
  ErrorBody,
  operationPath,
  type UserPublishRequest,
} from "@idp/contracts";
import { IdpApiError, IdpProtocolError } from "./errors.ts";

/** Options of `IdpClient`: base URL (ending in /v1), Basic credentials, fetch, deprecation hook. */
export interface IdpClientOptions {
  /**
   * The service's base address. The spec's base address ends in `/v1`; the operation paths
   * (`/marketing/...`) are appended to it as they are.
   */
  readonly baseUrl: string;
  /**
   * Basic credentials. Give both or neither: without them no Authorization header is sent (the
   * service answers 401, which the pact interactions record on purpose).
   */
  readonly username?: string;
  readonly password?: string;
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof fetch;
  /**
   * Receives the deprecation notice of a deprecated operation, once per client and operation.
   * Defaults to `process.emitWarning(..., "DeprecationWarning")`, once per process.
   */
  readonly onDeprecation?: (message: string) => void;
}

const MAX_ECHO = 300;
const emittedProcessWarnings = new Set<string>();

/**
 * A typed client for the three operations the spec details. Success resolves to `undefined` (R8:
 * no success body); a documented error status rejects with {@link IdpApiError}; anything the
 * interface does not document rejects with {@link IdpProtocolError}.
 */
export class IdpClient {
  readonly #baseUrl: string;
  readonly #authorization: string | undefined;
  readonly #secrets: readonly string[];
  readonly #fetch: typeof fetch;
  readonly #onDeprecation: (message: string) => void;
  readonly #warned = new Set<DetailedOperationId>();

  constructor(options: IdpClientOptions) {
    const { username, password } = options;
    if ((username === undefined) !== (password === undefined)) {
      throw new TypeError("IdpClient: give both username and password, or neither");
    }
    this.#baseUrl = normaliseBaseUrl(options.baseUrl);
    if (username !== undefined && password !== undefined) {
      this.#authorization = basicAuthorization(username, password);
      this.#secrets = [password, this.#authorization.slice("Basic ".length)].filter(
        (s) => s.length > 0,
      );
    } else {
      this.#authorization = undefined;
      this.#secrets = [];
    }
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#onDeprecation = options.onDeprecation ?? emitProcessDeprecationWarning;
  }

  /** POST /marketing/datastore/schemas; resolves on 201. */
  async createSchema(body: CreateSchemaRequest): Promise<void> {
    await this.#call(detailedOperations.createSchema, {}, body);
  }

  /** POST /marketing/push_notifications/login/users/{id}/publish; resolves on 200. */
  async pushToUserDevices(id: string, body: UserPublishRequest): Promise<void> {
    await this.#call(detailedOperations.pushToUserDevices, { id }, body);
  }

  /**
   * PUT /marketing/login/apps/clustering/rules; resolves on 200.
   * @deprecated The operation is deprecated since 31 December 2024 (it remains available).
   */
  async updateClusteringRules(body: ClusteringRules): Promise<void> {
    await this.#call(detailedOperations.updateClusteringRules, {}, body);
  }

  async #call(
    operation: DetailedOperation,
    params: Readonly<Record<string, string>>,
    body: unknown,
  ): Promise<void> {
    if (operation.deprecated && !this.#warned.has(operation.id)) {
      this.#warned.add(operation.id);
      this.#onDeprecation(deprecationMessage(operation, operation.deprecated.since));
    }
    const path = operationPath(operation, params);
    const where = `${operation.summary} (${operation.method} ${operation.path})`;
    const headers: Record<string, string> = {
      accept: "application/json",
      "content-type": "application/json",
    };
    if (this.#authorization !== undefined) headers.authorization = this.#authorization;

    let response: Response;
    try {
      response = await this.#fetch(this.#baseUrl + path, {
        method: operation.method,
        headers,
        body: JSON.stringify(body),
      });
    } catch (cause) {
      throw new IdpProtocolError(
        "E_NETWORK",
        operation.id,
        undefined,
        `${where}: no answer from the service: ${this.#redact(String((cause as Error)?.message ?? cause))}`,
        { cause },
      );
    }

    const text = await response.text();
    const { status } = response;
    if (status === operation.successStatus) return;
    if (!operation.documentedStatuses.includes(status) || status < 400) {
      throw new IdpProtocolError(
        "E_UNDOCUMENTED_STATUS",
        operation.id,
        status,
        `${where} answered an undocumented status.\n` +
          `Expected: one of ${operation.documentedStatuses.join(", ")}\n` +
          `Received: ${status} ${this.#echo(text)}`,
      );
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new IdpProtocolError(
        "E_INVALID_ERROR_BODY",
        operation.id,
        status,
        `${where} answered ${status} with a body that is not JSON.\n` +
          "Expected: a JSON error body {error, error_description, errors}\n" +
          `Received: content-type ${response.headers.get("content-type") ?? "(none)"}, ${this.#echo(text)}`,
        { cause },
      );
    }
    const parsed = ErrorBody.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; ");
      throw new IdpProtocolError(
        "E_INVALID_ERROR_BODY",
        operation.id,
        status,
        `${where} answered ${status} with a body that is not the error body (${issues}).\n` +
          "Expected: {error: string, error_description: string, errors: string[]}\n" +
          `Received: ${this.#echo(text)}`,
        { cause: parsed.error },
      );
    }
    const error = parsed.data;
    throw new IdpApiError(
      operation.id,
      status,
      error,
      this.#redact(`${where} answered ${status} ${error.error}: ${error.error_description}`),
    );
  }

  /** A short, credential-free rendering of a received body. */
  #echo(text: string): string {
    if (text.length === 0) return "(empty body)";
    const short =
      text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}… (${text.length} chars)` : text;
    return this.#redact(short);
  }

  /** Services sometimes echo what they received; never let our credential into a message. */
  #redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join("[redacted]");
    return out;
  }
}

function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (cause) {
    throw new TypeError(`IdpClient: baseUrl is not an absolute URL (received "${baseUrl}")`, {
      cause,
    });
  }
  if (url.username !== "" || url.password !== "") {
    throw new TypeError(
      "IdpClient: baseUrl must not contain credentials; pass username and password instead",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`IdpClient: baseUrl must be http(s) (received "${url.protocol}")`);
  }
  if (url.search !== "" || url.hash !== "") {
    throw new TypeError("IdpClient: baseUrl must not have a query or a fragment");
  }
  return url.href.replace(/\/+$/, "");
}

function deprecationMessage(operation: DetailedOperation, since: string): string {
  return (
    `IDP: "${operation.summary}" (${operation.method} ${operation.path}) is deprecated since ` +
    `${since}; it remains available, but plan to stop using it.`
  );
}

function emitProcessDeprecationWarning(message: string): void {
  // One process-wide warning per message (that is, per operation), like node's util.deprecate.
  if (emittedProcessWarnings.has(message)) return;
  emittedProcessWarnings.add(message);
  process.emitWarning(message, { type: "DeprecationWarning", code: "IDP_DEPRECATED_OPERATION" });
}
