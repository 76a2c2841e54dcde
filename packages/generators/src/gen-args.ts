import {
  type ContractProfile,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  didYouMean,
  loadProfile,
  ProfileError,
} from "@idp/contracts";
import {
  asksForHelp,
  CliError,
  type FlagTable,
  flagsHelp,
  oneOf,
  parseFlagValues,
  readFlags,
  wholeNumber,
} from "@idp/contracts/cli";
import { z } from "zod";
import { GeneratorError } from "./errors.ts";
import {
  MIN_STRESS_BODY_BYTES,
  STRESS_DEFAULTS,
  STRESS_KINDS,
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

/** Where the command runs: relative paths (a profile file) resolve from `cwd`. */
export interface GenContext {
  readonly cwd?: string;
}

/**
 * idp-gen's flags, read by the toolkit's shared parser (@idp/contracts/cli) in --help order; `ONLY`
 * says which modes a flag means something in.
 */
export const GEN_FLAGS = {
  invalid: {
    type: "boolean",
    description:
      "invalid bodies, each breaking one rule, with the status the profile pins (conformance.md §3)",
  },
  stress: {
    type: "boolean",
    description:
      "bodies under structural stress (deep nesting, long strings, many keys, large arrays, extreme numbers, unusual Unicode), each with its expected outcome",
  },
  count: { type: "string", value: "N", defaultText: "10", description: "how many lines to print" },
  seed: {
    type: "string",
    value: "S",
    defaultText: "drawn at random and printed on stderr",
    description: "a 32-bit signed integer; the same seed prints the same lines",
  },
  profile: {
    type: "string",
    value: "default|strict|PATH",
    defaultText: "default",
    description:
      "how bodies are read and which status an invalid body expects (conformance.md §6): strict also calls missing fields, unknown keys and values beyond those in use invalid; PATH is a profile file (JSON, relative to the directory the command was run from), e.g. profiles/observed-service.json; its bounds keep valid bodies within them",
  },
  "max-length": {
    type: "string",
    value: "N",
    defaultText: "10",
    description: "most elements of each array and keys of each map",
  },
  size: {
    type: "string",
    value: "xsmall|small|medium|large|xlarge|huge",
    defaultText: "small",
    description:
      "how large arrays and maps tend to be, up to --max-length (fast-check's size); huge: the large valid bodies idp-verify sends to R4, half with strings up to 2,048 code points in every string field and map key, half with up to 96 fields or features and dozens of labels and keywords, each cut to fit --max-body-bytes (--max-length is refused with it)",
  },
  kinds: {
    type: "string",
    value: "LIST",
    defaultText: "all",
    description: `comma list of ${STRESS_KINDS.join(", ")}`,
  },
  "max-depth": {
    type: "string",
    value: "N",
    defaultText: String(STRESS_DEFAULTS.maxDepth),
    description: "deepest nesting",
  },
  "max-string-length": {
    type: "string",
    value: "N",
    defaultText: String(STRESS_DEFAULTS.maxStringLength),
    description: "longest string in code points, and most digits of a number",
  },
  "max-keys": {
    type: "string",
    value: "N",
    defaultText: String(STRESS_DEFAULTS.maxKeys),
    description: "most keys of one object",
  },
  "max-array-length": {
    type: "string",
    value: "N",
    defaultText: String(STRESS_DEFAULTS.maxArrayLength),
    description: "most elements of one array",
  },
  "max-body-bytes": {
    type: "string",
    value: "N",
    defaultText: `${STRESS_DEFAULTS.maxBodyBytes} (1 MiB)`,
    description: `largest body in UTF-8 bytes, at least ${MIN_STRESS_BODY_BYTES}; sizes are cut to fit (valid bodies: with --size huge)`,
  },
  version: { type: "boolean", description: "print the version and exit" },
  help: { type: "boolean", short: "h", description: "print this help and exit" },
} as const satisfies FlagTable;

type Flag = keyof typeof GEN_FLAGS;

/** The modes a flag means something in (absent: every mode). */
const ONLY = [
  ["max-length", ["valid"]],
  ["size", ["valid"]],
  ["kinds", ["stress"]],
  ["max-depth", ["stress"]],
  ["max-string-length", ["stress"]],
  ["max-keys", ["stress"]],
  ["max-array-length", ["stress"]],
  ["max-body-bytes", ["stress", "valid"]],
] as const satisfies readonly (readonly [Flag, readonly GenMode[]])[];

const onlyIn = (flag: string): readonly GenMode[] | undefined =>
  ONLY.find(([f]) => f === flag)?.[1];

const MODE_FLAG: Readonly<Record<GenMode, string>> = {
  valid: "valid bodies (without --invalid or --stress)",
  invalid: "--invalid",
  stress: "--stress",
};

/** A built-in profile or a profile file (conformance.md §6), or the one line saying what is wrong. */
function profileArg(
  text: string,
  context: GenContext,
): ContractProfile | { readonly error: string } {
  try {
    return loadProfile(text, context.cwd === undefined ? {} : { cwd: context.cwd });
  } catch (e) {
    // ProfileError's message names the file, the key and what was expected, on one line.
    if (e instanceof ProfileError) return { error: e.message };
    throw e;
  }
}

const SIZES = ["xsmall", "small", "medium", "large", "xlarge", "huge"] as const;

const isStressKind = (k: string): k is StressKind => STRESS_KINDS.some((s) => s === k);

const kindList = z.string().transform((text, ctx) => {
  const kinds = text.split(",").map((k) => k.trim());
  const unknown = kinds.find((k) => !isStressKind(k));
  if (unknown === undefined) return [...new Set(kinds.filter(isStressKind))];
  const guess = didYouMean(unknown, STRESS_KINDS);
  ctx.addIssue({
    code: "custom",
    message: `--kinds: unknown kind "${unknown}"${guess ? `: did you mean ${guess}?` : ""} (expected a comma list of ${STRESS_KINDS.join(", ")})`,
  });
  return z.NEVER;
});

const OPERATIONS = new Map(Object.entries(CLI_OPERATIONS));
const OPERATION_NAMES = [...OPERATIONS.keys()];

/** The one operation among the arguments that are not flags. */
const operationArg = z.array(z.string()).transform((words, ctx) => {
  const [name, ...extra] = words;
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  const expected = `expected one of ${OPERATION_NAMES.join(", ")}`;
  if (name === undefined) return fail(`missing operation: ${expected}`);
  const operation = OPERATIONS.get(name);
  if (operation === undefined) {
    const guess = didYouMean(name, OPERATION_NAMES);
    return fail(
      `unknown operation "${name}"${guess ? `: did you mean ${guess}?` : ""} (${expected})`,
    );
  }
  if (extra.length > 0)
    return fail(`unexpected argument "${extra[0]}": idp-gen takes one operation ("${name}")`);
  return operation;
});

/**
 * idp-gen's options from its arguments: the operation, then the flags' values (each message names
 * its flag), then what holds between them, then the profile (a file is read last).
 */
const genSchema = (randomSeed: () => number, context: GenContext) =>
  z
    .object({
      operation: operationArg,
      invalid: z.boolean().optional(),
      stress: z.boolean().optional(),
      count: wholeNumber("--count", 1).default(10),
      seed: wholeNumber("--seed", -(2 ** 31), 2 ** 31 - 1).optional(),
      profile: z.string().optional(),
      "max-length": wholeNumber("--max-length", 0).optional(),
      size: oneOf("--size", SIZES).optional(),
      kinds: kindList.optional(),
      "max-depth": wholeNumber("--max-depth", 1).optional(),
      "max-string-length": wholeNumber("--max-string-length", 1).optional(),
      "max-keys": wholeNumber("--max-keys", 1).optional(),
      "max-array-length": wholeNumber("--max-array-length", 1).optional(),
      "max-body-bytes": wholeNumber("--max-body-bytes", MIN_STRESS_BODY_BYTES).optional(),
    })
    .transform((v, ctx) => {
      const fail = (message: string) => {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      };
      if (v.invalid && v.stress)
        return fail("--invalid and --stress cannot be combined: choose one");
      const mode: GenMode = v.invalid ? "invalid" : v.stress ? "stress" : "valid";
      for (const [flag, modes] of ONLY)
        if (v[flag] !== undefined && !modes.some((m) => m === mode))
          return fail(`--${flag} applies only to ${modes.map((m) => MODE_FLAG[m]).join(" and ")}`);
      if (mode === "valid" && v["max-body-bytes"] !== undefined && v.size !== "huge")
        return fail("--max-body-bytes applies to valid bodies only with --size huge");
      // Refused rather than ignored: huge bodies have sizes of their own, which only
      // --max-body-bytes cuts, so the flag would change nothing the user asked it to.
      if (v.size === "huge" && v["max-length"] !== undefined)
        return fail(
          "--max-length does not apply with --size huge: cut huge bodies with --max-body-bytes",
        );
      const profile = v.profile === undefined ? defaultProfile : profileArg(v.profile, context);
      if ("error" in profile) return fail(profile.error);
      const bodyBytes = v["max-body-bytes"];
      return {
        operation: v.operation,
        mode,
        count: v.count,
        seed: v.seed ?? randomSeed(),
        /** Whether the seed came from the command line (else it was drawn and should be printed). */
        seedGiven: v.seed !== undefined,
        profile,
        /** Passed to the valid-body arbitraries; `huge` picks the large ones (`largeValidBodyArb`). */
        valid: {
          ...(v["max-length"] !== undefined && { maxLength: v["max-length"] }),
          ...(v.size !== undefined && { size: v.size }),
          ...(mode === "valid" && bodyBytes !== undefined && { maxBodyBytes: bodyBytes }),
        },
        /** Passed to `stressBodyArb` (the profile is added). */
        stress: {
          ...(v.kinds !== undefined && { kinds: v.kinds }),
          ...(v["max-depth"] !== undefined && { maxDepth: v["max-depth"] }),
          ...(v["max-string-length"] !== undefined && { maxStringLength: v["max-string-length"] }),
          ...(v["max-keys"] !== undefined && { maxKeys: v["max-keys"] }),
          ...(v["max-array-length"] !== undefined && { maxArrayLength: v["max-array-length"] }),
          ...(mode === "stress" && bodyBytes !== undefined && { maxBodyBytes: bodyBytes }),
        },
      };
    });

/** idp-gen's options, as zod reads them from its arguments. */
export type GenOptions = z.output<ReturnType<typeof genSchema>>;

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
  if (asksForHelp(argv)) return "help";
  const end = argv.indexOf("--");
  if ((end < 0 ? argv : argv.slice(0, end)).includes("--version")) return "version";
  try {
    const { values, positionals } = readFlags(
      GEN_FLAGS,
      argv,
      {},
      { positionals: true, positionalHint: "idp-gen takes one operation" },
    );
    return parseFlagValues(genSchema(randomSeed, context), {
      ...values,
      operation: positionals,
    });
  } catch (e) {
    if (e instanceof CliError) throw new GeneratorError("E_USAGE", e.message, { cause: e });
    throw e;
  }
}

/** `idp-gen --help`: every option with its default, the output of each mode, and examples. */
export function helpText(version: string): string {
  const ops = Object.entries(CLI_OPERATIONS).map(([name, id]) => {
    const op = detailedOperations[id];
    return [name, `${op.method} ${op.path}`] as const;
  });
  const opWidth = Math.max(...ops.map(([name]) => name.length)) + 3;
  const modesNote = (name: string) => {
    const only = onlyIn(name);
    return only && `Only for ${only.map((m) => MODE_FLAG[m]).join(" and ")}.`;
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
    ...flagsHelp(GEN_FLAGS, undefined, 80, { layout: "stacked", note: modesNote }),
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
