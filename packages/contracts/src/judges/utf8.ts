// RFC 8259 §8.1: JSON exchanged between systems is UTF-8. Validity is the platform's decoder's
// (WHATWG Encoding); the offset is found from its lenient output, so no UTF-8 reader is written here.

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
const encoder = new TextEncoder();

/** The bytes as text, or the offset of the first byte that is not UTF-8 ({@link invalidUtf8Offset}). */
export function decodeUtf8(
  bytes: Uint8Array,
): { readonly text: string } | { readonly invalidAt: number } {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    return { invalidAt: invalidUtf8Offset(bytes) ?? 0 };
  }
}

/**
 * The offset of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629), or
 * undefined when every byte does. The lenient decoder writes U+FFFD for each ill-formed sequence:
 * the first U+FFFD that the bytes do not spell (EF BF BD) marks it, and everything before it
 * decoded cleanly, so its offset is the UTF-8 length of the text before it.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number | undefined {
  try {
    strict.decode(bytes);
    return undefined;
  } catch {
    // ill-formed: find where
  }
  const text = lenient.decode(bytes);
  let offset = 0;
  let from = 0;
  for (let i = text.indexOf("\ufffd"); i >= 0; i = text.indexOf("\ufffd", i + 1)) {
    offset += encoder.encode(text.slice(from, i)).length;
    if (bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd) {
      offset += 3;
      from = i + 1;
      continue;
    }
    return offset;
  }
  return offset;
}
