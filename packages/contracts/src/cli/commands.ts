import { didYouMeanHint } from "../did-you-mean.ts";
import { CliError, type FlagTable } from "./flags.ts";

/** One subcommand of a toolkit CLI (`idp-pacts publish`): `--help` and the parsing read it. */
export interface CommandSpec {
  /** What it does, for `--help`. */
  readonly summary: string;
  /** Its own flags (read with the CLI's shared ones). */
  readonly flags: FlagTable;
}

/** Command name to spec, in `--help` order. */
export type CommandTable = Readonly<Record<string, CommandSpec>>;

/**
 * The command `word` names (the first argument).
 * @throws CliError when it is missing or unknown, naming the closest command and every one.
 */
export function commandOf<C extends CommandTable>(
  cli: string,
  commands: C,
  word: string | undefined,
): keyof C & string {
  const names = Object.keys(commands);
  const known = (w: string): w is keyof C & string => Object.hasOwn(commands, w);
  if (word === undefined) throw new CliError(`missing command: one of ${names.join(", ")}`);
  if (known(word)) return word;
  throw new CliError(
    `unknown command "${word}"${didYouMeanHint(word, names)}: expected one of ${names.join(", ")} (${cli} --help)`,
  );
}

/** Whether `--help` or `-h` is among the arguments before a `--` (it wins over anything else). */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const own = end === -1 ? argv : argv.slice(0, end);
  return own.includes("--help") || own.includes("-h");
}
