import type {
  ContractProfile,
  DetailedOperationId,
  ErrorsItemKind,
  NeighbourName,
  Problem,
  ProviderStateName,
  RuleId,
  RuleSource,
} from "@idp/contracts";
import type fc from "fast-check";
import type { Answer } from "../http/client.ts";
import type { HttpResponse } from "../http/send.ts";
import type { Failure } from "../results.ts";
import type { Secrets } from "../secrets.ts";
import type { AuthSpec, Credentials } from "./auth.ts";

/** What a requirement of a check needs from the command line. */
export type Need = "provider-states";
export const NEED_OPTION: { readonly [N in Need]: string } = {
  "provider-states": "--provider-states-url",
};

/** A conformance check: a stable id, the rule it checks, in plain words, and what it needs. */
export interface CheckInfo {
  /** Stable: scripts select it with `--checks`. */
  readonly id: string;
  readonly rule: RuleId;
  /** What a passing provider does, in plain words. */
  readonly title: string;
  /** Options without which the check cannot run (it is then left out, or exit 2 if named). */
  readonly needs: readonly Need[];
}

/** The body of a generated request: the exact text sent, and what kind of body it is. */
export interface SentBody {
  readonly text: string;
  readonly kind: "valid" | "invalid" | "stress";
  /** One line on what the body is (a violation, a stress kind), for reports. */
  readonly note: string;
  /** The text as UTF-8, when it was encoded where it was generated (the case thread's cases). */
  readonly bytes?: Buffer;
  /** The text in pieces (a stressed body): encoded piece by piece, never joined to be sent. */
  readonly pieces?: readonly string[];
  /** Its UTF-8 length, when counted as it was built (a stressed body's, from its parts). */
  readonly byteLength?: number;
}

/** One generated request of a check. */
export interface Case {
  readonly operation: DetailedOperationId;
  /** The push path's id as generated; checks that run in a provider state get theirs from it. */
  readonly pathId?: string;
  readonly body: SentBody;
  readonly auth: AuthSpec;
  /** The check's `prepare` of this case, when the case thread computed it (plain data). */
  readonly prepared?: { readonly value: unknown };
}

/** Everything a rule reads about the run (never the provider's answers: those come per case). */
export interface RuleContext {
  /** The provider's base address: origin and the path that ends in /v1. */
  readonly origin: string;
  readonly basePath: string;
  readonly credentials: Credentials;
  readonly profile: ContractProfile;
  readonly secrets: Secrets;
  /** A provider-state URL was given and its states have handlers. */
  readonly statesAvailable: boolean;
  /** Salts the names this run makes up (never the generated ones). */
  readonly runId: string;
  /** The run's seed and runs per check: what a pool shared by several checks is built from. */
  readonly seed: number;
  readonly runs: number;
  /** A schema name this run has never sent (R4's retry, conformance.md §1). */
  freshSchemaName(): string;
}

/** The failure of one case: the rule, one line expected vs received, and where the rule comes from. */
export interface Violation {
  readonly rule: RuleId;
  /** What went wrong, for grouping one root cause across checks (a judge's Problem kind). */
  readonly kind: string;
  readonly message: string;
  readonly source: RuleSource;
  readonly expected?: string;
  readonly received?: string;
}

export type Verdict =
  | { readonly ok: true; readonly warning?: string }
  | {
      readonly ok: false;
      readonly violation: Violation;
      readonly answer?: Answer;
      /** A second exchange the failure needs (R9: the read after the write). */
      readonly readBack?: Answer;
    };

/**
 * What a judge may do beyond reading the answer: send the case again, changed (R4's retry), or
 * call a neighbour operation (R9's read; conformance.md §8) with good credentials.
 */
export interface JudgeIo {
  readonly ctx: RuleContext;
  resend(c: Case): Promise<Answer>;
  neighbour(name: NeighbourName, schemaName?: string): Promise<Answer>;
  /**
   * Whether an earlier case of this check created the schema `name` (a 201 to its create, `""`
   * included); only for a check with `recordsCreates`.
   */
  createdBefore(name: string): Promise<boolean>;
}

