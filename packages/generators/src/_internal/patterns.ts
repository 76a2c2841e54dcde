// A path pattern names a place in a shape rather than in one value: `[]` stands for any array
// element and `*` for any map value, e.g. "schema.fields[].type" or "rules.features.*.labels".

export type PatternSegment =
  | { readonly kind: "key"; readonly key: string }
  | { readonly kind: "element" }
  | { readonly kind: "value" };

export function formatPattern(segments: readonly PatternSegment[]): string {
  let out = "";
  for (const seg of segments) {
    if (seg.kind === "element") out += "[]";
    else if (seg.kind === "value") out += out === "" ? "*" : ".*";
    else out += out === "" ? seg.key : `.${seg.key}`;
  }
  return out;
}

/** The pattern of a concrete path: indices become `[]`; `valueKeys` marks which string segments are map keys. */
export function patternOfPath(
  path: readonly (string | number)[],
  isMapKeyAt: (index: number) => boolean,
): string {
  return formatPattern(
    path.map((seg, i): PatternSegment => {
      if (typeof seg === "number") return { kind: "element" };
      return isMapKeyAt(i) ? { kind: "value" } : { kind: "key", key: seg };
    }),
  );
}
