import { z } from "zod";
import {
  BOUND_PATH_NAMES,
  BOUND_PATHS,
  BOUND_UNITS,
  type BoundedKind,
  type BoundPath,
  type Bounds,
  LIMITS_OF,
  operationOfBound,
} from "./bounds.ts";
import { didYouMean } from "./did-you-mean.ts";
import { ERRORS_ITEM_KINDS } from "./error-items.ts";
import { preview } from "./judges/problem.ts";
import {
  NAMED_NEIGHBOURS,
  NEIGHBOUR_METHODS,
  NEIGHBOUR_NAMES,
  type Neighbours,
} from "./neighbours.ts";
import { DETAILED_OPERATION_IDS, detailedOperations } from "./operations.ts";
import { ProfileError } from "./profile-error.ts";
import { isProfileKey, LOGIN_USER_KINDS, PROFILE_KEYS, type ProfileKey } from "./profile-keys.ts";
import {
  type BuiltInProfileName,
  type ContractProfile,
  type DocumentedStatuses,
  defaultProfile,
  deriveProfile,
  type LoginUserStatuses,
  type ProfileOverrides,
  profileValue,
  strictProfile,
} from "./profiles.ts";
import { VALUES_IN_USE_KEYS, type ValuesInUse } from "./values-in-use.ts";
import { type StatusMapping, VIOLATION_KINDS } from "./violations.ts";

// A profile file (conformance.md §6): JSON, every key but `name` optional, each replacing only what
// it names in the built-in profile it extends. statusMapping holds 400 or 422: the two statuses the
// spec documents for a bad request body (and the ones @idp/generators and the provider type).

/** The built-in profiles a file may extend. */
export const BUILT_IN_PROFILES: { readonly [N in BuiltInProfileName]: ContractProfile } = {
  default: defaultProfile,
  strict: strictProfile,
};

const distinct = (values: readonly unknown[]) => new Set(values).size === values.length;
const byKeys = <K extends string, T extends z.ZodType>(keys: readonly K[], value: T) =>
  z.strictObject(
    Object.fromEntries(keys.map((k) => [k, value.optional()])) as { [P in K]: z.ZodOptional<T> },
  );

const Status = z.int().min(100).max(599);
const ClientErrorStatus = z.literal([400, 422]);
const StatusList = z.array(Status).refine(distinct);

/** A bound for what is at a path: only the limits that fit it, at least one, and the status. */
const boundSchema = (kind: BoundedKind) => {
  const limits = LIMITS_OF[kind];
  const count = z.int().min(0);
  return (
    z
      .strictObject({
        ...(limits.includes("maxLength")
          ? { maxLength: count.optional(), unit: z.enum(BOUND_UNITS).optional() }
          : {}),
        ...(limits.includes("maxItems") ? { maxItems: count.optional() } : {}),
        ...(limits.includes("minimum") ? { minimum: z.number().optional() } : {}),
        ...(limits.includes("maximum") ? { maximum: z.number().optional() } : {}),
        status: ClientErrorStatus,
      })
      .refine((b) => limits.some((l) => (b as Record<string, unknown>)[l] !== undefined))
      // A unit counts maxLength: without it, it counts nothing.
      .refine((b) => {
        const r = b as { unit?: unknown; maxLength?: unknown };
        return r.unit === undefined || r.maxLength !== undefined;
      })
      .refine((b) => {
        const r = b as { minimum?: number; maximum?: number };
        return r.minimum === undefined || r.maximum === undefined || r.minimum <= r.maximum;
      })
  );
};

