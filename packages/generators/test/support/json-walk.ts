// Test support: walks parsed JSON without recursion (stress bodies nest 10,000 levels deep).

/** Every string of a parsed JSON value, keys included, depth-first. */
export function* jsonStrings(root: unknown): Generator<string> {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === "string") yield node;
    else if (Array.isArray(node)) for (const item of node) stack.push(item);
    else if (typeof node === "object" && node !== null)
      for (const [key, value] of Object.entries(node)) {
        yield key;
        stack.push(value);
      }
  }
}

/** How many arrays and objects enclose the deepest value (a scalar is depth 0). */
export function jsonDepth(root: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== "object" || node === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

// Restated here rather than imported, so the check does not share code with what it checks.
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a text holds a surrogate code unit that is not half of a pair. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE.test(text);
}

/** Whether a text is well-formed Unicode (no lone surrogate), so it round-trips through UTF-8. */
export function isWellFormed(text: string): boolean {
  return !LONE.test(text) && Buffer.from(text, "utf8").toString("utf8") === text;
}
