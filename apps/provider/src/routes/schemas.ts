import type { Hono } from "hono";
import { ERROR_CODES, errorResponse } from "../error-body.ts";
import { acceptBody } from "../request-body.ts";
import type { RouteDeps } from "./deps.ts";
import { json, methodNotAllowed, noBody } from "./responses.ts";

export const SCHEMAS_PATH = "/marketing/datastore/schemas";
// `[^/]*` (not Hono's default `[^/]+`) so an empty name still reaches the handler.
export const SCHEMA_PATH = `${SCHEMAS_PATH}/:name{[^/]*}`;

const notFound = (name: string) =>
  errorResponse(404, ERROR_CODES.recordNotFound, `no schema is named "${name}"`);

/**
 * POST /marketing/datastore/schemas is the detailed "Create a new schema". The others are the
 * catalogue's neighbours (GET all, GET one, PUT, DELETE): the spec gives their methods but not their
 * paths, so these paths are ASSUMED, as are their bodies (GET answers `{schema}` / `{schemas}`, PUT
 * takes the create body).
 */
export function registerSchemaRoutes(v1: Hono, { store }: RouteDeps): void {
  v1.post(SCHEMAS_PATH, async (c) => {
    const accepted = await acceptBody("createSchema", c.req.raw);
    if (!accepted.ok) return accepted.response;
    // A second create with the same name replaces the first: duplicates are not invalid under the
    // default profile, so R4 requires 201 for them too.
    store.putSchema(String(accepted.wrapped.name), accepted.wrapped);
    return noBody(201);
  });
  v1.get(SCHEMAS_PATH, () => json(200, { schemas: store.listSchemas().map((s) => s.document) }));
  v1.all(SCHEMAS_PATH, () => methodNotAllowed(["GET", "POST"]));

  v1.get(SCHEMA_PATH, (c) => {
    const name = c.req.param("name");
    const schema = store.getSchema(name);
    return schema === undefined ? notFound(name) : json(200, { schema: schema.document });
  });
  v1.put(SCHEMA_PATH, async (c) => {
    const accepted = await acceptBody("createSchema", c.req.raw);
    if (!accepted.ok) return accepted.response;
    const name = c.req.param("name");
    // The path names the schema; a different `schema.name` in the body does not rename it.
    return store.updateSchema(name, { ...accepted.wrapped, name }) ? noBody(200) : notFound(name);
  });
  v1.delete(SCHEMA_PATH, (c) => {
    const name = c.req.param("name");
    return store.deleteSchema(name) ? noBody(204) : notFound(name);
  });
  v1.all(SCHEMA_PATH, () => methodNotAllowed(["GET", "PUT", "DELETE"]));
}
