import {
  AUTHENTICATION_FAILED,
  type ContractProfile,
  classifyJsonBody,
  type DetailedOperationId,
  type DocumentedStatus,
  defaultProfile,
  detailedOperations,
  ErrorBody,
  findBodyProblem,
  operationPath,
  PACT_PLACEHOLDER_AUTHORIZATION,
  PACT_WRONG_AUTHORIZATION,
  PROVIDER_STATES,
  type ProviderStateName,
  requestShapeFor,
} from "@idp/contracts";
import { contractRules, type PathRule } from "./contract-rules.ts";
import { INVALID_EXAMPLES, type RequestBodies, VALID_EXAMPLES } from "./default-examples.ts";
import { IdpInteractionError } from "./errors.ts";
import { claimInteraction } from "./interaction-keys.ts";
import { pactUnsafeReason } from "./pact-safe.ts";

/**
 * A status with a builder for operation `Op`: each one the catalogue documents for it but 500.
 * No request of a consumer calls for a server error, so no pact can promise one.
 */
export type IdpCellStatus<Op extends DetailedOperationId> = Exclude<DocumentedStatus<Op>, 500>;

const clientCells = <Op extends DetailedOperationId>(op: Op): readonly IdpCellStatus<Op>[] =>
  detailedOperations[op].documentedStatuses.filter(
    (s: DocumentedStatus<Op>): s is IdpCellStatus<Op> => s !== 500,
  );

/** The documented client cells of the three operations: one builder each (12 in all). */
export const IDP_CELLS: { readonly [O in DetailedOperationId]: readonly IdpCellStatus<O>[] } = {
  createSchema: clientCells("createSchema"),
  pushToUserDevices: clientCells("pushToUserDevices"),
  updateClusteringRules: clientCells("updateClusteringRules"),
};

/** The example error body of a 4xx answer (its values are examples: matched by type). */
export interface ErrorBodyExample {
  readonly error: string;
  readonly error_description: string;
  readonly errors: readonly string[];
}

type InvalidStatus = 400 | 422;

/** What a consumer may set on one interaction; everything else follows from the cell. */
export type IdpInteractionOptions<Op extends DetailedOperationId, S extends IdpCellStatus<Op>> = {
  /**
   * The request body the consumer's code sends. Success, 401, 403 and 404 cells take a body the
   * contract calls valid (refused otherwise); 400 and 422 cells take one the profile maps to that
   * status. @defaultValue a built-in example (EXAMPLE_* of this package)
   */
  readonly body?: S extends InvalidStatus ? unknown : RequestBodies[Op];
  /** @defaultValue `"<operation in words>: <status> for <the cell's case>"` */
  readonly description?: string;
  /** A comment recorded with the interaction. @defaultValue for 400/422: what the body breaks */
  readonly comment?: string;
  /** The example error body of a 4xx answer. @defaultValue one per cell */
  readonly errorBody?: ErrorBodyExample;
  /** Extra request headers (not Authorization or Content-Type: the builder sets those). */
  readonly headers?: Readonly<Record<string, string>>;
  /** How bodies are read (which status a malformed body gets). @defaultValue defaultProfile */
  readonly profile?: ContractProfile;
} & (Op extends "pushToUserDevices"
  ? {
      /** The login user id in the path (and in the provider state). @defaultValue per cell */
      readonly id?: string;
    }
  : unknown);

// The parts of pact-js's V4 DSL the builders use, structurally: a PactV4 fits them, and this
// package's types never load pact-js's own .d.ts (which needs @types/express), so a project that
// only uses IdpClient needs no Pact at all.

/** pact-js's mock server, as `executeTest` hands it to the test. */
export interface MockServerLike {
  readonly url: string;
  readonly port: number;
  readonly id: string;
}
/** pact-js's request and response builders (`withRequest(..., (b) => ...)`). */
export interface BodyBuilderLike {
  headers(headers: Record<string, unknown>): BodyBuilderLike;
  jsonBody(body: unknown): BodyBuilderLike;
  matchingRules(rules: { body: PathRule[] }): BodyBuilderLike;
}
/** What `idpInteraction` returns: pact-js's interaction, ready for `.executeTest()`. */
export interface V4InteractionWithResponse {
  executeTest<T>(testFn: (mockServer: MockServerLike) => Promise<T>): Promise<T | undefined>;
}
interface V4InteractionWithRequest {
  willRespondWith(
    status: number,
    builder?: (b: BodyBuilderLike) => void,
  ): V4InteractionWithResponse;
}
interface V4UnconfiguredInteraction {
  given(state: string, parameters?: Record<string, string>): V4UnconfiguredInteraction;
  uponReceiving(description: string): V4UnconfiguredInteraction;
  comment(comment: string): V4UnconfiguredInteraction;
  withRequest(
    method: string,
    path: string,
    builder?: (b: BodyBuilderLike) => void,
  ): V4InteractionWithRequest;
}
/** Anything with pact-js's `addInteraction()`: a `PactV4`. */
export interface PactV4Like {
  addInteraction(): V4UnconfiguredInteraction;
}

