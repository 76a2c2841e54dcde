import type { z } from "zod";
import {
  type BodyClassification,
  type BodyViolation,
  type BodyViolationKind,
  classifyJsonBody,
} from "./classify-body.ts";
import { didYouMean } from "./did-you-mean.ts";
import { formatPath, type JsonPath } from "./json-path.ts";
import { type DetailedOperationId, detailedOperations } from "./operations.ts";
import {
  type ContractProfile,
  defaultProfile,
  requestShapeFor,
  strictProfile,
} from "./profiles.ts";
import type { RuleSource } from "./rules.ts";
import { SPEC_VIOLATION_KINDS, type ViolationKind } from "./violations.ts";

// Property-testing a consumer's payload builder: `fc.assert(fc.property(input, (i) =>
// assertValidRequestBody("pushToUserDevices", build(i))))`. fast-check prints the builder's input
// as the counterexample; the message printed with it is this module's, and names the body that was
// built, so the failure reads without re-running the builder by hand.

/** Options of {@link assertValidRequestBody} and the `toBeValidRequestBody` matcher. */
export interface BodyAssertionOptions {
  /**
   * How bodies are read (conformance.md §6). Without it, the builders' reading: the default profile,
   * and also no key beyond the tabulated ones and no value beyond those in use (a misspelt
   * `uniqe: true` or `type: "float"` is a builder bug, whatever a provider would do with it). Pass
   * `defaultProfile` to accept those (the spec is silent on them), or any other profile to read
   * bodies as it does.
   * @defaultValue the builders' reading
   */
  readonly profile?: ContractProfile;
  /**
   * Accept a body the profile calls `unspecified` for a missing field (the spec is silent, so a
   * provider may accept or refuse it). Off by default: a builder that drops a tabulated field is a
   * builder bug, whatever a provider would do with it. Unknown keys and values beyond those in use
   * are accepted only with an explicit `profile`.
   * @defaultValue false
   */
  readonly allowUnspecified?: boolean;
}

/** What one body broke: enough to act on without re-running anything. */
export interface BodyFinding {
  readonly operation: DetailedOperationId;
  readonly outcome: "invalid" | "unspecified";
  /** The status a conforming provider answers (invalid) or may answer (unspecified). */
  readonly status: number;
  readonly kind: BodyViolationKind;
  /** Where in the body, e.g. `data.vibrate_duration`; `(body)` for the whole body. */
  readonly path: string;
  /** The value found there, as JSON (`absent` for a missing key). */
  readonly received: string;
  /** What the contract expects there, in words. */
  readonly expected: string;
  /** The rule that the value breaks, in words. */
  readonly rule: string;
  readonly source: RuleSource;
  /** The body as it goes on the wire (JSON text; `undefined` keys dropped, as JSON.stringify does). */
  readonly body: string;
}

/** Thrown by {@link assertValidRequestBody}; its message is the whole finding. */
export class BodyAssertionError extends Error {
  readonly finding: BodyFinding;
  constructor(finding: BodyFinding) {
    super(describeFinding(finding));
    this.name = "BodyAssertionError";
    this.finding = finding;
  }
}

const RULE_OF: { readonly [K in BodyViolationKind]: string } = {
  "not-json": "the body is JSON",
  "not-object": "the body is a JSON object",
  "wrapper-missing": "the body holds its wrapper key",
  "wrapper-not-object": "the wrapper key holds a JSON object",
  "wrong-type": "every tabulated field has its tabulated JSON type",
  "missing-field": "every tabulated field but `unique` and `excluded_words` is present",
  "unknown-key": "no key beyond the tabulated ones",
  "value-not-in-use": "values are among the values in use",
  "out-of-bounds": "values stay within the profile's bounds",
};

/** Where a violation kind is stated: the spec, our pinned reading, or the profile's own reading. */
function sourceOf(violation: BodyViolation, profile: ContractProfile): RuleSource {
  const kind = violation.kind;
  if (violation.bound) return profile.sourceOf(`bounds.${violation.bound.key}`);
  if (kind !== "out-of-bounds" && SPEC_VIOLATION_KINDS.includes(kind))
    return {
      source: "spec",
      ref: "service-interface.md: Resources and their fields; conformance.md §2",
    };
  if (kind === "missing-field" && !profile.asserted.has(kind))
    return { source: "pinned", ref: "conformance.md §2 (required-ness is not shown)" };
  return { source: "profile", ref: `${profile.name}: ${kind} (conformance.md §6)` };
}

const MAX_RECEIVED = 120;

function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a fraction";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}