/** A neighbour's request: its method, and a path with `{name}` as one whole segment if it names a schema. */
const neighbourSchema = (named: boolean) =>
  z.strictObject({
    method: z.enum(NEIGHBOUR_METHODS),
    path: z
      .string()
      .refine((p) => p.startsWith("/") && !/[?#]/.test(p))
      .refine((p) =>
        named
          ? p.split("{name}").length === 2 && /\/\{name\}(\/|$)/.test(p)
          : !p.includes("{name}"),
      ),
  });

/**
 * The evidence of one learned key (conformance.md §6, "Learning a profile"): the check whose rule
 * it concerns, what was seen in one line, and one request and its answer, secrets redacted.
 */
export const LearnedSource = z.strictObject({
  check: z.string().refine((s) => s.trim() !== ""),
  seen: z.string(),
  request: z.string(),
  answer: z.string(),
});
export type LearnedSource = z.infer<typeof LearnedSource>;
const SOURCE_KEYS = Object.keys(LearnedSource.shape);

/** The zod schema of a profile file (conformance.md §6). */
export const ProfileFile = z.strictObject({
  name: z.string().refine((s) => s.trim() !== ""),
  extends: z.enum(["default", "strict"]).optional(),
  description: z.string().optional(),
  documentedStatuses: byKeys(DETAILED_OPERATION_IDS, StatusList).optional(),
  statusMapping: byKeys(
    DETAILED_OPERATION_IDS,
    byKeys(VIOLATION_KINDS, ClientErrorStatus),
  ).optional(),
  loginUserStatuses: byKeys(LOGIN_USER_KINDS, z.int().min(400).max(499)).optional(),
  errorsItems: z.array(z.enum(ERRORS_ITEM_KINDS)).min(1).refine(distinct).optional(),
  valuesInUse: byKeys(VALUES_IN_USE_KEYS, z.array(z.string()).min(1).refine(distinct)).optional(),
  bounds: z
    .strictObject(
      Object.fromEntries(
        BOUND_PATH_NAMES.map((path) => [path, boundSchema(BOUND_PATHS[path]).optional()]),
      ) as { [P in BoundPath]: z.ZodOptional<ReturnType<typeof boundSchema>> },
    )
    .optional(),
  neighbours: z
    .strictObject({
      getSchema: neighbourSchema(true).optional(),
      removeSchema: neighbourSchema(true).optional(),
      getClusteringRules: neighbourSchema(false).optional(),
    } satisfies Record<(typeof NEIGHBOUR_NAMES)[number], unknown>)
    .optional(),
  /** Per key the file sets, the evidence it was learned from (`idp-verify --learn`). */
  sources: z.record(z.string(), LearnedSource).optional(),
});
export type ProfileFile = z.infer<typeof ProfileFile>;

const TOP_KEYS = Object.keys(ProfileFile.shape);
const UNITS = BOUND_UNITS.map((u) => JSON.stringify(u)).join(", ");
const OPS = DETAILED_OPERATION_IDS.join(", ");
const KINDS = VIOLATION_KINDS.join(", ");

/** What the key at `path` of a profile file holds, said for a message. */
function expectedAt(path: readonly PropertyKey[]): string {
  const [top] = path;
  const depth = path.length;
  switch (top) {
    case undefined:
      return "a JSON object with at least `name` (conformance.md §6)";
    case "name":
      return "a non-empty string (required)";
    case "extends":
      return '"default" or "strict" (a built-in profile)';
    case "description":
      return "a string";
    case "documentedStatuses":
      if (depth === 1) return `an object keyed by operation (${OPS})`;
      if (depth === 2) return "an array of distinct statuses (integers 100-599)";
      return "a status (an integer 100-599)";
    case "statusMapping":
      if (depth === 1) return `an object keyed by operation (${OPS})`;
      if (depth === 2) return `an object keyed by violation kind (${KINDS})`;
      return "400 or 422 (the statuses the spec documents for a bad request body)";
    case "loginUserStatuses":
      if (depth === 1) return "an object with `unknown` and/or `otherLoginApp`";
      return "a 4xx status (an integer 400-499)";
    case "errorsItems":
      if (depth === 1) return 'a non-empty array of distinct "string" and/or "object"';
      return '"string" or "object"';
    case "valuesInUse":
      if (depth === 1) return `an object keyed by ${VALUES_IN_USE_KEYS.join(" and/or ")}`;
      if (depth === 2) return "a non-empty array of distinct strings";
      return "a string";
    case "bounds": {
      if (depth === 1) return "an object keyed by field path (e.g. schema.name, rules.features)";
      const kind = BOUND_PATHS[path[1] as BoundPath];
      const limits = kind ? LIMITS_OF[kind] : [];
      if (depth === 2) {
        const what =
          kind === "map"
            ? "maxItems (the most keys of the map)"
            : kind === "array"
              ? "maxItems (the most items of the array)"
              : kind === "string"
                ? `maxLength (the most code points, or what unit counts: ${UNITS})`
                : `minimum and/or maximum (${kind}s, minimum <= maximum)`;
        const keys = kind === "string" ? [...limits, "unit"] : limits;
        return `{${keys.join(", ")}, status}: ${what} and status 400 or 422`;
      }
      if (path[2] === "status")
        return "400 or 422 (the statuses the spec documents for a bad request body)";
      if (path[2] === "unit")
        return `${UNITS} (what maxLength counts: code points, UTF-16 units or UTF-8 bytes)`;
      return "a whole number >= 0 (a limit)";
    }
    case "sources":
      if (depth === 1)
        return "an object keyed by the profile keys the file sets, each {check, seen, request, answer} (idp-verify --learn writes it)";
      if (depth === 2)
        return "{check, seen, request, answer}: the check id, what was seen, one request and its answer";
      return path[2] === "check" ? "a check id (a non-empty string)" : "a string";
    case "neighbours":
      if (depth === 1) return `an object keyed by neighbour (${NEIGHBOUR_NAMES.join(", ")})`;
      if (depth === 2) return "an object with `method` and `path` (conformance.md §8)";
      if (path[2] === "method") return NEIGHBOUR_METHODS.join(", ");
      return NAMED_NEIGHBOURS.includes(path[1] as never)
        ? "a path under the base address starting with /, with {name} once as a whole segment"
        : "a path under the base address starting with /, without {name}";
    default:
      return "a key of a profile file";
  }
}

/** The names a key at `parent` may have: the candidates of an "unknown key" message. */
function keysAt(parent: readonly PropertyKey[]): { what: string; keys: readonly string[] } {
  const [top] = parent;
  if (parent.length === 0) return { what: "a key of a profile file", keys: TOP_KEYS };
  if (top === "documentedStatuses" || (top === "statusMapping" && parent.length === 1))
    return { what: "an operation", keys: DETAILED_OPERATION_IDS };
  if (top === "statusMapping") return { what: "a violation kind", keys: VIOLATION_KINDS };
  if (top === "loginUserStatuses") return { what: "a login-user case", keys: LOGIN_USER_KINDS };
  if (top === "bounds" && parent.length === 1)
    return { what: "a field path", keys: BOUND_PATH_NAMES };
  if (top === "bounds") {
    const kind = BOUND_PATHS[parent[1] as BoundPath];
    return {
      what: `a limit of ${String(parent[1])}`,
      keys: [...(kind ? LIMITS_OF[kind] : []), ...(kind === "string" ? ["unit"] : []), "status"],
    };
  }
  if (top === "sources") return { what: "a source's key", keys: SOURCE_KEYS };
  if (top === "neighbours" && parent.length === 1)
    return { what: "a neighbour", keys: NEIGHBOUR_NAMES };
  if (top === "neighbours") return { what: "a neighbour's key", keys: ["method", "path"] };
  return { what: "a values-in-use key", keys: VALUES_IN_USE_KEYS };
}

/** Renders a path the way the file names it: `documentedStatuses.createSchema[2]`. */
function keyOf(path: readonly PropertyKey[]): string {
  return path
    .map((seg, i) =>
      typeof seg === "number" ? `[${seg}]` : i === 0 ? String(seg) : `.${String(seg)}`,
    )
    .join("");
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const seg of path) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, seg)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[seg];
  }
  return node;
}

