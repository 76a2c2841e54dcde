import { Buffer, isUtf8 } from "node:buffer";

/**
 * The text of `bytes` when they are UTF-8, else undefined; a leading BOM stays in the text (the
 * contract, not the decoder, judges it). What `new TextDecoder("utf-8", { fatal: true, ignoreBOM:
 * true })` gives (test/utf8-text.test.ts holds the two equal on any bytes), at a fraction of its
 * cost on large bodies: a run's 26 MB of request bodies spent ~0.2 s in TextDecoder.
 */
export function utf8Text(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes)) return undefined;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}
