import { jsonTypeOf, zodDefOf } from "@idp/generators";
import type { z } from "zod";

/** One Pact matching rule at a JSON path, in pact-js's `matchingRules()` format. */
export interface PathRule {
  path: string;
  rules: { "pact:matcher:type": string; min?: number }[];
}

/** Options of {@link contractRules}. */
export interface ContractRulesOptions {
  /**
   * Add a `type` rule at `$`, so every value without a rule of its own is matched by type, not by
   * equality (request bodies: the consumer's strings are examples). @defaultValue true
   */
  readonly root?: boolean;
  /** Paths left without a rule (compared by equality), e.g. `$.error` of a 401. @defaultValue [] */
  readonly exact?: readonly string[];
}

const rule = (type: string, min?: number): PathRule["rules"][number] =>
  min === undefined ? { "pact:matcher:type": type } : { "pact:matcher:type": type, min };

/**
 * Pact matching rules derived from a zod 4 contract shape alone (never from an example): integers
 * match `integer`, numbers `number` (the spec's `number` may be 0 or a fraction, so not `decimal`,
 * which refuses 0), strings and booleans their type, arrays `type` with min 0, a map (`record`) its
 * `values` whatever the keys, objects field by field. Paths use `[*]` for array elements and `*` for
 * map values, so the rules hold for any body of that shape.
 *
 * Pact's mock server checks the elements of an array against the example's first element: an array
 * that is empty in the example constrains the length only. Give examples non-empty arrays where the
 * element type matters.
 */
export function contractRules(
  schema: z.core.$ZodType,
  options: ContractRulesOptions = {},
): PathRule[] {
  const out: PathRule[] = [];
  const exact = new Set(options.exact ?? []);
  const add = (path: string, r: PathRule["rules"][number]) => {
    if (!exact.has(path)) out.push({ path, rules: [r] });
  };
  const walk = (node: z.core.$ZodType, path: string, isRoot: boolean): void => {
    const def = zodDefOf(node);
    switch (def.type) {
      case "optional":
        walk(def.innerType as z.core.$ZodType, path, isRoot);
        return;
      case "object": {
        if (isRoot && options.root !== false) add(path, rule("type"));
        for (const [key, field] of Object.entries(def.shape as Record<string, z.core.$ZodType>))
          walk(field, `${path}.${key}`, false);
        return;
      }
      case "record":
        add(path, rule("values"));
        walk(def.valueType as z.core.$ZodType, `${path}.*`, false);
        return;
      case "array":
        add(path, rule("type", 0));
        walk(def.element as z.core.$ZodType, `${path}[*]`, false);
        return;
      default: {
        const json = jsonTypeOf(node, path);
        add(path, rule(json === "integer" || json === "number" ? json : "type"));
      }
    }
  };
  walk(schema, "$", true);
  return out;
}