function receivedAt(body: unknown, path: JsonPath, kind: BodyViolationKind): string {
  if (kind === "missing-field") return "absent";
  let node: unknown = body;
  for (const seg of path) node = (node as Record<string | number, unknown> | undefined)?.[seg];
  if (node === undefined) return "absent";
  const text = JSON.stringify(node);
  const cut = text.length > MAX_RECEIVED ? `${text.slice(0, MAX_RECEIVED)}…` : text;
  return `${cut} (${jsonKind(node)})`;
}

// zod's type words (`expected string`) in plain words.
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  record: "an object",
};

/** The keys the contract tabulates for the object at `path` (walking the zod shape). */
function tabulatedKeys(shape: z.ZodType, path: JsonPath): string[] {
  let node: unknown = shape;
  const defOf = (n: unknown) =>
    (n as { _zod?: { def?: Record<string, unknown> & { type?: string } } })?._zod?.def;
  const unwrap = () => {
    for (
      let def = defOf(node);
      def && (def.type === "optional" || def.type === "nullable");
      def = defOf(node)
    )
      node = def.innerType;
  };
  for (const seg of path) {
    unwrap();
    const def = defOf(node);
    if (def?.type === "object") node = (def.shape as Record<string, unknown>)[String(seg)];
    else if (def?.type === "array") node = def.element;
    else if (def?.type === "record") node = def.valueType;
    else return [];
  }
  unwrap();
  const def = defOf(node);
  return def?.type === "object" ? Object.keys(def.shape as Record<string, unknown>) : [];
}

/**
 * What the contract expects at the violation's place, in plain words (what was received is
 * reported on its own).
 */
function expectedAt(v: BodyViolation, operation: DetailedOperationId): string {
  const wrapper = detailedOperations[operation].wrapperKey;
  switch (v.kind) {
    case "not-json":
      return "a JSON object";
    case "not-object":
      return `a JSON object, {"${wrapper}": {...}}`;
    case "wrapper-missing":
      return `a "${wrapper}" key holding a JSON object`;
    case "wrapper-not-object":
      return "a JSON object";
    case "missing-field":
      return "present (the spec tabulates this field)";
    case "unknown-key": {
      const keys = tabulatedKeys(requestShapeFor(defaultProfile, operation), v.path.slice(0, -1));
      const close = didYouMean(String(v.path.at(-1)), keys);
      return `no such key: ${formatPath(v.path.slice(0, -1))} has only ${keys.join(", ")}${close ? ` (did you mean ${close}?)` : ""}`;
    }
    case "out-of-bounds": {
      // The bound's words, "65 code points, the most is 64": "at most 64 code points".
      const m = /^(?:.*?: )?[\d.e+-]+( [^,]+)?, the (most|least) is (.+)$/.exec(v.message);
      return m ? `at ${m[2]} ${m[3]}${m[1] ?? ""} (the profile's bound)` : v.message;
    }
    default: {
      const prefix = `${formatPath(v.path)}: `;
      const text = v.message.startsWith(prefix) ? v.message.slice(prefix.length) : v.message;
      const oneOf = /expected one of (.+)$/.exec(text);
      if (oneOf?.[1]) return `one of ${oneOf[1].split("|").join(", ")} (the values in use)`;
      const bound = /expected \w+ to be ([<>])=?(.+)$/.exec(text);
      if (bound?.[2]) return `${bound[1] === "<" ? "at most" : "at least"} ${bound[2]}`;
      const word = /expected (.+?)(?:, received .*)?$/i.exec(text)?.[1] ?? text;
      return TYPE_WORDS[word] ?? (/^"[^"]*"$/.test(word) ? `${word} (the value in use)` : word);
    }
  }
}

/** Kinds the builders' reading fails on beyond the default profile (see BodyAssertionOptions). */
const BUILDER_KINDS: ReadonlySet<BodyViolationKind> = new Set(["unknown-key", "value-not-in-use"]);

/** The first unknown key or value beyond those in use (a value-in-use field, not a bound). */
function builderViolation(
  operation: DetailedOperationId,
  sent: unknown,
): BodyViolation | undefined {
  const strict = classifyJsonBody(operation, sent, strictProfile);
  if (strict.outcome === "valid") return undefined;
  return strict.violations.find(
    (v) => BUILDER_KINDS.has(v.kind) && (v.kind === "unknown-key" || v.path.at(-1) === "type"),
  );
}

/**
 * Judges a body a consumer built, as the provider will receive it (`JSON.stringify`'s output: a
 * `NaN` becomes `null`, an `undefined` key disappears). `undefined` when a conforming provider must
 * accept it; otherwise the first violation, with the received value, the rule and its source.
 */
