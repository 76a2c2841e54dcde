// The rules R1-R8 of conformance.md §1, R9 of §8 and R10 of §10, and where a rule (or one value it asserts)
// comes from.

/**
 * The rule ids: R1-R8 of conformance.md §1's table, R9 (read your writes, opt-in) of §8 and R10
 * (errors name the field, opt-in) of §10.
 */
export const RULE_IDS = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10"] as const;
/** A rule id: `R1` ... `R8` (conformance.md §1), `R9` (§8) or `R10` (§10). */
export type RuleId = (typeof RULE_IDS)[number];

/**
 * Where one asserted value comes from:
 * - `spec`: stated by service-interface.md (`ref` names its section);
 * - `pinned`: the toolkit's documented reading of a gap (`ref` names the conformance.md section);
 * - `profile`: a profile's own reading (`ref` is `<file path as given>: <key>`, or
 *   `<profile name>: <key>` for a profile defined in code).
 */
export interface RuleSource {
  readonly source: "spec" | "pinned" | "profile";
  readonly ref: string;
}

/** One rule of conformance.md §1: its title, what it asserts and its source column. */
export interface RuleInfo {
  readonly id: RuleId;
  /** The short name of the rule, as in the table (e.g. "auth", "error body"). */
  readonly title: string;
  /** One line: what the rule asserts. */
  readonly statement: string;
  /** The source column of conformance.md §1. */
  readonly source: "spec" | "pinned" | "spec + pinned";
  /** Where, in the spec or in conformance.md, the rule is stated. */
  readonly ref: string;
}

/** The rules, each with its source (conformance.md §1's source column; §8 for R9, §10 for R10). */
export const RULES: { readonly [R in RuleId]: RuleInfo } = {
  R1: {
    id: "R1",
    title: "auth",
    statement:
      "a request without acceptable credentials gets 401 with the error body, error authentication_failed",
    source: "spec",
    ref: "service-interface.md: Authentication 1-2, Errors",
  },
  R2: {
    id: "R2",
    title: "error body",
    statement:
      "every answer >= 400 is application/json with error, error_description (strings) and errors (array)",
    source: "spec",
    ref: "service-interface.md: Errors",
  },
  R3: {
    id: "R3",
    title: "documented status",
    statement: "every status is one the operation documents",
    source: "spec",
    ref: "service-interface.md: Endpoints (error responses of each operation)",
  },
  R4: {
    id: "R4",
    title: "valid is accepted",
    statement: "a valid payload with good credentials gets the success status",
    source: "spec",
    ref: "service-interface.md: Endpoints (success response of each operation)",
  },
  R5: {
    id: "R5",
    title: "invalid is rejected",
    statement: "an invalid payload gets the 4xx the profile pins for that operation and violation",
    source: "spec + pinned",
    ref: "conformance.md §3 (the 400/422 mapping), §6 (profiles)",
  },
  R6: {
    id: "R6",
    title: "no server error",
    statement: "no generated request, valid or invalid, gets a 5xx",
    source: "pinned",
    ref: "conformance.md §1 R6",
  },
  R7: {
    id: "R7",
    title: "login user",
    statement:
      "push to an id no login user has gets 404; to a login user of another login app, 403",
    source: "spec + pinned",
    ref: "service-interface.md: Send push notification to all user devices; conformance.md §1 R7",
  },
  R8: {
    id: "R8",
    title: "no success body",
    statement: "the success answers (201, 200) carry no body",
    source: "spec",
    ref: "service-interface.md: Endpoints (success response, no body)",
  },
  R9: {
    id: "R9",
    title: "read your writes",
    statement:
      "a created schema and updated clustering rules are read back as they were written (opt-in)",
    source: "pinned",
    ref: "conformance.md §8",
  },
  R10: {
    id: "R10",
    title: "errors name the field",
    statement:
      "the 4xx answer to a body that breaks exactly one field names that field in errors or error_description (opt-in)",
    source: "pinned",
    ref: "conformance.md §10",
  },
};

/** Sources of the parts of the rules that no profile key changes. */
export const FIXED_SOURCES = {
  authStatus: { source: "spec", ref: "service-interface.md: Authentication 2" },
  authErrorCode: {
    source: "spec",
    ref: "service-interface.md: Errors (error authentication_failed)",
  },
  errorBody: { source: "spec", ref: "service-interface.md: Errors" },
  successStatus: { source: "spec", ref: RULES.R4.ref },
  serverError: { source: "pinned", ref: "conformance.md §1 R6" },
  successBody: { source: "spec", ref: RULES.R8.ref },
} as const satisfies Record<string, RuleSource>;
