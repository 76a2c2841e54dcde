import type { JsonPath } from "@idp/contracts";

/**
 * What the provider accepts structurally, beyond the 1 MiB body limit.
 *
 * Measured on Node 24.21 (default 984 KiB stack): `JSON.parse` is iterative (a 500,000-level array
 * parses), but `JSON.stringify` (which stores a value) recurses and throws RangeError at about 4,450
 * levels from an empty stack (4,370 with 200 frames in use, ~4,400 at the provider's store call).
 * The contracts' zod check never recurses below the tabulated shapes, so it is safe at any depth
 * (measured to 500,000 levels). Hono never sees these bodies (routes read `c.req.raw`), and reads
 * answer stored JSON text as it is, so neither parses nor serialises a stored value.
 * 1,000 levels leaves the native serialiser a 4x margin wherever it is called, and is what common
 * readers accept by default (Jackson 2.15+: 1,000; Go: 10,000; Python's recursive parser: ~990),
 * so whatever this provider stores, a client can read back. Real documents nest tens of levels.
 */
export const JSON_BOUNDS = {
  /** Deepest nesting of a request body; `{}` and `[]` are depth 1, `{"schema":{}}` depth 2. */
  maxDepth: 1000,
  /**
   * Object keys longer than this are shortened in the copy handed to the contract check (never in
   * what is stored), so a long key cannot be repeated once per violation below it.
   */
  maxKeyLengthInPaths: 64,
} as const;

export type StructureProblem =
  | { readonly kind: "too-deep"; readonly path: JsonPath; readonly depth: number }
  | { readonly kind: "number-out-of-range"; readonly path: JsonPath };

export interface StructureReport {
  /** The first bound broken, in document order; undefined when the value is within bounds. */
  readonly problem: StructureProblem | undefined;
  /** Some object key is longer than `JSON_BOUNDS.maxKeyLengthInPaths`. */
  readonly hasLongKey: boolean;
}

interface Frame {
  readonly key: string | number | undefined;
  readonly node: object;
  /** The object's keys; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  next: number;
}

const frame = (key: string | number | undefined, node: object): Frame => ({
  key,
  node,
  keys: Array.isArray(node) ? undefined : Object.keys(node),
  next: 0,
});

/**
 * Walks a parsed JSON value without recursion: its depth, and numbers `JSON.parse` turned into
 * ±Infinity (a literal such as 1e400), which `JSON.stringify` would silently store as `null`.
 */
export function inspectStructure(
  value: unknown,
  maxDepth: number = JSON_BOUNDS.maxDepth,
): StructureReport {
  let hasLongKey = false;
  const pathOf = (stack: readonly Frame[]): JsonPath =>
    stack.slice(1).map((f) => f.key as string | number);
  if (typeof value === "number" && !Number.isFinite(value)) {
    return { problem: { kind: "number-out-of-range", path: [] }, hasLongKey };
  }
  if (typeof value !== "object" || value === null) return { problem: undefined, hasLongKey };
  if (maxDepth < 1) return { problem: { kind: "too-deep", path: [], depth: 1 }, hasLongKey };
  const stack: Frame[] = [frame(undefined, value)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    let key: string | number;
    let child: unknown;
    if (top.keys === undefined) {
      const items = top.node as readonly unknown[];
      if (top.next >= items.length) {
        stack.pop();
        continue;
      }
      key = top.next++;
      child = items[key];
    } else {
      if (top.next >= top.keys.length) {
        stack.pop();
        continue;
      }
      key = top.keys[top.next++] as string;
      child = (top.node as Record<string, unknown>)[key];
      if (key.length > JSON_BOUNDS.maxKeyLengthInPaths) hasLongKey = true;
    }
    if (typeof child === "number" && !Number.isFinite(child)) {
      return {
        problem: { kind: "number-out-of-range", path: [...pathOf(stack), key] },
        hasLongKey,
      };
    }
    if (typeof child !== "object" || child === null) continue;
    if (stack.length + 1 > maxDepth) {
      return {
        problem: { kind: "too-deep", path: [...pathOf(stack), key], depth: stack.length + 1 },
        hasLongKey,
      };
    }
    stack.push(frame(key, child));
  }
  return { problem: undefined, hasLongKey };
}

/**
 * A copy of a parsed JSON value (made without recursion) whose object keys longer than `maxLength`
 * are replaced by `<first 32 characters>…#<n>`, unique within their object. The contracts build
 * one message per violation from its full path, so a 100 KB key above 100,000 wrong-typed values
 * would cost 10 GB of messages; key names only matter to the check for the short tabulated keys,
 * so the copy classifies exactly like the original.
 */
export function shortenLongKeys(
  value: unknown,
  maxLength = JSON_BOUNDS.maxKeyLengthInPaths,
): unknown {
  if (typeof value !== "object" || value === null) return value;
  let counter = 0;
  const copyShell = (source: object): object => (Array.isArray(source) ? [] : {});
  const root = copyShell(value);
  const work: [object, object][] = [[value, root]];
  while (work.length > 0) {
    const [source, target] = work.pop() as [object, object];
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (const item of source) {
        if (typeof item === "object" && item !== null) {
          const shell = copyShell(item);
          out.push(shell);
          work.push([item, shell]);
        } else out.push(item);
      }
      continue;
    }
    const out = target as Record<string, unknown>;
    for (const [key, item] of Object.entries(source)) {
      let name = key;
      if (key.length > maxLength) {
        do name = `${key.slice(0, 32)}…#${++counter}`;
        while (Object.hasOwn(source, name) || Object.hasOwn(out, name));
      }
      if (typeof item === "object" && item !== null) {
        const shell = copyShell(item);
        // defineProperty: a key named "__proto__" stays an own data property, as JSON.parse made it.
        Object.defineProperty(out, name, {
          value: shell,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        work.push([item, shell]);
      } else {
        Object.defineProperty(out, name, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
  }
  return root;
}
