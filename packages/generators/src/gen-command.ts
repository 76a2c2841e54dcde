import { parseArgs } from "node:util";
import {
  type ContractProfile,
  type DetailedOperationId,
  defaultProfile,
  strictProfile,
} from "@idp/contracts";
import fc from "fast-check";
import { GeneratorError } from "./errors.ts";
import { invalidBodyArb } from "./invalid-body.ts";
import { validBodyArb } from "./valid-body.ts";

/** CLI operation names (conformance.md §5) and the operations they stand for. */
export const CLI_OPERATIONS: Readonly<Record<string, DetailedOperationId>> = {
  "create-schema": "createSchema",
  push: "pushToUserDevices",
  "clustering-rules": "updateClusteringRules",
};

const PROFILES: Readonly<Record<string, ContractProfile>> = {
  default: defaultProfile,
  strict: strictProfile,
};

export interface GenOptions {
  readonly operation: DetailedOperationId;
  readonly invalid: boolean;
  readonly count: number;
  readonly seed: number;
  /** Whether the seed came from the command line (else it was drawn and should be printed). */
  readonly seedGiven: boolean;
  readonly profile: ContractProfile;
}

export const USAGE =
  "usage: idp-gen <create-schema | push | clustering-rules> [--invalid] [--count N] [--seed S] [--profile default|strict]";

const usageError = (message: string) => new GeneratorError("E_USAGE", message);

function integerFlag(flag: string, text: string, min: number, max: number): number {
  const n = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw usageError(`--${flag}: expected an integer from ${min} to ${max}, got "${text}"`);
  return n;
}

/**
 * Reads idp-gen's argv into options; `randomSeed` supplies the seed when `--seed` is absent.
 * @throws GeneratorError `E_USAGE` with a one-line message naming the flag.
 */
export function parseGenArgs(
  argv: readonly string[],
  randomSeed: () => number,
): GenOptions | "help" {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    // node's messages go on with advice about `--`; the first sentence names the flag
    const first = (e as Error).message.split(/\.\s/)[0] ?? "bad arguments";
    throw usageError(`${first}: expected --invalid, --count N, --seed S, --profile default|strict`);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  const [name, ...extra] = positionals;
  if (name === undefined)
    throw usageError(
      `missing operation: expected one of ${Object.keys(CLI_OPERATIONS).join(", ")}`,
    );
  const operation = CLI_OPERATIONS[name];
  if (operation === undefined)
    throw usageError(
      `unknown operation "${name}": expected one of ${Object.keys(CLI_OPERATIONS).join(", ")}`,
    );
  if (extra.length > 0) throw usageError(`unexpected argument "${extra[0]}"`);
  const profile = PROFILES[values.profile ?? "default"];
  if (profile === undefined)
    throw usageError(`--profile: expected default or strict, got "${values.profile}"`);
  const seedGiven = values.seed !== undefined;
  return {
    operation,
    invalid: values.invalid ?? false,
    count:
      values.count === undefined
        ? 10
        : integerFlag("count", values.count, 0, Number.MAX_SAFE_INTEGER),
    seed:
      values.seed === undefined
        ? randomSeed()
        : integerFlag("seed", values.seed, -(2 ** 31), 2 ** 31 - 1),
    seedGiven,
    profile,
  };
}

// parseArgs reads "--seed -7" as a missing value; a negative number after a value flag is its value.
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const next = argv[i + 1];
    if ((arg === "--seed" || arg === "--count") && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: joinNegativeValues(argv),
    allowPositionals: true,
    strict: true,
    options: {
      invalid: { type: "boolean" },
      count: { type: "string" },
      seed: { type: "string" },
      profile: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

// fc.sample holds its whole run in memory, so long runs are drawn in chunks with derived seeds.
// Chunk 0 uses the seed itself: the first lines equal fc.sample(arb, { seed, numRuns }).
const CHUNK = 1000;

/** The NDJSON lines of `idp-gen`, lazily: the same options always give the same lines. */
export function* genLines(options: GenOptions): Generator<string> {
  const arb: fc.Arbitrary<unknown> = options.invalid
    ? invalidBodyArb(options.operation, { profile: options.profile }).map((c) => ({
        body: c.body,
        raw: c.raw,
        expectedStatus: c.expectedStatus,
        violation: c.violation,
        kind: c.kind,
        path: c.path,
      }))
    : validBodyArb(options.operation, { profile: options.profile });
  for (let done = 0, chunk = 0; done < options.count; chunk++) {
    const numRuns = Math.min(CHUNK, options.count - done);
    const seed = chunk === 0 ? options.seed : (options.seed ^ Math.imul(chunk, 0x9e3779b1)) | 0;
    for (const value of fc.sample(arb, { seed, numRuns })) yield JSON.stringify(value);
    done += numRuns;
  }
}
