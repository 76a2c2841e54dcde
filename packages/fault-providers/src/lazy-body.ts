// Very large bodies, written lazily: one shared 64 KiB chunk, written again and again, paused while
// the socket's buffer is full. Memory stays flat whatever the size and however slow the reader.
import type { Writable } from "node:stream";

const FILL = Buffer.alloc(64 * 1024, "a");

/** 512 MiB, the size that drove the old verifier's process tree to 23 GB (issue 10). */
export const HUGE_BODY_BYTES = 512 * 1024 * 1024;

/**
 * Writes `prefix`, then filler `a` bytes, then `suffix`, `total` bytes in all (the caller declares
 * that Content-Length), then ends `out`. Stops quietly when the reader goes away.
 */
export function streamLazily(out: Writable, total: number, prefix = "", suffix = ""): void {
  const head = Buffer.from(prefix);
  const tail = Buffer.from(suffix);
  let filler = Math.max(0, total - head.length - tail.length);
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  out.once("close", stop);
  out.once("error", stop);
  const pump = () => {
    while (!stopped && filler > 0) {
      const n = Math.min(filler, FILL.length);
      filler -= n;
      if (!out.write(n === FILL.length ? FILL : FILL.subarray(0, n))) {
        out.once("drain", pump);
        return;
      }
    }
    if (!stopped) out.end(tail);
  };
  if (head.length > 0) out.write(head);
  pump();
}

const PREFIX = '{"error":"huge","error_description":"';
const SUFFIX = '","errors":["the description is mostly the letter a"]}';
/** The smallest huge body: its JSON frame. */
export const MIN_HUGE_BODY_BYTES = PREFIX.length + SUFFIX.length;

/** `prefix + filler + suffix`: a JSON error body of `total` bytes (at least {@link MIN_HUGE_BODY_BYTES}). */
export function hugeErrorBodyParts(total: number): { prefix: string; suffix: string } {
  if (!(Number.isSafeInteger(total) && total >= MIN_HUGE_BODY_BYTES))
    throw new RangeError(`a huge body has at least ${MIN_HUGE_BODY_BYTES} bytes, got ${total}`);
  return { prefix: PREFIX, suffix: SUFFIX };
}
