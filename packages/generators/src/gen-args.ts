import {
  type ContractProfile,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  didYouMean,
  loadProfile,
  ProfileError,
} from "@idp/contracts";
import type fc from "fast-check";
import { GeneratorError } from "./errors.ts";
import {
  MIN_STRESS_BODY_BYTES,
  STRESS_DEFAULTS,
  STRESS_KINDS,
  type StressConstraints,
  type StressKind,
} from "./stress-body.ts";

/** CLI operation names (conformance.md §5) and the operations they stand for. */
export const CLI_OPERATIONS: Readonly<Record<string, DetailedOperationId>> = {
  "create-schema": "createSchema",
  push: "pushToUserDevices",
  "clustering-rules": "updateClusteringRules",
};

/** What the lines are: valid bodies (the default), `--invalid` cases or `--stress` cases. */
export type GenMode = "valid" | "invalid" | "stress";

export interface GenOptions {
  readonly operation: DetailedOperationId;
  readonly mode: GenMode;
  readonly count: number;
  readonly seed: number;
  /** Whether the seed came from the command line (else it was drawn and should be printed). */
  readonly seedGiven: boolean;
  readonly profile: ContractProfile;
  /** Passed to the valid-body arbitraries; `huge` picks the large ones (`largeValidBodyArb`). */
  readonly valid: {
    readonly maxLength?: number;
    readonly size?: fc.Size | "huge";
    readonly maxBodyBytes?: number;
  };
  /** Passed to `stressBodyArb` (the profile is added). */
  readonly stress: Omit<StressConstraints, "profile">;
}

/** Options as they are read, before the mode is known. */
interface Draft {
  invalid?: boolean;
  stress?: boolean;
  count?: number;
  seed?: number;
  profile?: ContractProfile;
  maxLength?: number;
  size?: fc.Size | "huge";
  kinds?: StressKind[];
  maxDepth?: number;
  maxStringLength?: number;
  maxKeys?: number;
  maxArrayLength?: number;
  maxBodyBytes?: number;
}

/** Where the command runs: relative paths (a profile file) resolve from `cwd`. */
export interface GenContext {
  readonly cwd?: string;
}

/** One command-line option: a switch, or a flag with a value read by `set`. */
interface OptionSpec {
  readonly name: string;
  /** The value's placeholder in --help; absent for a switch. */
  readonly value?: string;
  readonly help: string;
  readonly default?: string;
  /** The option means something only in these modes. */
  readonly only?: readonly GenMode[];
  readonly set: (draft: Draft, text: string, context: GenContext) => void;
}

const usage = (message: string) => new GeneratorError("E_USAGE", message);

function wholeNumber(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  const n = /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
  const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
  throw usage(`${flag} must be a whole number ${range} (received ${text === "" ? '""' : text})`);
}

function oneOf<T>(flag: string, text: string, choices: Readonly<Record<string, T>>): T {
  const value = Object.hasOwn(choices, text) ? choices[text] : undefined;
  if (value !== undefined) return value;
  const names = Object.keys(choices);
  const guess = didYouMean(text, names);
  throw usage(
    `${flag} must be one of ${names.join(", ")} (received "${text}")${guess ? `: did you mean ${guess}?` : ""}`,
  );
}

/** A built-in profile or a profile file (conformance.md §6); a bad file is one usage line. */
function profileArg(text: string, context: GenContext): ContractProfile {
  try {
    return loadProfile(text, context.cwd === undefined ? {} : { cwd: context.cwd });
  } catch (e) {
    // ProfileError's message names the file, the key and what was expected, on one line.
    if (e instanceof ProfileError) throw new GeneratorError("E_USAGE", e.message, { cause: e });
    throw e;
  }
}
const SIZES: Readonly<Record<string, fc.Size | "huge">> = {
  xsmall: "xsmall",
  small: "small",
  medium: "medium",
  large: "large",
  xlarge: "xlarge",
  huge: "huge",
};