function issueToError(file: string, json: unknown, issue: z.core.$ZodIssue): ProfileError {
  const path = issue.path;
  if (issue.code === "unrecognized_keys") {
    const unknown = issue.keys[0] ?? "";
    const { what, keys } = keysAt(path);
    const close = didYouMean(unknown, keys);
    return new ProfileError({
      file,
      key: keyOf([...path, unknown]),
      expected: `${what} (${keys.join(", ")})`,
      received: "an unknown key",
      note: close === undefined ? undefined : `did you mean "${close}"?`,
    });
  }
  const value = valueAt(json, path);
  const received = value === undefined ? "nothing" : preview(value);
  const close =
    path.length === 1 && path[0] === "extends" && typeof value === "string"
      ? didYouMean(value, ["default", "strict"])
      : undefined;
  return new ProfileError({
    file,
    key: path.length === 0 ? undefined : keyOf(path),
    expected: expectedAt(path),
    received,
    note: close === undefined ? undefined : `did you mean "${close}"?`,
  });
}

/** The overrides a parsed file makes to its base, and the profile keys it names. */
function overridesOf(
  parsed: ProfileFile,
  base: ContractProfile,
  file: string,
): { overrides: ProfileOverrides; named: ReadonlySet<ProfileKey> } {
  const statusMapping = Object.fromEntries(
    DETAILED_OPERATION_IDS.map((op) => [
      op,
      { ...base.statusMapping[op], ...parsed.statusMapping?.[op] },
    ]),
  ) as StatusMapping;
  const documentedStatuses = {
    ...base.documentedStatuses,
    ...parsed.documentedStatuses,
  } as DocumentedStatuses;
  const overrides: ProfileOverrides = {
    name: parsed.name,
    description:
      parsed.description ?? `The profile file ${file} (extends ${parsed.extends ?? "default"}).`,
    documentedStatuses,
    statusMapping,
    loginUserStatuses: {
      ...base.loginUserStatuses,
      ...parsed.loginUserStatuses,
    } as LoginUserStatuses,
    errorsItems: parsed.errorsItems ?? base.errorsItems,
    valuesInUse: { ...base.valuesInUse, ...parsed.valuesInUse } as ValuesInUse,
    neighbours: { ...base.neighbours, ...parsed.neighbours } as Neighbours,
    bounds: { ...base.bounds, ...parsed.bounds } as Bounds,
  };
  const named = new Set(
    PROFILE_KEYS.filter((key) => {
      const [head, ...rest] = key.split(".");
      if (head === "errorsItems") return parsed.errorsItems !== undefined;
      if (head === "valuesInUse")
        return valueAt(parsed.valuesInUse, [rest.join(".")]) !== undefined;
      if (head === "bounds") return valueAt(parsed.bounds, [rest.join(".")]) !== undefined;
      return valueAt(parsed, [head ?? "", ...rest]) !== undefined;
    }),
  );
  return { overrides, named };
}

