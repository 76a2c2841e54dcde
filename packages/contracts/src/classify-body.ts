import type { z } from "zod";
import { type BoundPath, boundBreach } from "./bounds.ts";
import { formatPath, type JsonPath } from "./json-path.ts";
import { type DetailedOperationId, detailedOperations } from "./operations.ts";
import { type ContractProfile, defaultProfile, requestShapeFor } from "./profiles.ts";
import type { ClientErrorStatus, ViolationKind } from "./violations.ts";

/** How a body breaks a contract: a violation kind, or a profile's bound (conformance.md §6). */
export type BodyViolationKind = ViolationKind | "out-of-bounds";

/** One way a body breaks the contract: its kind, where, and a message. */
export interface BodyViolation {
  readonly kind: BodyViolationKind;
  /** Where in the body, e.g. ["schema", "fields", 0, "unique"]; [] for the whole body. */
  readonly path: JsonPath;
  readonly message: string;
  /** For `out-of-bounds`: the profile's bound (its key and status). */
  readonly bound?: { readonly key: BoundPath; readonly status: ClientErrorStatus };
}

/**
 * What a conforming provider must do with a request body, under a profile:
 * - `valid`: accept it (R4);
 * - `invalid`: reject it with `status` (R5, pinned 4xx), because of `violation`;
 * - `unspecified`: the body breaks only rules the profile does not assert (e.g. a missing field
 *   under the default profile); the spec is silent, so any documented non-5xx answer conforms.
 */
export type BodyClassification =
  | { readonly outcome: "valid"; readonly value: unknown }
  | {
      readonly outcome: "invalid";
      readonly status: ClientErrorStatus;
      readonly violation: BodyViolation;
      readonly violations: readonly BodyViolation[];
    }
  | {
      readonly outcome: "unspecified";
      /** The status this profile's mapping gives, for providers that choose to reject. */
      readonly status: ClientErrorStatus;
      readonly violations: readonly BodyViolation[];
    };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function hasKeyAt(root: unknown, path: JsonPath): boolean {
  let node: unknown = root;
  for (const seg of path.slice(0, -1)) {
    if (!isPlainObject(node) && !Array.isArray(node)) return false;
    node = (node as Record<string | number, unknown>)[seg];
  }
  const last = path[path.length - 1];
  if (last === undefined) return true;
  if (Array.isArray(node)) return typeof last === "number" && last < node.length;
  return isPlainObject(node) && Object.hasOwn(node, last);
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let node: unknown = root;
  for (const seg of path) node = (node as Record<string | number, unknown> | undefined)?.[seg];
  return node;
}

function kindOfIssue(issue: z.core.$ZodIssue, body: unknown): ViolationKind {
  switch (issue.code) {
    case "unrecognized_keys":
      return "unknown-key";
    case "invalid_value": {
      // zod reports enums and literals with invalid_value even when the key is absent or the value
      // has another JSON type; only a value of the right type outside the allowed set is "not in use".
      if (!hasKeyAt(body, issue.path as JsonPath)) return "missing-field";
      const value = valueAt(body, issue.path as JsonPath);
      const allowed = issue.values as readonly unknown[];
      return allowed.some((a) => typeof a === typeof value && (a === null) === (value === null))
        ? "value-not-in-use"
        : "wrong-type";
    }
    case "too_small":
    case "too_big":
      return "value-not-in-use";
    case "invalid_type":
      return hasKeyAt(body, issue.path as JsonPath) ? "wrong-type" : "missing-field";
    default:
      // `custom` is the integer refinement: a fraction where an integer belongs is a wrong JSON type.
      return "wrong-type";
  }
}

/** A violation of the shape (every kind but `out-of-bounds`): the status mapping covers it. */
type ShapeViolation = BodyViolation & { readonly kind: ViolationKind };

function issuesToViolations(issues: readonly z.core.$ZodIssue[], body: unknown): ShapeViolation[] {
  return issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        kind: "unknown-key" as const,
        path: [...(issue.path as JsonPath), key],
        message: `${formatPath([...(issue.path as JsonPath), key])}: a key the contract does not have`,
      }));
    }
    const path = issue.path as JsonPath;
    const kind = kindOfIssue(issue, body);
    const message =
      kind === "missing-field"
        ? `${formatPath(path)} is missing`
        : `${formatPath(path)}: ${issue.message}`;
    return [{ kind, path, message }];
  });
}

/** Classifies a parsed JSON body (or `undefined` when the text is not JSON, via the raw variant). */
export function classifyJsonBody(
  operation: DetailedOperationId,
  body: unknown,
  profile: ContractProfile = defaultProfile,
): BodyClassification {
  const op = detailedOperations[operation];
  const mapping = profile.statusMapping[operation];
  const reject = (violations: ShapeViolation[]): BodyClassification => {
    const asserted = violations.find((v) => profile.asserted.has(v.kind));
    if (asserted)
      return {
        outcome: "invalid",
        status: mapping[asserted.kind],
        violation: asserted,
        violations,
      };
    const first = violations[0];
    return { outcome: "unspecified", status: first ? mapping[first.kind] : 400, violations };
  };
  if (!isPlainObject(body)) {
    return reject([{ kind: "not-object", path: [], message: "the body is not a JSON object" }]);
  }
  if (!Object.hasOwn(body, op.wrapperKey)) {
    return reject([
      { kind: "wrapper-missing", path: [op.wrapperKey], message: `${op.wrapperKey} is missing` },
    ]);
  }
  if (!isPlainObject(body[op.wrapperKey])) {
    return reject([
      {
        kind: "wrapper-not-object",
        path: [op.wrapperKey],
        message: `${op.wrapperKey} is not a JSON object`,
      },
    ]);
  }
  const parsed = requestShapeFor(profile, operation).safeParse(body);
  if (parsed.success) {
    // A bound the profile pins (§6) makes an otherwise valid body invalid, with the bound's status.
    const breach = boundBreach(operation, body, profile.bounds);
    if (!breach) return { outcome: "valid", value: parsed.data };
    const violation: BodyViolation = {
      kind: "out-of-bounds",
      path: breach.path,
      message: breach.message,
      bound: { key: breach.key, status: breach.bound.status },
    };
    return { outcome: "invalid", status: breach.bound.status, violation, violations: [violation] };
  }
  return reject(issuesToViolations(parsed.error.issues, body));
}

/** Classifies the raw text of a request body, as a provider receives it. */
export function classifyRequestBody(
  operation: DetailedOperationId,
  raw: string,
  profile: ContractProfile = defaultProfile,
): BodyClassification {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    const violation: BodyViolation = {
      kind: "not-json",
      path: [],
      message: "the body is not JSON",
    };
    const status = profile.statusMapping[operation]["not-json"];
    return profile.asserted.has("not-json")
      ? { outcome: "invalid", status, violation, violations: [violation] }
      : { outcome: "unspecified", status, violations: [violation] };
  }
  return classifyJsonBody(operation, body, profile);
}