function kindList(text: string): StressKind[] {
  const kinds = text.split(",").map((k) => k.trim());
  for (const kind of kinds)
    if (!(STRESS_KINDS as readonly string[]).includes(kind)) {
      const guess = didYouMean(kind, STRESS_KINDS);
      throw usage(
        `--kinds: unknown kind "${kind}"${guess ? `: did you mean ${guess}?` : ""} (expected a comma list of ${STRESS_KINDS.join(", ")})`,
      );
    }
  return kinds as StressKind[];
}

const stressLimit =
  (key: keyof typeof STRESS_DEFAULTS, flag: string, min = 1) =>
  (d: Draft, t: string) => {
    d[key] = wholeNumber(flag, t, min);
  };

/** Every option of idp-gen, in --help order: adding an option is adding one entry here. */
const OPTIONS: readonly OptionSpec[] = [
  {
    name: "invalid",
    help: "invalid bodies, each breaking one rule, with the status the profile pins (conformance.md §3)",
    set: (d) => {
      d.invalid = true;
    },
  },
  {
    name: "stress",
    help: "bodies under structural stress (deep nesting, long strings, many keys, large arrays, extreme numbers, unusual Unicode), each with its expected outcome",
    set: (d) => {
      d.stress = true;
    },
  },
  {
    name: "count",
    value: "N",
    default: "10",
    help: "how many lines to print",
    set: (d, t) => {
      d.count = wholeNumber("--count", t, 1);
    },
  },
  {
    name: "seed",
    value: "S",
    default: "drawn at random and printed on stderr",
    help: "a 32-bit signed integer; the same seed prints the same lines",
    set: (d, t) => {
      d.seed = wholeNumber("--seed", t, -(2 ** 31), 2 ** 31 - 1);
    },
  },
  {
    name: "profile",
    value: "default|strict|PATH",
    default: "default",
    help: "how bodies are read and which status an invalid body expects (conformance.md §6): strict also calls missing fields, unknown keys and values beyond those in use invalid; PATH is a profile file (JSON, relative to the directory the command was run from), e.g. profiles/observed-service.json",
    set: (d, t, context) => {
      d.profile = profileArg(t, context);
    },
  },
  {
    name: "max-length",
    value: "N",
    default: "10",
    only: ["valid"],
    help: "most elements of each array and keys of each map",
    set: (d, t) => {
      d.maxLength = wholeNumber("--max-length", t, 0);
    },
  },
  {
    name: "size",
    value: "xsmall|small|medium|large|xlarge|huge",
    default: "small",
    only: ["valid"],
    help: "how large arrays and maps tend to be, up to --max-length (fast-check's size); huge: the large valid bodies idp-verify sends to R4, half with strings up to 2,048 code points in every string field and map key, half with up to 128 fields or features and dozens of labels and keywords, each cut to fit --max-body-bytes (--max-length does not apply)",
    set: (d, t) => {
      d.size = oneOf("--size", t, SIZES);
    },
  },
  {
    name: "kinds",
    value: "LIST",
    default: "all",
    only: ["stress"],
    help: `comma list of ${STRESS_KINDS.join(", ")}`,
    set: (d, t) => {
      d.kinds = kindList(t);
    },
  },
  {
    name: "max-depth",
    value: "N",
    default: String(STRESS_DEFAULTS.maxDepth),
    only: ["stress"],
    help: "deepest nesting",
    set: stressLimit("maxDepth", "--max-depth"),
  },
  {
    name: "max-string-length",
    value: "N",
    default: String(STRESS_DEFAULTS.maxStringLength),
    only: ["stress"],
    help: "longest string in code points, and most digits of a number",
    set: stressLimit("maxStringLength", "--max-string-length"),
  },
  {
    name: "max-keys",
    value: "N",
    default: String(STRESS_DEFAULTS.maxKeys),
    only: ["stress"],
    help: "most keys of one object",
    set: stressLimit("maxKeys", "--max-keys"),
  },
  {
    name: "max-array-length",
    value: "N",
    default: String(STRESS_DEFAULTS.maxArrayLength),
    only: ["stress"],
    help: "most elements of one array",
    set: stressLimit("maxArrayLength", "--max-array-length"),
  },
  {
    name: "max-body-bytes",
    value: "N",
    default: `${STRESS_DEFAULTS.maxBodyBytes} (1 MiB)`,
    only: ["stress", "valid"],
    help: `largest body in UTF-8 bytes, at least ${MIN_STRESS_BODY_BYTES}; sizes are cut to fit (valid bodies: with --size huge)`,
    set: stressLimit("maxBodyBytes", "--max-body-bytes", MIN_STRESS_BODY_BYTES),
  },
  { name: "version", help: "print the version and exit", set: () => {} },
  { name: "help", help: "print this help and exit (also -h)", set: () => {} },
];

