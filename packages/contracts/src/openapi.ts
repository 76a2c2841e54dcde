import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from "zod-openapi";
import { catalogue, entriesWithMethodAndPath } from "./catalogue.ts";
import { AUTHENTICATION_FAILED } from "./errors.ts";
import { DETAILED_OPERATION_IDS, detailedOperations } from "./operations.ts";
import { shapeRegistry } from "./shape-registry.ts";
import { ErrorBody } from "./shapes.ts";

const STATUS_LABELS: Readonly<Record<number, string>> = {
  200: "OK, no body",
  201: "Created, no body",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Record Not Found",
  422: "Parameter Error",
  500: "Server Error",
};

// The spec displays `error: authentication_failed` on its 401 example body; mocks such as Prism
// answer with this example, so a mock's 401 is a conforming one (R1). The texts are illustrative.
const AUTHENTICATION_FAILED_EXAMPLE = {
  error: AUTHENTICATION_FAILED,
  error_description:
    "The credentials are not acceptable (illustrative text: not shown in the spec).",
  errors: ["authentication failed"],
};

const errorResponse = (status: number) => ({
  description: `${STATUS_LABELS[status] ?? String(status)}. The condition that triggers it: not shown in the spec; our pinned reading is in conformance.md.`,
  content: {
    "application/json": {
      schema: ErrorBody,
      ...(status === 401 ? { example: AUTHENTICATION_FAILED_EXAMPLE } : {}),
    },
  },
});

function pathParams(path: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  if (names.length === 0) return undefined;
  return {
    path: z.object(
      Object.fromEntries(
        names.map((n) => [n, z.string().meta({ description: `${n}; type and format: not shown` })]),
      ),
    ),
  };
}

/**
 * The OpenAPI 3.1 document: the three detailed operations in full, every other catalogued operation
 * whose method and path the spec shows (statuses not shown → a `default` response), Basic security,
 * every named shape as a component (opaque ones as `{}` with a note), and the whole catalogue
 * (including operations without method or path) under `x-idp-catalogue`.
 */
export function createOpenApiDocument(): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  const add = (path: string, method: string, op: ZodOpenApiOperationObject) => {
    paths[path] = { ...paths[path], [method.toLowerCase()]: op };
  };
  for (const id of DETAILED_OPERATION_IDS) {
    const op = detailedOperations[id];
    const params = pathParams(op.path);
    add(op.path, op.method, {
      operationId: op.id,
      summary: op.summary,
      ...(op.deprecated
        ? { deprecated: true, description: `Deprecated since ${op.deprecated.since}.` }
        : {}),
      ...(params ? { requestParams: params } : {}),
      requestBody: {
        required: true,
        content: { "application/json": { schema: op.request } },
      },
      responses: Object.fromEntries(
        op.documentedStatuses.map((status) => [
          String(status),
          status < 400
            ? { description: STATUS_LABELS[status] ?? "success, no body" }
            : errorResponse(status),
        ]),
      ),
    });
  }
  for (const entry of entriesWithMethodAndPath()) {
    if (entry.detailed) continue;
    const params = pathParams(entry.path);
    add(entry.path, entry.method, {
      operationId: entry.id.replace(/[^A-Za-z0-9]+(.)/g, (_, c: string) => c.toUpperCase()),
      summary: entry.name,
      description: "Request and response shapes and statuses: not shown in the spec.",
      ...(entry.deprecated ? { deprecated: true } : {}),
      ...(params ? { requestParams: params } : {}),
      responses: { default: { description: "not shown in the spec" } },
    });
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Identity, Datastore and Push Notification Service",
      version: "v1",
      description:
        "Generated from @idp/contracts (default profile). Only what docs/spec/service-interface.md states; " +
        "everything it leaves out is marked 'not shown'.",
    },
    servers: [
      {
        url: "{base_url}",
        description: "The base address; it ends with /v1.",
        variables: { base_url: { default: "http://127.0.0.1:8080/v1" } },
      },
    ],
    security: [{ basic: [] }],
    paths,
    components: {
      securitySchemes: {
        basic: {
          type: "http",
          scheme: "basic",
          description: "Basic username:password. An alternative scheme exists; which: not shown.",
        },
      },
      schemas: {
        ErrorBody,
        ...Object.fromEntries([...shapeRegistry.values()].map((s) => [s.name, s.schema])),
      },
    },
    "x-idp-catalogue": catalogue.map((e) => ({
      id: e.id,
      area: e.area,
      name: e.name,
      kind: e.kind,
      method: e.method,
      path: e.path,
      deprecated: e.deprecated !== false,
      detailed: e.detailed,
    })),
  });
}

/** The document as the bytes we commit to docs/openapi.json. */
export function openApiJson(): string {
  return `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`;
}
