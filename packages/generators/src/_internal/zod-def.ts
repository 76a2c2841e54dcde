import { z } from "zod";
import { GeneratorError } from "../errors.ts";
import type { JsonType } from "./json-values.ts";

// Reads zod 4's public-but-internal definition tree (`schema._zod.def`). Only the constructs the
// contracts use are understood; anything else is reported, never guessed.

type Def = z.core.$ZodTypeDef & Record<string, unknown>;
type CheckDef = { check: string } & Record<string, unknown>;

/** The definition zod 4 keeps of a schema (`schema._zod.def`), as the generators read it. */
export function defOf(schema: z.core.$ZodType): Def {
  return schema._zod.def as Def;
}

function checksOf(schema: z.core.$ZodType): CheckDef[] {
  const checks = (defOf(schema).checks ?? []) as z.core.$ZodCheck[];
  return checks.map((c) => c._zod.def as unknown as CheckDef);
}

export interface NumberDomain {
  readonly integer: boolean;
  readonly min?: { readonly value: number; readonly inclusive: boolean };
  readonly max?: { readonly value: number; readonly inclusive: boolean };
}

const INTEGER_FORMATS: Readonly<Record<string, readonly [number, number]>> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
};

/** Integer-ness and bounds of a number schema; throws on a refinement it cannot honour. */
export function numberDomain(schema: z.core.$ZodType, where: string): NumberDomain {
  let integer = false;
  let min: NumberDomain["min"];
  let max: NumberDomain["max"];
  const meta = z.globalRegistry.get(schema as z.ZodType) as { override?: { type?: unknown } };
  if (meta?.override?.type === "integer") integer = true;
  // Several checks may bound the same side (z.int() is safeint, then .min()): keep the tighter.
  const raiseMin = (value: number, inclusive: boolean) => {
    if (min === undefined || value > min.value) min = { value, inclusive };
  };
  const lowerMax = (value: number, inclusive: boolean) => {
    if (max === undefined || value < max.value) max = { value, inclusive };
  };
  // z.int() and friends are themselves a number_format check (their def carries `check`).
  const own = defOf(schema) as unknown as CheckDef;
  const checks = own.check === "number_format" ? [own, ...checksOf(schema)] : checksOf(schema);
  for (const check of checks) {
    const format =
      check.check === "number_format" ? INTEGER_FORMATS[String(check.format)] : undefined;
    if (format) {
      integer = true;
      raiseMin(format[0], true);
      lowerMax(format[1], true);
    } else if (check.check === "custom" && check.fn === Number.isInteger) integer = true;
    else if (check.check === "greater_than")
      raiseMin(Number(check.value), Boolean(check.inclusive));
    else if (check.check === "less_than") lowerMax(Number(check.value), Boolean(check.inclusive));
    else throw unsupported(where, `a number check "${check.check}"`);
  }
  return {
    integer,
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
  };
}

export function lengthBounds(
  schema: z.core.$ZodType,
  where: string,
): { minLength?: number; maxLength?: number } {
  const out: { minLength?: number; maxLength?: number } = {};
  for (const check of checksOf(schema)) {
    if (check.check === "min_length") out.minLength = Number(check.minimum);
    else if (check.check === "max_length") out.maxLength = Number(check.maximum);
    else if (check.check === "length_equals") {
      out.minLength = Number(check.length);
      out.maxLength = Number(check.length);
    } else throw unsupported(where, `an array check "${check.check}"`);
  }
  return out;
}

export function assertNoChecks(schema: z.core.$ZodType, where: string): void {
  const format = defOf(schema).format;
  if (typeof format === "string")
    throw unsupported(where, `a ${defOf(schema).type} format "${format}"`);
  const [first] = checksOf(schema);
  if (first) throw unsupported(where, `a ${defOf(schema).type} check "${first.check}"`);
}

/** The JSON type a schema accepts, as the spec's tables name it. */
export function jsonTypeOf(schema: z.core.$ZodType, where: string): JsonType {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
    case "boolean":
    case "array":
    case "object":
    case "null":
      return def.type;
    case "record":
      return "object";
    case "number":
      return numberDomain(schema, where).integer ? "integer" : "number";
    case "enum": {
      const values = Object.values(def.entries as Record<string, unknown>);
      if (values.every((v) => typeof v === "string")) return "string";
      throw unsupported(where, "an enum of non-strings");
    }
    case "optional":
      return jsonTypeOf(def.innerType as z.core.$ZodType, where);
    default:
      throw unsupported(where, `a "${def.type}" schema`);
  }
}

export function unsupported(where: string, what: string): GeneratorError {
  return new GeneratorError(
    "E_UNSUPPORTED_SCHEMA",
    `cannot derive an arbitrary at "${where || "(root)"}": ${what} is not supported.\n` +
      "Expected: string, number (integer refinement, min/max), boolean, enum, literal, null, " +
      "optional, nullable, array (length bounds), record with string keys, object; or an override.",
  );
}
