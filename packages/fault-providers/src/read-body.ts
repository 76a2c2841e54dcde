import type { IncomingMessage } from "node:http";
import { MAX_BODY_BYTES } from "./judge-body.ts";

const EMPTY = Buffer.alloc(0);

/**
 * Reads a request body, keeping at most {@link MAX_BODY_BYTES}; past that it keeps reading and
 * discarding to the end, so the client can finish sending and read the answer (no reset), and
 * reports `"too-large"`. `bytes` is the size received.
 */
export function readBody(
  req: IncomingMessage,
  done: (raw: Buffer | "too-large", bytes: number) => void,
): void {
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let bytes = 0;
  req.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES) {
      first = undefined;
      chunks = undefined;
    } else if (first === undefined) first = chunk;
    else {
      chunks ??= [first];
      chunks.push(chunk);
    }
  });
  req.once("end", () => {
    if (bytes > MAX_BODY_BYTES) done("too-large", bytes);
    else done(chunks ? Buffer.concat(chunks, bytes) : (first ?? EMPTY), bytes);
  });
  // An aborted upload has no one to answer; the socket is already gone.
  req.once("error", () => {});
}

/** The deepest nesting of `[`/`{` in JSON text, counted outside strings; stops at `limit`. */
export function nestingDepth(raw: Buffer, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (inString) {
      if (b === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max >= limit) return max;
      }
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return max;
}
