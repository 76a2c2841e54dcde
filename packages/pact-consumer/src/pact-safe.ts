import { IdpInteractionError } from "./errors.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why Pact's core could not carry `value` unchanged, or `undefined` when it can. */
export function pactUnsafeReason(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  if (text === undefined) return "it is not a JSON value";
  const problems: string[] = [];
  if (LONE_SURROGATE.test(text)) problems.push("a lone UTF-16 surrogate (not valid UTF-8)");
  JSON.parse(text, (_key, v: unknown) => {
    if (typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v))
      problems.push(`the integer ${v} beyond 2^53 (Pact's core would turn it into a float)`);
    return v;
  });
  return problems.length > 0 ? `it holds ${problems.join(" and ")}` : undefined;
}

/**
 * Returns `value` if Pact's Rust core carries it unchanged into the pact file, and throws
 * IdpInteractionError otherwise: the core reads JSON with 64-bit integers (an integer beyond ±2^53
 * comes back as a float) and as UTF-8 (a lone surrogate cannot be written). Use it on generated
 * examples (`fc.sample(validBodyArb(...))`) before recording them.
 */
export function pactSafe<T>(value: T, what = "the example"): T {
  const reason = pactUnsafeReason(value);
  if (reason)
    throw new IdpInteractionError(
      `${what} is not pact-safe: ${reason}; expected safe integers and well-formed strings only`,
    );
  return value;
}
