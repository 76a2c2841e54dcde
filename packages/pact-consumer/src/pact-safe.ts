import { IdpInteractionError } from "./errors.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why Pact's core could not carry `value` unchanged, or `undefined` when it can. */
export function pactUnsafeReason(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  if (text === undefined) return "it is not a JSON value";
  const found: Found = { lone: false, numbers: [] };
  walk(JSON.parse(text), "$", found);
  const problems = [
    ...(found.lone ? ["a lone UTF-16 surrogate (not valid UTF-8)"] : []),
    ...found.numbers,
  ];
  return problems.length > 0 ? `it holds ${problems.join(" and ")}` : undefined;
}

interface Found {
  /**
   * Some string or object key holds a lone surrogate. Read from the parsed strings, not the text:
   * JSON.stringify writes one as a \uD800 escape, which Pact's core (Rust strings) cannot hold.
   */
  lone: boolean;
  /** The numbers Pact's core would change, each named with its JSON path. */
  readonly numbers: string[];
}

function walk(v: unknown, path: string, found: Found): void {
  if (typeof v === "string") {
    if (LONE_SURROGATE.test(v)) found.lone = true;
  } else if (typeof v === "number") {
    if (Number.isInteger(v) && !Number.isSafeInteger(v))
      found.numbers.push(
        `the integer ${v} at ${path} beyond 2^53 (Pact's core would turn it into a float)`,
      );
    else if (!Number.isInteger(v) && !readExactly(v))
      found.numbers.push(
        `the number ${v} at ${path} (Pact's core reads a fraction exactly only with at most 15 significant digits and a power of ten within ±22; this one may come back one unit in the last place off)`,
      );
  } else if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`, found);
  } else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      if (LONE_SURROGATE.test(k)) found.lone = true;
      walk(
        x,
        /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`,
        found,
      );
    }
}

/**
 * Whether Pact's core reads the number back as the same double. It reads JSON with serde_json's
 * fast parser, exact only where an integer of at most 15 digits times a power of ten within ±22
 * gives the number (both exact doubles, one rounding); elsewhere it may be one unit in the last
 * place off (a generated 5.2406910179684247e-23 and 1.5e-300 both came back changed).
 */
function readExactly(v: number): boolean {
  // JavaScript writes the shortest text that reads back the same double.
  const [mantissa = "", exponent = "0"] = String(Math.abs(v)).split("e");
  const [whole = "", fraction = ""] = mantissa.split(".");
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  const significant = digits.replace(/0+$/, "");
  const power = Number(exponent) - fraction.length + (digits.length - significant.length);
  return significant.length <= 15 && Math.abs(power) <= 22;
}

/**
 * Returns `value` if Pact's Rust core carries it unchanged into the pact file, and throws
 * IdpInteractionError otherwise: the core reads JSON with 64-bit integers (an integer beyond ±2^53
 * comes back as a float) with a fast parser (a fraction of more than 15 significant digits, or of a
 * power of ten beyond ±22, may come back one unit in the last place off), and as UTF-8 (a lone
 * surrogate cannot be written). Use it on generated
 * examples (`fc.sample(validBodyArb(...))`) before recording them.
 */
export function pactSafe<T>(value: T, what = "the example"): T {
  const reason = pactUnsafeReason(value);
  if (reason)
    throw new IdpInteractionError(
      `${what} is not pact-safe: ${reason}; expected safe integers, fractions of at most 15 significant digits within 1e±22 and well-formed strings only`,
    );
  return value;
}
