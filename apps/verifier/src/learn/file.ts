import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import {
  BOUND_PATH_NAMES,
  DETAILED_OPERATION_IDS,
  LOGIN_USER_KINDS,
  NEIGHBOUR_NAMES,
  PROFILE_KEYS,
  ProfileError,
  profileFromFile,
  VALUES_IN_USE_KEYS,
  VIOLATION_KINDS,
} from "@idp/contracts";
import { VerifyError } from "../errors.ts";
import { asWriteError, makeDirs } from "../writable.ts";
import type { LearnedKey, NotLearned } from "./types.ts";

// The learned profile file (conformance.md §6): the profile in use (a built-in, or the file itself,
// its sources included) with the learned keys set and the dropped ones left out, every object's
// keys in one fixed order, so the same provider and seed write the same bytes. It is read back
// with the profile schema before it is written: a file the next run could not load is never left.

type Json = Record<string, unknown>;

/** The order of each object's keys in the file. */
const TOP = [
  "name",
  "extends",
  "description",
  "documentedStatuses",
  "statusMapping",
  "loginUserStatuses",
  "errorsItems",
  "valuesInUse",
  "bounds",
  "neighbours",
  "sources",
];
const BOUND_KEYS = ["maxLength", "unit", "maxItems", "minimum", "maximum", "status"];
const SOURCE_KEYS = ["check", "seen", "request", "answer"];

const ordered = (
  o: unknown,
  keys: readonly string[],
  inner?: (k: string, v: unknown) => unknown,
) =>
  o === undefined
    ? undefined
    : Object.fromEntries(
        [
          ...keys.filter((k) => Object.hasOwn(o as Json, k)),
          ...Object.keys(o as Json)
            .filter((k) => !keys.includes(k))
            .sort(),
        ].map((k) => [k, inner ? inner(k, (o as Json)[k]) : (o as Json)[k]]),
      );

/** The file's JSON in its fixed order (numbers in lists ascending, as the learner writes them). */
function inOrder(file: Json): Json {
  const out: Json = {};
  for (const top of TOP) {
    const v = file[top];
    if (v === undefined) continue;
    switch (top) {
      case "documentedStatuses":
        out[top] = ordered(v, DETAILED_OPERATION_IDS);
        break;
      case "statusMapping":
        out[top] = ordered(v, DETAILED_OPERATION_IDS, (_, m) => ordered(m, VIOLATION_KINDS));
        break;
      case "loginUserStatuses":
        out[top] = ordered(v, LOGIN_USER_KINDS);
        break;
      case "valuesInUse":
        out[top] = ordered(v, VALUES_IN_USE_KEYS);
        break;
      case "bounds":
        out[top] = ordered(v, BOUND_PATH_NAMES, (_, b) => ordered(b, BOUND_KEYS));
        break;
      case "neighbours":
        out[top] = ordered(v, NEIGHBOUR_NAMES, (_, n) => ordered(n, ["method", "path"]));
        break;
      case "sources":
        out[top] = ordered(v, PROFILE_KEYS, (_, s) => ordered(s, SOURCE_KEYS));
        break;
      default:
        out[top] = v;
    }
  }
  return out;
}

/** Sets (or with `undefined`, removes) a profile key in a file's JSON. */
function setKey(file: Json, key: string, value: unknown): void {
  const [head = "", ...rest] = key.split(".");
  const path =
    head === "valuesInUse" || head === "bounds" ? [head, rest.join(".")] : [head, ...rest];
  let node = file;
  for (const seg of path.slice(0, -1)) {
    node[seg] = { ...((node[seg] as Json | undefined) ?? {}) };
    node = node[seg] as Json;
  }
  const last = path[path.length - 1] ?? "";
  if (value === undefined) delete node[last];
  else node[last] = value;
}

/** The JSON text of the learned profile file. */
export function learnedFileText(options: {
  /** The profile in use: a built-in name, or the path of its file. */
  readonly profileArg: string;
  readonly builtIn: "default" | "strict";
  readonly cwdPath: (p: string) => string;
  readonly seed: number;
  readonly runs: number;
  readonly learned: readonly LearnedKey[];
  readonly notLearned: readonly NotLearned[];
  /** Where it will be written (named in a message if it would not load). */
  readonly path: string;
}): string {
  const fromFile = options.profileArg !== "default" && options.profileArg !== "strict";
  const file: Json = fromFile
    ? (JSON.parse(readFileSync(options.cwdPath(options.profileArg), "utf8")) as Json)
    : {
        name: "learned",
        extends: options.builtIn,
        description: `What idp-verify --learn saw this provider do consistently where the spec leaves a gap (seed ${options.seed}, ${options.runs} runs per check); each key's evidence is under "sources". Review it, then commit it and verify with --profile.`,
      };
  const sources: Json = { ...((file.sources as Json | undefined) ?? {}) };
  for (const n of options.notLearned)
    if (n.kind === "dropped") {
      setKey(file, n.subject, undefined);
      delete sources[n.subject];
    }
  for (const { key, value, source } of options.learned) {
    setKey(file, key, value);
    sources[key] = source;
  }
  if (Object.keys(sources).length > 0) file.sources = sources;
  else delete file.sources;
  for (const top of ["bounds", "valuesInUse", "statusMapping"])
    if (file[top] && Object.keys(file[top] as Json).length === 0) delete file[top];
  const json = inOrder(file);
  try {
    profileFromFile(json, options.path);
  } catch (e) {
    // A learner's bug, never the provider's: said as such (exit 2), and nothing is written.
    if (e instanceof ProfileError)
      throw new VerifyError(
        "E_LEARN",
        `--learn ${options.path}: the learned profile would not load (${e.message}); nothing was written`,
      );
    throw e;
  }
  return `${JSON.stringify(json, null, 2)}\n`;
}

export function writeLearned(path: string, text: string): void {
  asWriteError("E_LEARN", `--learn: cannot write the learned profile to ${path}`, () => {
    makeDirs(dirname(path));
    writeFileSync(path, text);
  });
}
