import { CliError, type FlagValues } from "@idp/contracts/cli";
import { z } from "zod";
import type { Flags } from "./flags.ts";

/** What the configuration is parsed from: the flags' values (readFlags), and the environment. */
export type ConfigInput = FlagValues<Flags> & {
  /** What is read from the environment besides the flags' variables (proxies, a CA). */
  readonly environment: Readonly<Record<string, string | undefined>>;
};

/** Where each flag's value came from: `--name`, or the environment variable's name. */
export type From = { readonly [K in keyof Flags]?: string };

/** Whether `flag` was given on the command line (not by its environment variable). */
export const byFlag = (from: From, flag: keyof Flags): boolean =>
  from[flag]?.startsWith("--") ?? false;

/**
 * A rule between options, as a zod check: the values must satisfy `holds`, else the parse fails
 * with `message` (which names the flags, what was given and what was expected). Every rule of a
 * schema runs; the first failing one, in the order written, is the line the CLI prints.
 */
export const rule = <T>(holds: (values: T) => boolean, message: string | ((values: T) => string)) =>
  z.check<T>((ctx) => {
    if (holds(ctx.value)) return;
    const text = typeof message === "string" ? message : message(ctx.value);
    ctx.issues.push({ code: "custom", message: text, input: ctx.value });
  });

/**
 * A reading shared with another CLI or layer (the broker's settings as idp-pacts reads them, the
 * proxy variables as the transport reads them) run inside a zod transform: its one-line usage
 * error (a CliError, or the `usage` error class that reading throws) becomes the parse's issue.
 */
export function shared<T>(
  ctx: z.RefinementCtx,
  read: () => T,
  usage: abstract new (...args: never[]) => Error = CliError,
): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof usage)) throw e;
    ctx.addIssue({ code: "custom", message: e.message });
    return z.NEVER;
  }
}
