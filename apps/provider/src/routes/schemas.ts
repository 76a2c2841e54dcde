import type { Hono } from "hono";
import { ERROR_CODES, errorResponse } from "../error-body.ts";
import { acceptBody } from "../request-body.ts";
import type { RouteDeps } from "./deps.ts";
import { jsonStream, jsonText, methodNotAllowed, noBody } from "./responses.ts";

export const SCHEMAS_PATH = "/marketing/datastore/schemas";
// `[^/]*` (not Hono's default `[^/]+`) so an empty name still reaches the handler.
export const SCHEMA_PATH = `${SCHEMAS_PATH}/:name{[^/]*}`;

/** Schemas per page of a listing: at most 16 MiB of documents in memory at a time. */
const LIST_PAGE_SIZE = 16;

const notFound = (name: string) =>
  errorResponse(404, ERROR_CODES.recordNotFound, `no schema is named "${name}"`);

/**
 * POST /marketing/datastore/schemas is the detailed "Create a new schema". The others are the
 * catalogue's neighbours: "Get a specific schema" (GET, 200 `{"schema": ...}`) and "Remove a schema"
 * (DELETE, 200 without a body) as conformance.md §8 pins them; GET all (`{"schemas": [...]}`) and
 * PUT (the create body) are ASSUMED, as the spec gives neither path.
 */
export function registerSchemaRoutes(v1: Hono, { store, bodyTimeoutMs }: RouteDeps): void {
  v1.post(SCHEMAS_PATH, async (c) => {
    const accepted = await acceptBody("createSchema", c.req.raw, { timeoutMs: bodyTimeoutMs });
    if (!accepted.ok) return accepted.response;
    // A second create with the same name replaces the first: duplicates are not invalid under the
    // default profile, so R4 requires 201 for them too.
    store.putSchema(String(accepted.wrapped.name), accepted.wrapped);
    return noBody(201);
  });
  v1.get(SCHEMAS_PATH, () => {
    // `{"schemas":[` + the stored documents, verbatim + `]}`: nothing is parsed or re-serialised,
    // and the listing streams page by page, so no stored value and no number of them can make a
    // read fail (a string is capped at 512 MiB; 600 schemas of 1 MiB would pass that).
    let after: string | undefined;
    let started = false;
    let ended = false;
    return jsonStream(200, () => {
      if (ended) return undefined;
      const page = store.schemaPage(after, LIST_PAGE_SIZE);
      const head = started ? "" : '{"schemas":[';
      const separator = started && page.length > 0 ? "," : "";
      started = true;
      const last = page.at(-1);
      if (last === undefined) {
        ended = true;
        return `${head}]}`;
      }
      after = last.name;
      return `${head}${separator}${page.map((row) => row.json).join(",")}`;
    });
  });
  v1.all(SCHEMAS_PATH, () => methodNotAllowed(["GET", "POST"]));

  v1.get(SCHEMA_PATH, (c) => {
    const name = c.req.param("name");
    const schema = store.getSchemaJson(name);
    return schema === undefined ? notFound(name) : jsonText(200, `{"schema":${schema}}`);
  });
  v1.put(SCHEMA_PATH, async (c) => {
    const accepted = await acceptBody("createSchema", c.req.raw, { timeoutMs: bodyTimeoutMs });
    if (!accepted.ok) return accepted.response;
    const name = c.req.param("name");
    // The path names the schema; a different `schema.name` in the body does not rename it.
    return store.updateSchema(name, { ...accepted.wrapped, name }) ? noBody(200) : notFound(name);
  });
  v1.delete(SCHEMA_PATH, (c) => {
    const name = c.req.param("name");
    // conformance.md §8: "200, no body".
    return store.deleteSchema(name) ? noBody(200) : notFound(name);
  });
  v1.all(SCHEMA_PATH, () => methodNotAllowed(["GET", "PUT", "DELETE"]));
}
