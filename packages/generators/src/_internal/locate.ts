import fc from "fast-check";
import { zodArbitrary } from "../zod-arbitrary.ts";
import { cloneJson } from "./clone.ts";
import { anyKey } from "./json-values.ts";
import { formatPattern } from "./patterns.ts";
import type { Slot } from "./slots.ts";

// Finding one concrete place of a slot in a generated body: shared by the invalid and the stress
// arbitraries, so both break (or stress) a body at places that exist, without filtering.

export type Json = Record<string, unknown> | unknown[];
export type Pick =
  | { readonly index: number; readonly key: string; readonly fresh: unknown }
  | undefined;

/**
 * For each segment of a slot's pattern: which array index or map key to take, and a fresh valid
 * value to put there when the container is empty (or an optional key is absent); fresh values
 * have at most `maxLength` elements per array and keys per map.
 */
export function picksArb(
  slots: readonly Slot[],
  slot: Slot,
  overrides: Readonly<Record<string, fc.Arbitrary<unknown>>>,
  freshAtLast: boolean,
  maxLength: number,
  /** Brings a fresh value within the profile's bounds at its pattern (§6). */
  fit?: (pattern: string, value: unknown) => unknown,
): fc.Arbitrary<Pick[]> {
  const options = { overrides, maxLength };
  return fc.tuple(
    ...slot.segments.map((seg, i): fc.Arbitrary<Pick> => {
      const prefix = slot.segments.slice(0, i + 1);
      const last = i === slot.segments.length - 1 && !freshAtLast;
      const child = slots.find((s) => s.pattern === formatPattern(prefix));
      if (!child) return fc.constant(undefined);
      const needsFresh = seg.kind !== "key" ? !last : child.optional && !last;
      const pattern = formatPattern(prefix);
      const fresh = needsFresh
        ? zodArbitrary(child.schema, { ...options, at: prefix }).map((v) =>
            fit ? fit(pattern, v) : v,
          )
        : fc.constant(null);
      if (seg.kind === "key" && !needsFresh) return fc.constant(undefined);
      return fc.record({ index: fc.nat(), key: anyKey, fresh });
    }),
  );
}

/** Walks a clone of `body` along a slot's pattern, creating what is missing, to the slot's parent. */
export function locate(
  original: Record<string, unknown>,
  slot: Slot,
  picks: readonly Pick[],
): {
  body: Record<string, unknown>;
  parent: Json;
  key: string | number;
  path: (string | number)[];
} {
  // Generated values belong to fast-check's shrink trees: work on copies, never mutate them.
  const body = cloneJson(original);
  let node: unknown = body;
  const path: (string | number)[] = [];
  const { segments } = slot;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const pick = picks[i];
    const last = i === segments.length - 1;
    let key: string | number;
    if (seg?.kind === "key") {
      key = seg.key;
      const obj = node as Record<string, unknown>;
      if (!last && !Object.hasOwn(obj, key) && pick) obj[key] = cloneJson(pick.fresh);
    } else if (seg?.kind === "element") {
      const arr = node as unknown[];
      if (arr.length === 0) arr.push(cloneJson(pick?.fresh ?? null));
      key = (pick?.index ?? 0) % arr.length;
    } else {
      const map = node as Record<string, unknown>;
      let keys = Object.keys(map);
      if (keys.length === 0 && pick) {
        map[pick.key] = cloneJson(pick.fresh);
        keys = [pick.key];
      }
      key = keys[(pick?.index ?? 0) % keys.length] ?? "";
    }
    path.push(key);
    if (last) return { body, parent: node as Json, key, path };
    node = (node as Record<string | number, unknown>)[key];
  }
  throw new Error(`locate: empty slot pattern for ${slot.pattern}`);
}

export function setAt(parent: Json, key: string | number, value: unknown): void {
  (parent as Record<string | number, unknown>)[key] = value;
}
