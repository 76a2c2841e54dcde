import { Buffer } from "node:buffer";

// Writing a small generated body as JSON text with one hole in it, where a stress text is put
// as is. The stress part is never a JS value: JSON.stringify recurses (a 10,000-level value
// overflows the stack), prints -0 as 0, and cannot write 1e400 or a 100,000-digit integer.

/** Marks the value that the stress text replaces. */
export const HOLE: unique symbol = Symbol("stress hole");

/** On an object: extra members (`"k":v,...`) go before (`"first"`) or after (`"last"`) its own. */
export const MEMBERS: unique symbol = Symbol("stress members");

export type MembersAt = "first" | "last";

/** The text before and after the hole of `root`, which holds exactly one HOLE or MEMBERS mark. */
export function writeAroundHole(root: unknown): { before: string; after: string } {
  const parts: string[] = [];
  let hole = -1;
  const mark = () => {
    hole = parts.length;
    parts.push("");
  };
  // Generated bases are a few levels deep: recursion is safe here, unlike in the stress parts.
  const write = (value: unknown): void => {
    if (value === HOLE) mark();
    else if (Array.isArray(value)) {
      parts.push("[");
      value.forEach((item, i) => {
        if (i > 0) parts.push(",");
        write(item);
      });
      parts.push("]");
    } else if (typeof value === "object" && value !== null) {
      const members = (value as { [MEMBERS]?: MembersAt })[MEMBERS];
      const entries = Object.entries(value);
      parts.push("{");
      if (members === "first") {
        mark();
        if (entries.length > 0) parts.push(",");
      }
      entries.forEach(([key, item], i) => {
        if (i > 0) parts.push(",");
        parts.push(JSON.stringify(key), ":");
        write(item);
      });
      if (members === "last") {
        if (entries.length > 0) parts.push(",");
        mark();
      }
      parts.push("}");
    } else parts.push(JSON.stringify(value));
  };
  write(root);
  if (hole < 0) throw new Error("writeAroundHole: the body has no hole");
  return { before: parts.slice(0, hole).join(""), after: parts.slice(hole + 1).join("") };
}

/** UTF-8 length of a text (no lone surrogates in it, so no replacement characters). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
