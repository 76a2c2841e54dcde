import type { z } from "zod";
import { ClusteringRules, CreateSchemaRequest, ErrorBody, UserPublishRequest } from "./shapes.ts";

/** The three operations the spec details in full. */
export const DETAILED_OPERATION_IDS = [
  "createSchema",
  "pushToUserDevices",
  "updateClusteringRules",
] as const;
/** `createSchema`, `pushToUserDevices` or `updateClusteringRules`. */
export type DetailedOperationId = (typeof DETAILED_OPERATION_IDS)[number];

/** The name of a detailed operation's request shape. */
export type RequestShapeName = "CreateSchemaRequest" | "UserPublishRequest" | "ClusteringRules";
/** An HTTP method of the catalogue. */
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

/** One of the three detailed operations: method, path, path parameters, wrapper key, request shape and documented statuses. */
export interface DetailedOperation {
  readonly id: DetailedOperationId;
  readonly summary: string;
  readonly method: HttpMethod;
  /** Relative to the base address (which ends in /v1); path parameters in `{braces}`. */
  readonly path: string;
  readonly pathParameters: readonly string[];
  readonly requestShape: RequestShapeName;
  readonly request: z.ZodType;
  /** The single top-level key of the request body. */
  readonly wrapperKey: "schema" | "data" | "rules";
  readonly successStatus: 200 | 201;
  /** The spec says every success answer has no body (R8). */
  readonly successBody: "none";
  /** Every status the operation documents (R3), success first. */
  readonly documentedStatuses: readonly number[];
  readonly errorBody: typeof ErrorBody;
  readonly deprecated: false | { readonly since: string };
}

/**
 * The three detailed operations by id (method, path, statuses, request shape), typed as written.
 * Each operation's statuses and request shape are its own literal types, so the consumer builders
 * derive their cells and bodies from here instead of restating them.
 */
export const detailedOperations = {
  createSchema: {
    id: "createSchema",
    summary: "Create a new schema",
    method: "POST",
    path: "/marketing/datastore/schemas",
    pathParameters: [],
    requestShape: "CreateSchemaRequest",
    request: CreateSchemaRequest,
    wrapperKey: "schema",
    successStatus: 201,
    successBody: "none",
    documentedStatuses: [201, 400, 401, 422, 500],
    errorBody: ErrorBody,
    deprecated: false,
  },
  pushToUserDevices: {
    id: "pushToUserDevices",
    summary: "Send push notification to all user devices",
    method: "POST",
    path: "/marketing/push_notifications/login/users/{id}/publish",
    pathParameters: ["id"],
    requestShape: "UserPublishRequest",
    request: UserPublishRequest,
    wrapperKey: "data",
    successStatus: 200,
    successBody: "none",
    documentedStatuses: [200, 400, 401, 403, 404, 500],
    errorBody: ErrorBody,
    deprecated: false,
  },
  updateClusteringRules: {
    id: "updateClusteringRules",
    summary: "Updates login app clustering rules (deprecated)",
    method: "PUT",
    path: "/marketing/login/apps/clustering/rules",
    pathParameters: [],
    requestShape: "ClusteringRules",
    request: ClusteringRules,
    wrapperKey: "rules",
    successStatus: 200,
    successBody: "none",
    documentedStatuses: [200, 401, 422, 500],
    errorBody: ErrorBody,
    deprecated: { since: "2024-12-31" },
  },
} as const satisfies {
  readonly [K in DetailedOperationId]: DetailedOperation & { readonly id: K };
};

/** The statuses operation `Op` documents (R3), success first, as literal types. */
export type DocumentedStatus<Op extends DetailedOperationId> =
  (typeof detailedOperations)[Op]["documentedStatuses"][number];

/** The request body of operation `Op`: what its zod request shape accepts. */
export type RequestBody<Op extends DetailedOperationId> = z.output<
  (typeof detailedOperations)[Op]["request"]
>;

/** Fills `{name}` path parameters (URI-encoded) into an operation's relative path. */
export function operationPath(
  operation: DetailedOperation,
  params: Readonly<Record<string, string>> = {},
): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined)
      throw new Error(`operationPath: missing path parameter "${name}" for ${operation.id}`);
    return encodeURIComponent(value);
  });
}
