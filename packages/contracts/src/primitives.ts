import { z } from "zod";

/**
 * A JSON integer, as the spec's `integer`: any integral JSON number.
 * @remarks `z.int()` would also cap the value at ±(2^53 - 1); the spec states no bound, so the
 * contract must not invent one. OpenAPI still sees `type: integer` through the override.
 */
export function jsonInteger() {
  return z
    .number()
    .refine(Number.isInteger, { error: "expected an integer (a JSON number without a fraction)" })
    .meta({ override: { type: "integer" } });
}

/** Marker kept in the catalogue and registry wherever the spec says "not shown". */
export const NOT_SHOWN = "not shown" as const;
/** The type of `NOT_SHOWN`. */
export type NotShown = typeof NOT_SHOWN;