export function findBodyProblem(
  operation: DetailedOperationId,
  body: unknown,
  options: BodyAssertionOptions = {},
): BodyFinding | undefined {
  const profile = options.profile ?? defaultProfile;
  let wire: string | undefined;
  try {
    wire = JSON.stringify(body);
  } catch (e) {
    return {
      operation,
      outcome: "invalid",
      status: profile.statusMapping[operation]["not-json"],
      kind: "not-json",
      path: formatPath([]),
      received: `a value JSON.stringify refuses (${(e as Error).message})`,
      expected: "a JSON value",
      rule: RULE_OF["not-json"],
      source: sourceOf({ kind: "not-json", path: [], message: "" }, profile),
      body: String(body),
    };
  }
  const sent: unknown = wire === undefined ? undefined : JSON.parse(wire);
  const verdict: BodyClassification =
    wire === undefined
      ? {
          outcome: "invalid",
          status: profile.statusMapping[operation]["not-json"],
          violation: { kind: "not-json", path: [], message: "nothing to send (undefined)" },
          violations: [],
        }
      : classifyJsonBody(operation, sent, profile);
  const finding = (
    outcome: BodyFinding["outcome"],
    status: number,
    violation: BodyViolation,
    source: RuleSource,
  ): BodyFinding => ({
    operation,
    outcome,
    status,
    kind: violation.kind,
    path: formatPath(violation.path),
    received:
      wire === undefined
        ? "undefined (JSON.stringify gives no text for it)"
        : receivedAt(sent, violation.path, violation.kind),
    expected: expectedAt(violation, operation),
    rule: RULE_OF[violation.kind],
    source,
    body: wire ?? "undefined",
  });
  if (verdict.outcome === "invalid")
    return finding(
      "invalid",
      verdict.status,
      verdict.violation,
      sourceOf(verdict.violation, profile),
    );
  if (verdict.outcome === "unspecified" && !options.allowUnspecified) {
    const first = verdict.violations[0] as BodyViolation;
    return finding("unspecified", verdict.status, first, sourceOf(first, profile));
  }
  // The builders' reading (no profile given): a key or value the default profile lets pass.
  if (options.profile !== undefined || wire === undefined) return undefined;
  const extra = builderViolation(operation, sent);
  if (!extra) return undefined;
  return finding(
    "unspecified",
    profile.statusMapping[operation][extra.kind as ViolationKind],
    extra,
    {
      source: "pinned",
      ref: "the builders' reading (conformance.md §6): pass { profile: defaultProfile } to accept it",
    },
  );
}

/** The finding as the lines a test failure prints. */
export function describeFinding(f: BodyFinding): string {
  const head =
    f.outcome === "invalid"
      ? `${f.operation} body is invalid: a conforming provider answers ${f.status}`
      : f.kind === "unknown-key"
        ? `${f.operation} body has a key the contract does not have: the spec is silent, a provider may ignore it (its value is then lost) or answer ${f.status}`
        : f.kind === "value-not-in-use"
          ? `${f.operation} body has a value beyond those in use: the spec is silent, a provider may read it its own way or answer ${f.status}`
          : `${f.operation} body is unspecified: the spec is silent, a provider may accept it or answer ${f.status}`;
  return [
    head,
    `  at ${f.path}: received ${f.received}; expected ${f.expected}`,
    `  rule: ${f.rule} (source: ${f.source.source}, ${f.source.ref})`,
    `  body built: ${f.body}`,
  ].join("\n");
}

/**
 * Throws {@link BodyAssertionError} unless a conforming provider must accept `body` for `operation`.
 * For property tests of payload builders (`fc.assert`, `@fast-check/vitest`'s `test.prop`).
 */
export function assertValidRequestBody(
  operation: DetailedOperationId,
  body: unknown,
  options: BodyAssertionOptions = {},
): void {
  const finding = findBodyProblem(operation, body, options);
  if (finding) throw new BodyAssertionError(finding);
}

/**
 * Matchers for vitest's (or jest's) `expect.extend(idpBodyMatchers)`:
 * `expect(body).toBeValidRequestBody("pushToUserDevices")`. Type them with
 * `declare module "vitest" { interface Matchers<R, T> extends IdpBodyMatchers<R> {} }` (vitest 4+).
 */
export const idpBodyMatchers = {
  toBeValidRequestBody(
    this: { readonly isNot?: boolean },
    received: unknown,
    operation: DetailedOperationId,
    options: BodyAssertionOptions = {},
  ): { pass: boolean; message: () => string } {
    const finding = findBodyProblem(operation, received, options);
    return finding
      ? { pass: false, message: () => describeFinding(finding) }
      : {
          pass: true,
          message: () =>
            `expected a body a conforming provider may refuse, but ${operation} must accept it: ${JSON.stringify(received)}`,
        };
  },
};

/** The matcher's type, to merge into vitest's `Assertion` (see {@link idpBodyMatchers}). */
export interface IdpBodyMatchers<R = unknown> {
  toBeValidRequestBody(operation: DetailedOperationId, options?: BodyAssertionOptions): R;
}