const MODE_FLAG: Readonly<Record<GenMode, string>> = {
  valid: "valid bodies (without --invalid or --stress)",
  invalid: "--invalid",
  stress: "--stress",
};

/**
 * Reads idp-gen's argv into options; `randomSeed` supplies the seed when `--seed` is absent, and
 * `context.cwd` (default: the process's) is where a `--profile` file path starts.
 * `--help` and `--version` win over everything else on the line.
 * @throws GeneratorError `E_USAGE` with a one-line message naming the flag (or the profile file)
 * and what it expects.
 */
export function parseGenArgs(
  argv: readonly string[],
  randomSeed: () => number,
  context: GenContext = {},
): GenOptions | "help" | "version" {
  const end = argv.indexOf("--");
  const flags = end < 0 ? argv : argv.slice(0, end);
  if (flags.includes("--help") || flags.includes("-h")) return "help";
  if (flags.includes("--version")) return "version";

  const draft: Draft = {};
  const given: OptionSpec[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-" || /^-\d/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const head = eq < 0 ? arg : arg.slice(0, eq);
    let text = eq < 0 ? undefined : arg.slice(eq + 1);
    const name = head.replace(/^--?/, "");
    const spec = head.startsWith("--") ? OPTIONS.find((o) => o.name === name) : undefined;
    if (!spec) {
      const guess = didYouMean(
        name,
        OPTIONS.map((o) => o.name),
      );
      const expected = OPTIONS.map((o) => `--${o.name}`).join(", ");
      throw usage(
        `unknown option ${head}${guess ? `: did you mean --${guess}?` : ` (expected one of ${expected})`}`,
      );
    }
    if (spec.value === undefined) {
      if (text !== undefined) throw usage(`--${spec.name} takes no value (received "${text}")`);
      text = "";
    } else if (text === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith("--") && next.length > 2))
        throw usage(`--${spec.name} needs a value: ${spec.value}`);
      text = next;
      i++;
    }
    spec.set(draft, text, context);
    given.push(spec);
  }

  const [name, ...extra] = positionals;
  const names = Object.keys(CLI_OPERATIONS);
  if (name === undefined) throw usage(`missing operation: expected one of ${names.join(", ")}`);
  const operation = CLI_OPERATIONS[name];
  if (operation === undefined) {
    const guess = didYouMean(name, names);
    throw usage(
      `unknown operation "${name}"${guess ? `: did you mean ${guess}?` : ""} (expected one of ${names.join(", ")})`,
    );
  }
  if (extra.length > 0)
    throw usage(`unexpected argument "${extra[0]}": idp-gen takes one operation ("${name}")`);
  if (draft.invalid && draft.stress)
    throw usage("--invalid and --stress cannot be combined: choose one");
  const mode: GenMode = draft.invalid ? "invalid" : draft.stress ? "stress" : "valid";
  const misplaced = given.find((o) => o.only !== undefined && !o.only.includes(mode));
  if (misplaced?.only)
    throw usage(
      `--${misplaced.name} applies only to ${misplaced.only.map((m) => MODE_FLAG[m]).join(" and ")}`,
    );
  if (mode === "valid" && draft.maxBodyBytes !== undefined && draft.size !== "huge")
    throw usage("--max-body-bytes applies to valid bodies only with --size huge");

  const pick = <K extends keyof Draft>(...keys: K[]) => {
    const out: Partial<Pick<Draft, K>> = {};
    for (const key of keys) if (draft[key] !== undefined) out[key] = draft[key];
    return out;
  };
  return {
    operation,
    mode,
    count: draft.count ?? 10,
    seed: draft.seed ?? randomSeed(),
    seedGiven: draft.seed !== undefined,
    profile: draft.profile ?? defaultProfile,
    valid: pick("maxLength", "size", "maxBodyBytes"),
    stress: pick(
      "kinds",
      "maxDepth",
      "maxStringLength",
      "maxKeys",
      "maxArrayLength",
      "maxBodyBytes",
    ),
  };
}

