import { Buffer } from "node:buffer";
import type { SentBody } from "./types.ts";

/**
 * Writes `pieces` (a stressed body's text, in order) as UTF-8 at `offset` of `into`, which has room
 * for them; returns the offset after them. A piece repeated right after itself (a long string is
 * one unit many times) is copied from where it was just written, not encoded again.
 */
export function writePieces(pieces: readonly string[], into: Buffer, offset: number): number {
  let at = offset;
  let last: string | undefined;
  let lastAt = 0;
  let lastBytes = 0;
  for (const piece of pieces) {
    if (piece === last) into.copy(into, at, lastAt, lastAt + lastBytes);
    else {
      last = piece;
      lastAt = at;
      lastBytes = into.write(piece, at, "utf8");
    }
    at += lastBytes;
  }
  return at;
}

/**
 * The bytes to send for a body generated in this thread (a run too small for the case thread): a
 * stressed body's pieces written into one buffer, as the case thread does, instead of joined into
 * one string of up to 1 MiB and encoded again; undefined for a body sent as its text.
 */
export function bodyBytes(body: SentBody): Buffer | undefined {
  if (body.bytes !== undefined) return body.bytes;
  if (body.pieces === undefined) return undefined;
  const length =
    body.byteLength ?? body.pieces.reduce((n, p) => n + Buffer.byteLength(p, "utf8"), 0);
  const out = Buffer.allocUnsafe(length);
  const end = writePieces(body.pieces, out, 0);
  if (end !== length) throw new Error(`a stressed body wrote ${end} bytes, not ${length} (a bug)`);
  return out;
}
