import { z } from "zod";
import { didYouMean } from "../did-you-mean.ts";
import { CliError } from "./flags.ts";

// zod pieces for flag values: each message names the flag (or variable) and what was expected, so
// the first issue of a failed parse is the one line a CLI prints.

/** Parses with `schema`; a failure is a CliError with the first issue's message. */
export function parseFlagValues<S extends z.ZodType>(schema: S, values: unknown): z.output<S> {
  const r = schema.safeParse(values);
  if (r.success) return r.data;
  throw new CliError(r.error.issues[0]?.message ?? "invalid arguments");
}

/** The text of a URL as an error may show it: never its password. */
function shownUrl(text: unknown): string {
  const t = String(text);
  const at = t.indexOf("@");
  const scheme = t.indexOf("://");
  return at > scheme && scheme >= 0 ? `${t.slice(0, scheme + 3)}<user-info>${t.slice(at)}` : t;
}

/** An absolute http(s) URL. */
export const httpUrl = (flag: string) =>
  z.string().refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
    error: (i) => `${flag} must be an http(s) URL (received ${JSON.stringify(shownUrl(i.input))})`,
  });

/** A whole number in [min, max] (no upper bound when `max` is left out), from its text. */
export const wholeNumber = (flag: string, min: number, max?: number) =>
  z
    .string()
    .refine(
      (s) =>
        /^[+-]?\d+$/.test(s.trim()) &&
        Number.isSafeInteger(Number(s)) &&
        Number(s) >= min &&
        (max === undefined || Number(s) <= max),
      {
        error: (i) =>
          `${flag} must be a whole number ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`} (received ${JSON.stringify(i.input)})`,
      },
    )
    .transform(Number);

/** Any text but the empty one. */
export const nonEmpty = (flag: string) =>
  z.string().refine((s) => s.trim() !== "", { error: `${flag} must not be empty` });

/** One of a few words; a near miss is told the word it was likely meant to be. */
export const oneOf = <const T extends readonly [string, ...string[]]>(flag: string, words: T) =>
  z.enum(words, {
    error: (i) => {
      const guess = typeof i.input === "string" ? didYouMean(i.input, words) : undefined;
      return `${flag} must be one of ${words.join(", ")} (received ${JSON.stringify(i.input)})${guess ? `: did you mean ${guess}?` : ""}`;
    },
  });