interface Cell {
  readonly words: string;
  readonly state?: ProviderStateName;
  readonly id?: string;
  readonly errorBody?: ErrorBodyExample;
}

const OPERATION_WORDS: { readonly [O in DetailedOperationId]: string } = {
  createSchema: "create schema",
  pushToUserDevices: "push to user devices",
  updateClusteringRules: "update clustering rules",
};

const WRONG_CREDENTIALS: Cell = {
  words: "wrong credentials",
  errorBody: {
    error: AUTHENTICATION_FAILED,
    error_description: "The credentials are not valid",
    errors: ["invalid credentials"],
  },
};
const malformed = (words: string, firstError: string, error = "bad_request"): Cell => ({
  words,
  errorBody: {
    error,
    error_description: error === "bad_request" ? "The body is malformed" : "A parameter is invalid",
    errors: [firstError],
  },
});

// The state of each cell comes from conformance.md §4; a push cell's default id is the one its
// state creates (or guarantees absent).
const CELLS: { readonly [O in DetailedOperationId]: Readonly<Record<number, Cell>> } = {
  createSchema: {
    201: { words: "a valid schema", state: PROVIDER_STATES.noSchemaWithName },
    400: malformed("a malformed body", "schema is not an object"),
    401: WRONG_CREDENTIALS,
    422: malformed("a schema with a field of the wrong type", "schema.name", "parameter_error"),
  },
  pushToUserDevices: {
    200: {
      words: "a valid notification to a login user",
      state: PROVIDER_STATES.loginUserExists,
      id: "pact-login-user",
    },
    400: { ...malformed("a malformed notification", "data.message"), id: "pact-login-user" },
    401: { ...WRONG_CREDENTIALS, id: "pact-login-user" },
    403: {
      words: "a login user of another login app",
      state: PROVIDER_STATES.loginUserOfAnotherAppExists,
      id: "pact-other-app-user",
      errorBody: {
        error: "forbidden",
        error_description: "The user belongs to another login app",
        errors: ["id"],
      },
    },
    404: {
      words: "an unknown login user",
      state: PROVIDER_STATES.noLoginUserExists,
      id: "pact-unknown-user",
      errorBody: {
        error: "record_not_found",
        error_description: "Record not found",
        errors: ["id"],
      },
    },
  },
  updateClusteringRules: {
    200: { words: "valid rules" },
    401: WRONG_CREDENTIALS,
    422: malformed("malformed rules", "rules", "parameter_error"),
  },
};

/** Any `Basic <base64>`; the recorded example is the documented placeholder credential. */
const PLACEHOLDER_AUTHORIZATION_MATCHER = {
  "pact:matcher:type": "regex",
  regex: "^Basic [A-Za-z0-9+/]+={0,2}$",
  value: PACT_PLACEHOLDER_AUTHORIZATION,
};
/**
 * `application/json` as RFC 9110 §8.3.1 compares it: in any case (`(?i)`, read by Pact's Rust
 * regex), with any parameters (`Application/JSON;Charset=UTF-8` is the same media type).
 */
const JSON_CONTENT_TYPE_MATCHER = {
  "pact:matcher:type": "regex",
  regex: "(?i)^application/json[ \\t]*(;.*)?$",
  value: "application/json",
};
const OWNED_HEADERS = new Set(["authorization", "content-type"]);

// The error body's rules come from the contract's ErrorBody; a 401's `error` is exact (R1).
const ERROR_BODY_RULES = contractRules(ErrorBody, { root: false });
const AUTH_ERROR_BODY_RULES = contractRules(ErrorBody, { root: false, exact: ["$.error"] });
/** Rules of a body that breaks the contract on purpose: its shape only, by type. */
const INVALID_BODY_RULES: PathRule[] = [{ path: "$", rules: [{ "pact:matcher:type": "type" }] }];

const refuse = (where: string, why: string): never => {
  throw new IdpInteractionError(`${where}: ${why}`);
};

/**
 * Adds one documented cell of the IDP to a pact-js `PactV4` and returns it ready for
 * `.executeTest()`: method and path, the placeholder credential (or the wrong one of a 401 cell),
 * the provider state and its params (conformance.md §4), the request body with matching rules
 * derived from the zod contract (an integer field matches integers only), and the answer: the
 * status, and for a 4xx the error body with its matchers.
 *
 * Refused at once, with one line naming the field and the value (IdpInteractionError): a success,
 * 401, 403 or 404 example the contract does not call valid; a 400/422 example the profile does not
 * map to that status; an example Pact cannot carry unchanged; a header the builder owns.
 */
