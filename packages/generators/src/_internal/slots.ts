import type { z } from "zod";
import type { JsonType } from "./json-values.ts";
import { formatPattern, type PatternSegment } from "./patterns.ts";
import { defOf, jsonTypeOf } from "./zod-def.ts";

/** One place in a shape where a value lives: a tabulated field, an array element or a map value. */
export interface Slot {
  readonly segments: readonly PatternSegment[];
  readonly pattern: string;
  /** The schema of the value, without its `optional` wrapper. */
  readonly schema: z.core.$ZodType;
  readonly expected: JsonType;
  /** The key may be absent (a schema field's `unique`, a classifier's `excluded_words`). */
  readonly optional: boolean;
}

/** Every slot of a shape, parents before children; the root itself is not a slot. */
export function collectSlots(root: z.core.$ZodType): Slot[] {
  const slots: Slot[] = [];
  const visit = (schema: z.core.$ZodType, at: readonly PatternSegment[]): void => {
    const def = defOf(schema);
    const add = (child: z.core.$ZodType, seg: PatternSegment): void => {
      const childDef = defOf(child);
      const optional = childDef.type === "optional";
      const inner = optional ? (childDef.innerType as z.core.$ZodType) : child;
      const segments = [...at, seg];
      const pattern = formatPattern(segments);
      slots.push({
        segments,
        pattern,
        schema: inner,
        expected: jsonTypeOf(inner, pattern),
        optional,
      });
      visit(inner, segments);
    };
    if (def.type === "object") {
      for (const [key, field] of Object.entries(def.shape as Record<string, z.core.$ZodType>))
        add(field, { kind: "key", key });
    } else if (def.type === "array") add(def.element as z.core.$ZodType, { kind: "element" });
    else if (def.type === "record") add(def.valueType as z.core.$ZodType, { kind: "value" });
  };
  visit(root, []);
  return slots;
}
