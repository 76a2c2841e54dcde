import type { RuleSource } from "@idp/contracts";
import { E_CONTENT_CODING } from "../http/decode.ts";
import type { HttpResult } from "../http/send.ts";
import { wireKind, wireMessage } from "../http/wire.ts";

// conformance.md §9: what an answer on the wire breaks besides the rules the checks judge. A
// malformed answer, one cut short, a connection closed without an answer, bytes nobody asked for,
// a gateway whose provider never answered: R6 ("the provider must answer"), whichever check sent
// the request; an error answer whose body does not match its Content-Encoding: R2 as well.

const WIRE_SOURCE = { source: "pinned", ref: "conformance.md §9" } as const;

/** A rule a wire failure breaks (a rule module's Violation, without importing the rules). */
export interface WireViolation {
  readonly rule: "R2" | "R6";
  readonly kind: string;
  readonly message: string;
  readonly source: RuleSource;
  readonly expected: string;
  readonly received: string;
}

/** R6's problem with a transport failure §9 names, or undefined for other failures (timeouts, ...). */
export function wireProblem(raw: HttpResult): WireViolation | undefined {
  if (raw.kind === "response") return undefined;
  const kind = raw.code === E_CONTENT_CODING ? "malformed" : wireKind(raw.code);
  if (!kind) return undefined;
  return {
    rule: "R6",
    kind: "no-answer",
    message: wireMessage(kind, raw.code, raw.message),
    source: WIRE_SOURCE,
    expected: "an HTTP/1.1 answer to this request",
    received: raw.code,
  };
}

/** R2's problem with an error answer whose body does not match its Content-Encoding. */
export function codingProblem(raw: HttpResult): WireViolation | undefined {
  if (raw.kind === "response" || raw.code !== E_CONTENT_CODING || !raw.answered) return undefined;
  if (raw.answered.status < 400) return undefined;
  return {
    rule: "R2",
    kind: "not-json",
    message: `R2: the error body is not valid ${raw.answered.coding} (a ${raw.answered.status} answer labelled Content-Encoding: ${raw.answered.coding})`,
    source: WIRE_SOURCE,
    expected: `a body encoded as its Content-Encoding says (${raw.answered.coding})`,
    received: raw.message,
  };
}
