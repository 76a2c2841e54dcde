// The neighbour operations (conformance.md §8): "Get a specific schema", "Remove a schema" and
// "Returns login app clustering rules", which the spec lists without paths. Their paths are pinned
// from the service's public documentation; a profile may replace them (key `neighbours`).

/** The neighbours the verifier uses: to put the provider back as it was, and for R9. */
export const NEIGHBOUR_NAMES = ["getSchema", "removeSchema", "getClusteringRules"] as const;
/** `getSchema`, `removeSchema` or `getClusteringRules`. */
export type NeighbourName = (typeof NEIGHBOUR_NAMES)[number];

/** The HTTP methods a neighbour may use. */
export const NEIGHBOUR_METHODS = ["GET", "DELETE", "POST", "PUT", "PATCH"] as const;

/** One neighbour: its method and its path under the base address (`{name}`: one segment). */
export interface Neighbour {
  readonly method: (typeof NEIGHBOUR_METHODS)[number];
  readonly path: string;
}

/** Every neighbour's request. */
export type Neighbours = { readonly [N in NeighbourName]: Neighbour };

/** conformance.md §8's table. */
export const PINNED_NEIGHBOURS: Neighbours = {
  getSchema: { method: "GET", path: "/marketing/datastore/schemas/{name}" },
  removeSchema: { method: "DELETE", path: "/marketing/datastore/schemas/{name}" },
  getClusteringRules: { method: "GET", path: "/marketing/login/apps/clustering/rules" },
};

/** The neighbours whose path names a schema. */
export const NAMED_NEIGHBOURS: readonly NeighbourName[] = ["getSchema", "removeSchema"];

/**
 * Whether a schema name can be one path segment (§8): not `""`, `.` or `..` (which a URL resolves
 * away). Such a name is never read back nor removed.
 */
export const isPathSegmentName = (name: string): boolean =>
  name !== "" && name !== "." && name !== "..";

/** A neighbour's path for a schema name: `{name}` percent-encoded as one segment. */
export function neighbourPath(neighbour: Neighbour, name?: string): string {
  return name === undefined
    ? neighbour.path
    : neighbour.path.replace("{name}", encodeURIComponent(name));
}