export function idpInteraction<Op extends DetailedOperationId, S extends IdpCellStatus<Op>>(
  pact: PactV4Like,
  operation: Op,
  status: S,
  options: IdpInteractionOptions<Op, S> = {} as IdpInteractionOptions<Op, S>,
): V4InteractionWithResponse {
  const cell = CELLS[operation][status];
  const where = `${operation} ${status} interaction`;
  if (!cell)
    return refuse(
      where,
      `not a documented client cell; expected one of ${IDP_CELLS[operation].join(", ")}`,
    );
  const profile = options.profile ?? defaultProfile;
  const invalidCell = status === 400 || status === 422;
  const body: unknown =
    options.body ??
    (invalidCell
      ? (INVALID_EXAMPLES[operation] as Record<number, unknown>)[status]
      : VALID_EXAMPLES[operation]);
  const unsafe = pactUnsafeReason(body);
  if (unsafe) refuse(where, `the example body is not pact-safe: ${unsafe}`);

  let requestRules: PathRule[];
  let comment = options.comment;
  if (invalidCell) {
    const verdict = classifyJsonBody(operation, JSON.parse(JSON.stringify(body)), profile);
    if (verdict.outcome !== "invalid" || verdict.status !== status) {
      const f = findBodyProblem(operation, body, { profile });
      const at = f
        ? ` (at ${f.path}: received ${f.received}; the contract expects ${f.expected})`
        : "";
      refuse(
        where,
        `received an example body ${verdict.outcome === "valid" ? "a conforming provider must accept" : verdict.outcome === "invalid" ? `a conforming provider answers ${verdict.status}${at}` : `the spec leaves open: a provider may accept it${at}`}; expected one the profile ${profile.name} maps to ${status}`,
      );
    }
    comment ??=
      verdict.outcome === "invalid" ? `example body: ${verdict.violation.message}` : undefined;
    requestRules = INVALID_BODY_RULES;
  } else {
    const finding = findBodyProblem(operation, body, { profile });
    // R1: credentials are judged first, so a 401 cell may send any body; the others must be valid.
    if (finding && status !== 401)
      refuse(
        where,
        `the example body is not valid at ${finding.path}: received ${finding.received}; expected ${finding.expected} (rule: ${finding.rule}; source: ${finding.source.source}, ${finding.source.ref})`,
      );
    requestRules = finding
      ? INVALID_BODY_RULES
      : contractRules(requestShapeFor(profile, operation));
  }

  const headers: Record<string, unknown> = {
    Authorization: status === 401 ? PACT_WRONG_AUTHORIZATION : PLACEHOLDER_AUTHORIZATION_MATCHER,
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (OWNED_HEADERS.has(name.toLowerCase()))
      refuse(
        where,
        `received header ${name}, which the builder sets itself (pact-js would record both); expected other headers only`,
      );
    headers[name] = value;
  }

  const errorBody = options.errorBody ?? (cell.errorBody as ErrorBodyExample);
  if (status === 401 && errorBody.error !== AUTHENTICATION_FAILED)
    refuse(
      where,
      `received errorBody.error ${JSON.stringify(errorBody.error)}; expected "${AUTHENTICATION_FAILED}" (R1: a 401's error)`,
    );
  const id = (options as { id?: string }).id ?? cell.id;
  const op = detailedOperations[operation];
  const path = operationPath(op, id === undefined ? {} : { id });
  const schemaName = (body as { schema?: { name?: unknown } } | null)?.schema?.name;
  const params = operation === "createSchema" ? { name: String(schemaName) } : { id: id as string };
  const description =
    options.description ?? `${OPERATION_WORDS[operation]}: ${status} for ${cell.words}`;
  claimInteraction(pact, where, {
    description,
    state: cell.state,
    what: `${operation} ${status}${id !== undefined ? `, id ${JSON.stringify(id)}` : typeof schemaName === "string" ? `, schema.name ${JSON.stringify(schemaName)}` : ""}`,
    content: JSON.stringify([
      path,
      body,
      options.headers,
      options.errorBody,
      comment,
      cell.state && params,
    ]),
  });
  let interaction = pact.addInteraction();
  if (cell.state) interaction = interaction.given(cell.state, params);
  interaction = interaction.uponReceiving(description);
  if (comment) interaction = interaction.comment(comment);
  const withRequest = interaction.withRequest(op.method, path, (b) => {
    b.headers(headers).jsonBody(body).matchingRules({ body: requestRules });
  });
  if (status < 400) return withRequest.willRespondWith(status);
  return withRequest.willRespondWith(status, (b) => {
    b.headers({ "Content-Type": JSON_CONTENT_TYPE_MATCHER } as never)
      .jsonBody(errorBody)
      .matchingRules({
        body: (status === 401 ? AUTH_ERROR_BODY_RULES : ERROR_BODY_RULES) as never,
      });
  });
}