/**
 * R3 must allow what R1, R4, R5 and R7 assert, or no provider could pass: each operation's
 * documented statuses include its success status, 401, every pinned 4xx, and for push the
 * login-user statuses. Blames the key the file set.
 */
function consistencyError(
  profile: ContractProfile,
  named: ReadonlySet<ProfileKey>,
  file: string,
): ProfileError | undefined {
  for (const path of BOUND_PATH_NAMES) {
    const bound = profile.bounds[path];
    const op = operationOfBound(path);
    if (bound && !profile.documentedStatuses[op].includes(bound.status))
      return new ProfileError({
        file,
        key: `bounds.${path}.status`,
        expected: `a status ${op} documents (${profile.documentedStatuses[op].join(", ")})`,
        received: String(bound.status),
        note: "R3 and R5 would contradict each other",
      });
  }
  for (const op of DETAILED_OPERATION_IDS) {
    const docKey = `documentedStatuses.${op}` as const;
    const documented = profile.documentedStatuses[op];
    const required: [number, ProfileKey | undefined, string][] = [
      [detailedOperations[op].successStatus, undefined, "the success status R4 asserts"],
      [401, undefined, "the status R1 asserts"],
      ...[...profile.asserted].map((kind): [number, ProfileKey, string] => [
        profile.statusMapping[op][kind],
        `statusMapping.${op}.${kind}`,
        `statusMapping.${op}.${kind} is ${profile.statusMapping[op][kind]}`,
      ]),
      ...(op === "pushToUserDevices"
        ? LOGIN_USER_KINDS.map((kind): [number, ProfileKey, string] => [
            profile.loginUserStatuses[kind],
            `loginUserStatuses.${kind}`,
            `loginUserStatuses.${kind} is ${profile.loginUserStatuses[kind]}`,
          ])
        : []),
    ];
    for (const [status, key, why] of required) {
      if (documented.includes(status)) continue;
      if (key !== undefined && (named.has(key) || !named.has(docKey)))
        return new ProfileError({
          file,
          key,
          expected: `a status ${docKey} lists (${documented.join(", ")})`,
          received: String(status),
          note: `add ${status} to ${docKey} too, or R3 and ${key.startsWith("status") ? "R5" : "R7"} contradict each other`,
        });
      return new ProfileError({
        file,
        key: docKey,
        expected: `a list that includes ${status} (${why})`,
        received: preview(documented),
      });
    }
  }
  return undefined;
}