/** One assertion on a JSON body value, at a JSONPath like `$.errors[0]`. */
export interface ValueAssertion {
  readonly path: string;
  readonly equals?: unknown;
  /** The JSON type the value must have (pact's `type` matcher). */
  readonly type?: string;
  /** A regular expression the value must match (pact's `regex` matcher). */
  readonly matches?: string;
}

/**
 * What the broken rule expects of the answer to the replayed request, as data a replay file asserts.
 * Every field is one assertion; an absent field asserts nothing.
 */
export interface Expected {
  /** The status must be one of these. */
  readonly status?: readonly number[];
  /** The status must be below this (R6). */
  readonly statusBelow?: number;
  /** Answers with a status from `from` up carry the error body (R2; R1's 401). */
  readonly errorBody?: { readonly from: number; readonly errorsItems: readonly ErrorsItemKind[] };
  /** The media type of Content-Type (pact headers and body type). */
  readonly contentType?: string;
  readonly values?: readonly ValueAssertion[];
  /** The JSON body has the shape of this example: the same type at each of its paths (pact `type`). */
  readonly bodyLike?: unknown;
  /** A success answer (2xx) carries no body (R8). */
  readonly noSuccessBody?: true;
  /** R4 createSchema: a 422 may mean the name is taken (allowed); the same schema renamed must then get 201. */
  readonly renameOn422?: true;
}

/** What a replay of a failure is built from. */
export interface ExpectInput {
  readonly failure: Failure;
  readonly operation: DetailedOperationId | undefined;
  readonly profile: ContractProfile;
  /** The exact body sent, when there was one. */
  readonly body: string | undefined;
}

/** The provider state every case of a check runs in; the engine sets it up once per batch. */
export interface StateNeed {
  readonly name: ProviderStateName;
}

/**
 * One check, whole: its cases, its judge, and everything else the run needs to know of it, so a
 * rule is one module plus the registry, and a check without one of these does not compile.
 */
export interface CheckDef {
  readonly info: CheckInfo;
  /** Only reads whether provider states are available (the plan asks before a context exists). */
  readonly state?: (ctx: Pick<RuleContext, "statesAvailable">) => StateNeed | undefined;
  readonly cases: (ctx: RuleContext) => fc.Arbitrary<Case>;
  /**
   * Cases sent before the generated ones, every run the same (R5: every wrong type at every
   * field). A failing example is reported as it is: it is already the smallest of its kind.
   */
  readonly examples?: (ctx: RuleContext) => readonly Case[];
  readonly judge: (c: Case, answer: Answer, io: JudgeIo) => Verdict | Promise<Verdict>;
  /**
   * What `judge` reads of the case alone (never of the answer), as plain data: the case thread
   * computes it where it generates the case, off the thread that waits on the provider, and the
   * judge finds it in `c.prepared` (else it computes it itself).
   */
  readonly prepare?: (c: Case, ctx: RuleContext) => unknown;
  /**
   * After shrinking: one line on where the failure starts, found by sending the smallest failing
   * case once more with one thing made smaller (R4: "a schema.name of 65 code points is refused;
   * 64 is accepted"). Undefined when nothing smaller passes.
   */
  readonly explain?: (c: Case, io: JudgeIo) => Promise<string | undefined>;
  /** How costly its cases are, to deal checks to threads: 1 for plain bodies, more for stress. */
  readonly weight: number;
  /** What the answer to a failure's request must be: a replay file asserts it. */
  readonly expects: (input: ExpectInput) => Expected | { readonly none: string };
  /**
   * When set, the rule holds for every answer of the run, whichever check sent the request: a
   * violation seen elsewhere fails this check too (R2, R3, R6, R8).
   */
  readonly observes?: (
    operation: DetailedOperationId,
    res: HttpResponse,
    profile: ContractProfile,
  ) => Problem | undefined;
  /**
   * Runs after every other check and pact, one case at a time: it reads back what it wrote, and no
   * other request may write in between (R9).
   */
  readonly exclusive?: true;
  /** Its judge asks which schema names its earlier cases created (`JudgeIo.createdBefore`). */
  readonly recordsCreates?: true;
}

/** One rule of conformance.md §1 and its checks. */
export interface RuleModule {
  readonly rule: RuleId;
  readonly checks: readonly CheckDef[];
}
