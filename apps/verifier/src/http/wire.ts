// What an answer on the wire can be besides an answer (conformance.md §9), in one place: the codes
// the transport gives such failures, which of them the verifier may send again, and the words R6
// uses for each.

/** Bytes after a complete answer on a kept-alive connection: its request goes again on a new one. */
export const E_STRAY = "E_STRAY";
/** An answer that ended before its Content-Length, its last chunk or the end of its head. */
export const E_CUT_SHORT = "E_CUT_SHORT";
/** A connection closed (or reset) after the request was written, before one byte of the answer. */
export const E_CLOSED = "E_CLOSED";
/** As E_CLOSED, on a connection kept alive that had waited idle: the race of an idle close. */
export const E_IDLE_CLOSED = "E_IDLE_CLOSED";
/** A gateway's 502/504 (not JSON) still there after the re-sends. */
export const E_GATEWAY = "E_GATEWAY";
/** The proxy refused the tunnel or could not be reached. */
export const E_PROXY = "E_PROXY";

/** What §9 makes of a transport failure: R6 fails with these words; undefined for other failures. */
export type WireKind = "malformed" | "cut-short" | "closed" | "stray" | "gateway";

export function wireKind(code: string): WireKind | undefined {
  if (code.startsWith("HPE_")) return "malformed";
  switch (code) {
    case E_CUT_SHORT:
      return "cut-short";
    case E_CLOSED:
    case E_IDLE_CLOSED:
    case "ECONNRESET":
    case "EPIPE":
      return "closed";
    case E_STRAY:
      return "stray";
    case E_GATEWAY:
      return "gateway";
    default:
      return undefined;
  }
}

/** An answer nobody asked for (R6's words, conformance.md §9). */
export const NOBODY_ASKED = "an answer nobody asked for";

/** R6's failure message for a transport failure of `kind`. */
export function wireMessage(kind: WireKind, code: string, message: string): string {
  switch (kind) {
    case "malformed":
      return `R6: the provider must answer in HTTP/1.1; a malformed answer (${code}: ${message})`;
    case "cut-short":
      return `R6: the provider must answer; the answer was cut short (${message})`;
    case "closed":
      return `R6: the provider must answer; it closed the connection without answering (${message})`;
    case "stray":
      return `R6: ${NOBODY_ASKED} (${message})`;
    case "gateway":
      return `R6: ${message}`;
  }
}
