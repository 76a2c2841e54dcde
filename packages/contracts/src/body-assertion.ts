import {
  type BodyClassification,
  type BodyViolation,
  type BodyViolationKind,
  classifyJsonBody,
  formatPath,
  type JsonPath,
} from "./classify-body.ts";
import type { DetailedOperationId } from "./operations.ts";
import { type ContractProfile, defaultProfile } from "./profiles.ts";
import type { RuleSource } from "./rules.ts";
import { SPEC_VIOLATION_KINDS } from "./violations.ts";

// Property-testing a consumer's payload builder: `fc.assert(fc.property(input, (i) =>
// assertValidRequestBody("pushToUserDevices", build(i))))`. fast-check prints the builder's input
// as the counterexample; the message printed with it is this module's, and names the body that was
// built, so the failure reads without re-running the builder by hand.

/** Options of {@link assertValidRequestBody} and the `toBeValidRequestBody` matcher. */
export interface BodyAssertionOptions {
  /** How bodies are read (conformance.md §6). @defaultValue defaultProfile */
  readonly profile?: ContractProfile;
  /**
   * Accept a body the profile calls `unspecified` (e.g. a missing field under the default
   * profile: the spec is silent, so a provider may accept or refuse it). Off by default: a builder
   * that drops a tabulated field is a builder bug, whatever a provider would do with it.
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

/**
 * What the contract expects, from the violation's message: without its leading `path: `, and only
 * the expected part of a zod message (`expected an integer`, `Invalid input: expected string,
 * received number`), since the received value is reported on its own.
 */
const expectedText = (v: BodyViolation): string => {
  const prefix = `${formatPath(v.path)}: `;
  const text = v.message.startsWith(prefix) ? v.message.slice(prefix.length) : v.message;
  return /expected (.+?)(?:, received .*)?$/i.exec(text)?.[1] ?? text;
};

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
  if (verdict.outcome === "valid") return undefined;
  if (verdict.outcome === "unspecified" && options.allowUnspecified) return undefined;
  const violation =
    verdict.outcome === "invalid" ? verdict.violation : (verdict.violations[0] as BodyViolation);
  return {
    operation,
    outcome: verdict.outcome,
    status: verdict.status,
    kind: violation.kind,
    path: formatPath(violation.path),
    received: receivedAt(sent, violation.path, violation.kind),
    expected: violation.kind === "missing-field" ? "present" : expectedText(violation),
    rule: RULE_OF[violation.kind],
    source: sourceOf(violation, profile),
    body: wire ?? "undefined",
  };
}

/** The finding as the lines a test failure prints. */
export function describeFinding(f: BodyFinding): string {
  const head =
    f.outcome === "invalid"
      ? `${f.operation} body is invalid: a conforming provider answers ${f.status}`
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
