// Valid bodies of the three operations, built by hand from the spec's tables (§2 of conformance.md:
// optional fields sometimes absent, any strings, empty arrays, unknown keys anywhere), each with the
// list of its tabulated slots and their JSON types, so a test can change one slot's type.

import { binaryString } from "@idp/test-utils/arbitraries";
import fc from "fast-check";
import type { OperationId } from "../src/index.ts";

export type JsonType = "string" | "boolean" | "integer" | "number" | "array" | "object";
export type Path = readonly (string | number)[];
export interface Slot {
  readonly path: Path;
  readonly type: JsonType;
}
export interface Sample {
  readonly body: Record<string, unknown>;
  readonly slots: readonly Slot[];
}

const TABULATED = new Set([
  "schema",
  "name",
  "fields",
  "permissions",
  "type",
  "unique",
  "write_protected",
  "read_protected",
  "data",
  "message",
  "title",
  "small_icon",
  "vibrate",
  "vibrate_duration",
  "auto_cancel",
  "big_style",
  "activity_class",
  "badge",
  "sound",
  "rules",
  "features",
  "parameters",
  "labels",
  "keywords",
  "classifier",
  "categories",
  "threshold",
  "excluded_words",
]);

export const str = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  binaryString(),
  fc.constant(""),
);
const int = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(0, -0, 2 ** 53 + 1, 1e308));
const num = fc.oneof(
  int,
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: 0, max: 1, noNaN: true }),
);
const list = <T>(a: fc.Arbitrary<T>) => fc.array(a, { maxLength: 4 });

/** Keys the spec does not tabulate, with any JSON values (sometimes nested). */
const unknownKeys = fc.dictionary(
  str.filter((k) => !TABULATED.has(k) && k !== "__proto__"),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 2, noNullPrototype: true },
);

/** Builds an object of tabulated parts plus, sometimes, unknown keys. */
function obj(parts: Record<string, Sample | undefined>, extra: Record<string, unknown>): Sample {
  const body: Record<string, unknown> = { ...extra };
  const slots: Slot[] = [];
  for (const [key, part] of Object.entries(parts)) {
    if (part === undefined) continue;
    body[key] = part.body;
    for (const s of part.slots) slots.push({ path: [key, ...s.path], type: s.type });
  }
  return { body, slots };
}
/** A leaf: the slot is the value itself (path []). */
const leaf =
  (type: JsonType) =>
  (value: unknown): Sample => ({
    body: value as Record<string, unknown>,
    slots: [{ path: [], type }],
  });
const withSelf = (type: JsonType, s: Sample): Sample => ({
  body: s.body,
  slots: [{ path: [], type }, ...s.slots],
});
const arr = (items: Sample[]): Sample =>
  withSelf("array", {
    body: items.map((i) => i.body) as unknown as Record<string, unknown>,
    slots: items.flatMap((i, n) => i.slots.map((s) => ({ path: [n, ...s.path], type: s.type }))),
  });
const S = str.map(leaf("string"));
const B = fc.boolean().map(leaf("boolean"));
const I = int.map(leaf("integer"));
const N = num.map(leaf("number"));
const strings = list(S).map(arr);
const optional = (a: fc.Arbitrary<Sample>) => fc.option(a, { nil: undefined });

const field = fc
  .tuple(
    S,
    fc.constantFrom("string", "integer", "date_time").map(leaf("string")),
    optional(B),
    unknownKeys,
  )
  .map(([name, type, unique, x]) => withSelf("object", obj({ name, type, unique }, x)));
const createSchema = fc
  .tuple(S, list(field).map(arr), fc.tuple(B, B, unknownKeys), unknownKeys, unknownKeys)
  .map(([name, fields, [w, r, px], sx, x]) =>
    obj(
      {
        schema: withSelf(
          "object",
          obj(
            {
              name,
              fields,
              permissions: withSelf("object", obj({ write_protected: w, read_protected: r }, px)),
            },
            sx,
          ),
        ),
      },
      x,
    ),
  );

const push = fc
  .tuple(fc.tuple(S, S, S, B, I), fc.tuple(B, B, S, I, S), unknownKeys, unknownKeys)
  .map(
    ([
      [message, title, small_icon, vibrate, vibrate_duration],
      [auto_cancel, big_style, activity_class, badge, sound],
      dx,
      x,
    ]) =>
      obj(
        {
          data: withSelf(
            "object",
            obj(
              {
                message,
                title,
                small_icon,
                vibrate,
                vibrate_duration,
                auto_cancel,
                big_style,
                activity_class,
                badge,
                sound,
              },
              dx,
            ),
          ),
        },
        x,
      ),
  );

const label = fc
  .tuple(S, strings, unknownKeys)
  .map(([name, keywords, x]) => withSelf("object", obj({ name, keywords }, x)));
const classifier = fc
  .tuple(
    fc.constant("likes").map(leaf("string")),
    strings,
    fc.oneof(N, fc.double({ min: 0, max: 1, noNaN: true }).map(leaf("number"))),
    optional(strings),
    unknownKeys,
  )
  .map(([type, categories, threshold, excluded_words, x]) =>
    withSelf("object", obj({ type, categories, threshold, excluded_words }, x)),
  );
const feature = fc
  .tuple(list(label).map(arr), classifier, unknownKeys)
  .map(([labels, c, x]) => withSelf("object", obj({ labels, classifier: c }, x)));
// `features` is a map: its keys are any strings, tabulated or not.
const features = fc
  .dictionary(
    str.filter((k) => k !== "__proto__"),
    feature,
    { maxKeys: 3, noNullPrototype: true },
  )
  .map((m) => withSelf("object", obj(m, {})));
const rules = fc
  .tuple(features, fc.tuple(strings, unknownKeys), unknownKeys, unknownKeys)
  .map(([f, [excluded_words, px], rx, x]) =>
    obj(
      {
        rules: withSelf(
          "object",
          obj({ features: f, parameters: withSelf("object", obj({ excluded_words }, px)) }, rx),
        ),
      },
      x,
    ),
  );

export const VALID_ARB: Record<OperationId, fc.Arbitrary<Sample>> = {
  createSchema,
  pushToUserDevices: push,
  updateClusteringRules: rules,
};

/** A JSON value whose type is not `type` (an integer is a number; a fraction is not an integer). */
export function otherType(type: JsonType): fc.Arbitrary<unknown> {
  const all: [JsonType | "null" | "fraction", fc.Arbitrary<unknown>][] = [
    ["null", fc.constant(null)],
    ["boolean", fc.boolean()],
    ["integer", fc.integer()],
    [
      "fraction",
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
    ],
    ["string", str],
    ["array", fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 })],
    [
      "object",
      fc.dictionary(str, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3, noNullPrototype: true }),
    ],
  ];
  const excluded = new Set<string>(type === "number" ? ["integer", "fraction"] : [type]);
  return fc.oneof(...all.filter(([t]) => !excluded.has(t)).map(([, a]) => a));
}

/** A copy of `body` with the value at `path` replaced. */
export function replaceAt(body: unknown, path: Path, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body) as Record<string, unknown>;
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}
