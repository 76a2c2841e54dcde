import fc from "fast-check";
import type { z } from "zod";
import { anyInteger, anyKey, anyNumber, anyString, safeKey } from "./_internal/json-values.ts";
import { formatPattern, type PatternSegment } from "./_internal/patterns.ts";
import {
  assertNoChecks,
  defOf,
  lengthBounds,
  numberDomain,
  unsupported,
} from "./_internal/zod-def.ts";

/** Options of {@link zodArbitrary}. */
export interface ZodArbitraryOptions {
  /**
   * Arbitraries used instead of the derived ones, by path pattern: keys joined by `.`, `[]` for
   * any array element, `*` for any map value, e.g. `"schema.fields[].type"`.
   * @defaultValue `{}`
   */
  readonly overrides?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Most elements of an array and most keys of a map. @defaultValue 10 */
  readonly maxLength?: number;
  /** fast-check size hint of arrays and maps. @defaultValue fast-check's global default */
  readonly size?: fc.SizeForArbitrary;
  /** The pattern of the schema's own position, when it is a part of a larger shape. @defaultValue [] */
  readonly at?: readonly PatternSegment[];
  /** Most elements or keys at one pattern (e.g. `"rules.features"`), instead of `maxLength`. */
  readonly maxLengthAt?: (pattern: string) => number | undefined;
  /** Strings of every string field (overrides by pattern still win). @defaultValue edge-biased strings of any Unicode */
  readonly string?: fc.Arbitrary<string>;
  /** Keys of every map. @defaultValue edge-biased strings of any Unicode */
  readonly key?: fc.Arbitrary<string>;
}

/**
 * Derives a fast-check arbitrary from a zod 4 schema by walking `schema._zod.def`, so values shrink
 * structurally and no sample is ever rejected (no `filter`).
 * @throws GeneratorError `E_UNSUPPORTED_SCHEMA` for a construct it cannot generate without filtering.
 */
export function zodArbitrary(
  schema: z.core.$ZodType,
  options: ZodArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  return derive(schema, options.at ?? [], options);
}

function derive(
  schema: z.core.$ZodType,
  at: readonly PatternSegment[],
  options: ZodArbitraryOptions,
): fc.Arbitrary<unknown> {
  const where = formatPattern(at);
  const override = options.overrides?.[where];
  if (override) return override;
  const def = defOf(schema);
  const sizing = {
    maxLength: options.maxLengthAt?.(where) ?? options.maxLength ?? 10,
    ...(options.size === undefined ? {} : { size: options.size }),
  };
  switch (def.type) {
    case "string":
      assertNoChecks(schema, where);
      return options.string ?? anyString;
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "number":
      return numberArbitrary(schema, where);
    case "enum":
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "optional":
      return fc.option(derive(def.innerType as z.core.$ZodType, at, options), { nil: undefined });
    case "nullable":
      return fc.option(derive(def.innerType as z.core.$ZodType, at, options), { nil: null });
    case "array": {
      const bounds = lengthBounds(schema, where);
      const item = derive(def.element as z.core.$ZodType, [...at, { kind: "element" }], options);
      return fc.array(item, { ...sizing, ...bounds });
    }
    case "record": {
      assertNoChecks(schema, where);
      const keyType = def.keyType as z.core.$ZodType;
      if (defOf(keyType).type !== "string")
        throw unsupported(where, "a record with non-string keys");
      assertNoChecks(keyType, `${where} (keys)`);
      const value = derive(def.valueType as z.core.$ZodType, [...at, { kind: "value" }], options);
      const key = options.key ? options.key.map(safeKey) : anyKey;
      return fc.dictionary(key, value, {
        maxKeys: sizing.maxLength,
        noNullPrototype: true,
        ...(options.size === undefined ? {} : { size: options.size }),
      });
    }
    case "object": {
      assertNoChecks(schema, where);
      const shape = def.shape as Record<string, z.core.$ZodType>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [key, field] of Object.entries(shape)) {
        const fieldAt = [...at, { kind: "key", key } as const];
        // An optional key is absent or present with a value; never present with `undefined`.
        const fieldDef = defOf(field);
        if (fieldDef.type === "optional") {
          model[key] = derive(fieldDef.innerType as z.core.$ZodType, fieldAt, options);
        } else {
          model[key] = derive(field, fieldAt, options);
          requiredKeys.push(key);
        }
      }
      return fc.record(model, { requiredKeys, noNullPrototype: true });
    }
    default:
      throw unsupported(where, `a "${def.type}" schema`);
  }
}

function numberArbitrary(schema: z.core.$ZodType, where: string): fc.Arbitrary<number> {
  const domain = numberDomain(schema, where);
  const { min, max } = domain;
  if (domain.integer) {
    if (min === undefined && max === undefined) return anyInteger;
    const lo =
      min === undefined
        ? Number.MIN_SAFE_INTEGER
        : min.inclusive
          ? Math.ceil(min.value)
          : Math.floor(min.value) + 1;
    const hi =
      max === undefined
        ? Number.MAX_SAFE_INTEGER
        : max.inclusive
          ? Math.floor(max.value)
          : Math.ceil(max.value) - 1;
    if (lo > hi) throw unsupported(where, `an empty integer range [${lo}, ${hi}]`);
    return fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number);
  }
  if (min === undefined && max === undefined) return anyNumber;
  return fc
    .double({
      noNaN: true,
      noDefaultInfinity: true,
      ...(min === undefined ? {} : { min: min.value, minExcluded: !min.inclusive }),
      ...(max === undefined ? {} : { max: max.value, maxExcluded: !max.inclusive }),
    })
    .map((x) => x + 0);
}