/**
 * The profile a parsed profile file describes (conformance.md §6): its built-in base (`extends`,
 * default `"default"`) with each key the file names replaced; those keys get the source
 * `{ source: "profile", ref: "<file>: <key>" }`. Throws a {@link ProfileError} (one line naming
 * `file`, the key and what was expected) when the file is not a valid profile.
 */
export function profileFromFile(json: unknown, file: string): ContractProfile {
  const result = ProfileFile.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    if (issue === undefined) throw new ProfileError({ file, expected: "a valid profile" });
    throw issueToError(file, json, issue);
  }
  const parsed = result.data;
  const base = BUILT_IN_PROFILES[parsed.extends ?? "default"];
  const { overrides, named } = overridesOf(parsed, base, file);
  const sources = parsed.sources ?? {};
  for (const key of Object.keys(sources))
    if (!isProfileKey(key) || !named.has(key)) {
      const close = didYouMean(key, [...named]);
      throw new ProfileError({
        file,
        key: `sources.${key}`,
        expected: `a key this file sets (${[...named].join(", ") || "it sets none"})`,
        received: isProfileKey(key)
          ? "a source for a key the file does not set"
          : "not a profile key",
        note: close === undefined ? undefined : `did you mean "${close}"?`,
      });
    }
  // A learned key's source names its evidence too: a later failure says where the key came from.
  const refOf = (key: ProfileKey) => {
    const learned = sources[key];
    return learned
      ? `${file}: ${key} (learned by ${learned.check}: ${learned.seen})`
      : `${file}: ${key}`;
  };
  const profile = deriveProfile(base, overrides, (key) =>
    named.has(key) ? { source: "profile", ref: refOf(key) } : undefined,
  );
  const inconsistent = consistencyError(profile, named, file);
  if (inconsistent) throw inconsistent;
  return profile;
}

/**
 * The profile file of a profile: its name, `extends`, description and every key whose source is
 * `profile`, in the file's nesting. `profileFromFile(profileToFile(p), file)` reads the same profile.
 */
export function profileToFile(profile: ContractProfile): ProfileFile {
  const out: Record<string, unknown> = {
    name: profile.name,
    extends: profile.builtIn,
    description: profile.description,
  };
  for (const key of PROFILE_KEYS) {
    if (profile.sources[key].source !== "profile") continue;
    const [head = "", ...rest] = key.split(".");
    const path =
      head === "valuesInUse" || head === "bounds" ? [head, rest.join(".")] : [head, ...rest];
    let node = out;
    for (const seg of path.slice(0, -1)) {
      node[seg] ??= {};
      node = node[seg] as Record<string, unknown>;
    }
    node[path[path.length - 1] ?? ""] = profileValue(profile, key);
  }
  return out as ProfileFile;
}