/** Words of `text` in lines of at most `width` characters after `indent`. */
function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(indent + line);
  return lines;
}

/** `idp-gen --help`: every option with its default, the output of each mode, and examples. */
export function helpText(version: string): string {
  const ops = Object.entries(CLI_OPERATIONS).map(([name, id]) => {
    const op = detailedOperations[id];
    return [name, `${op.method} ${op.path}`] as const;
  });
  const opWidth = Math.max(...ops.map(([name]) => name.length)) + 3;
  const flag = (o: OptionSpec) => `--${o.name}${o.value ? ` ${o.value}` : ""}`;
  const option = (o: OptionSpec) => {
    const notes = [
      o.default === undefined ? undefined : `Default: ${o.default}.`,
      o.only === undefined
        ? undefined
        : `Only for ${o.only.map((m) => MODE_FLAG[m]).join(" and ")}.`,
    ].filter((n) => n !== undefined);
    const sentence = `${o.help.charAt(0).toUpperCase()}${o.help.slice(1)}.`;
    return [`  ${flag(o)}`, ...wrap([sentence, ...notes].join(" "), 74, "      ")];
  };
  return [
    `idp-gen ${version}: request bodies for the IDP's three detailed operations, as NDJSON`,
    "(conformance.md §5). The same seed prints the same lines.",
    "",
    "Usage: idp-gen <operation> [options]",
    "",
    "Operations:",
    ...ops.map(([name, what]) => `  ${name.padEnd(opWidth)}${what}`),
    "",
    "Options:",
    ...OPTIONS.flatMap(option),
    "",
    "Output: one JSON value per line, each valid UTF-8 JSON.",
    "  valid (default)  the body itself, valid per conformance.md §2 and within the",
    "                   profile's bounds (§6)",
    '  --invalid        {"body","raw","expectedStatus","violation","kind","path"}; body is',
    "                   the JSON value, or, when raw is true, a string: the text to send",
    '  --stress         {"body","raw":true,"stress","place","expected","path","size",',
    '                   "description"}; body is always a string: the exact text to send',
    "                   (never re-serialise it: that loses -0, 1e400, escapes and depth);",
    '                   expected is {"outcome":"valid"} or',
    '                   {"outcome":"invalid","status":400|422,"violation":KIND}',
    "",
    "Bodies may hold any Unicode: astral-plane characters, combining marks, zero-width and bidi",
    "controls, noncharacters, NUL and other controls (escaped in JSON); never a lone surrogate, so",
    "every body can be sent as UTF-8.",
    "",
    "Examples:",
    "  idp-gen push --count 3 --seed 1",
    "  idp-gen create-schema --invalid --count 1000 --seed 7 > invalid.ndjson",
    "  idp-gen clustering-rules --size large --max-length 40 --count 5",
    "  idp-gen create-schema --size huge --count 3 --profile strict",
    "  idp-gen push --stress --kinds deep-nesting,unicode --count 20 | jq -r .description",
    "  idp-gen create-schema --stress --max-body-bytes 65536 | jq -r .body | head -c 300",
    "  pnpm gen push --invalid --count 5      # from the repository root",
    "",
    "Exit status: 0 done (also when the reader closes the pipe), 2 bad arguments (one line on",
    "stderr), 1 an internal error.",
  ].join("\n");
}
