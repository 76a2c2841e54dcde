import { parseArgs } from "node:util";
import { didYouMeanHint } from "../did-you-mean.ts";

/**
 * One command-line option of a toolkit CLI: parsing, `--help` and "did you mean" all read the
 * same table. A value comes from the flag, else from the first set environment variable of `env`.
 */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  /**
   * A setting read from `env` only, never from the command line (a secret, or a value CI sets):
   * `--help` lists its variables, and its name is no flag (nor a "did you mean" for one).
   */
  readonly envOnly?: true;
  /** Repeatable: the values, in order. */
  readonly multiple?: true;
  readonly short?: string;
  /** The value's placeholder in `--help`, e.g. `URL`. */
  readonly value?: string;
  /** Environment variables read when the flag is absent, first set one wins. */
  readonly env?: readonly string[];
  /** The default, as `--help` shows it. */
  readonly defaultText?: string;
  readonly description: string;
  /** The `--help` section it is listed in. */
  readonly group?: string;
}

/** Flag name (without `--`) to spec. */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** What a table's flags hold once read: a string, a list or a boolean; absent is `undefined`. */
export type FlagValues<T extends FlagTable> = {
  -readonly [K in keyof T]: T[K]["type"] extends "boolean"
    ? boolean | undefined
    : T[K]["multiple"] extends true
      ? string[] | undefined
      : string | undefined;
};

/**
 * A usage error of a toolkit CLI: one line naming the flag, the variable or the file and what was
 * expected. The CLIs print it after their name and exit 2, without a stack trace.
 */
export class CliError extends Error {
  override name = "CliError";
  readonly code = "E_CONFIG" as const;
}

export interface ReadFlagsOptions {
  /** Arguments that are not flags are allowed (and returned). @defaultValue false */
  readonly positionals?: boolean;
  /** What a stray argument should have been, for the error, e.g. `every value belongs to an option`. */
  readonly positionalHint?: string;
}

/** Reads `argv` against the table, then fills absent flags from the environment. */
export function readFlags<T extends FlagTable>(
  table: T,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  options: ReadFlagsOptions = {},
): {
  readonly values: FlagValues<T>;
  readonly positionals: readonly string[];
  /** Where each value came from: `--name`, or the environment variable's name (for messages). */
  readonly from: { readonly [K in keyof T]?: string };
} {
  const parsed = parseArgv(table, argv, options);
  const values: Record<string, unknown> = { ...parsed.values };
  const from: Record<string, string> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (values[name] !== undefined) {
      from[name] = `--${name}`;
      continue;
    }
    for (const variable of spec.env ?? []) {
      const v = env[variable];
      if (v === undefined || v === "") continue;
      values[name] = spec.type === "boolean" ? /^(1|true|yes)$/i.test(v) : spec.multiple ? [v] : v;
      from[name] = variable;
      break;
    }
  }
  return {
    values: values as FlagValues<T>,
    positionals: parsed.positionals,
    from: from as { readonly [K in keyof T]?: string },
  };
}

/** `--seed -5` is a value, not a flag: node's parseArgs would call it ambiguous. */
function joinNegativeValues(table: FlagTable, argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    const v = argv[i + 1];
    const name = a.startsWith("--") ? a.slice(2) : undefined;
    if (name && table[name]?.type === "string" && v !== undefined && /^-\d/.test(v)) {
      out.push(`${a}=${v}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** The entries of a table that are command-line flags (not `envOnly`). */
export const commandLineFlags = (table: FlagTable): FlagTable =>
  Object.fromEntries(Object.entries(table).filter(([, o]) => o.envOnly !== true));

type ParseArgsOptions = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>["options"]>;

function parseArgv(table: FlagTable, argv: readonly string[], options: ReadFlagsOptions) {
  const flags = commandLineFlags(table);
  const spec: ParseArgsOptions = {};
  for (const [name, o] of Object.entries(flags))
    spec[name] = {
      type: o.type,
      ...(o.multiple ? { multiple: true } : {}),
      ...(o.short ? { short: o.short } : {}),
    };
  try {
    const r = parseArgs({
      args: joinNegativeValues(flags, argv),
      options: spec,
      strict: true,
      allowPositionals: options.positionals === true,
    });
    return { values: r.values, positionals: r.positionals };
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    throw usageError(flags, e, options);
  }
}

function usageError(table: FlagTable, err: Error, options: ReadFlagsOptions): CliError {
  const code = "code" in err ? err.code : undefined;
  // "Option '-o, --out <value>' argument missing": the long name, when there is one.
  const flag = /'(?:-\w, )?(-{1,2}[^'\s,]+)/.exec(err.message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) {
    const name = flag.replace(/^-+/, "").split("=")[0] ?? "";
    return new CliError(`unknown option ${flag}${didYouMeanHint(name, Object.keys(table), "--")}`);
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
    return new CliError(
      `unexpected argument ${/'([^']*)'/.exec(err.message)?.[1] ?? ""}${options.positionalHint ? `: ${options.positionalHint}` : ""}`,
    );
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag) {
    const name = flag.replace(/^-+/, "").split("=")[0] ?? "";
    const spec = table[name];
    return new CliError(
      spec?.type === "boolean"
        ? `${flag.split("=")[0]} takes no value`
        : `${flag} needs a value${spec?.value ? ` (${spec.value})` : ""}`,
    );
  }
  return new CliError(err.message.split("\n")[0] ?? "bad arguments");
}
