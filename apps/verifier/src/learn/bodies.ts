import type { BoundPath, ContractProfile, DetailedOperationId, JsonPath } from "@idp/contracts";

// The small valid bodies the learning phase changes at one place at a time: every tabulated field,
// one element per array, one key per map, short values, the profile's first values in use. A
// probe is then about that one place only.

/** A small valid body of `op`; a create gets `name` (a name never sent). */
export function baseBody(
  op: DetailedOperationId,
  profile: ContractProfile,
  name: string,
): Record<string, unknown> {
  const inUse = (key: keyof ContractProfile["valuesInUse"], fallback: string) =>
    profile.valuesInUse[key][0] ?? fallback;
  switch (op) {
    case "createSchema":
      return {
        schema: {
          name,
          fields: [{ name: "f", type: inUse("schema.fields[].type", "string"), unique: false }],
          permissions: { write_protected: false, read_protected: false },
        },
      };
    case "pushToUserDevices":
      return {
        data: {
          message: "m",
          title: "t",
          small_icon: "i",
          vibrate: false,
          vibrate_duration: 1,
          auto_cancel: false,
          big_style: false,
          activity_class: "a",
          badge: 1,
          sound: "s",
        },
      };
    case "updateClusteringRules":
      return {
        rules: {
          features: {
            f: {
              labels: [{ name: "l", keywords: ["k"] }],
              classifier: {
                type: inUse("rules.features.*.classifier.type", "likes"),
                categories: ["c"],
                threshold: 0.5,
                excluded_words: ["w"],
              },
            },
          },
          parameters: { excluded_words: ["w"] },
        },
      };
  }
}

/** The first place of a bound path (or a values-in-use key) in a base body: `*` is its one key, `[]` index 0. */
export function placeOf(body: unknown, pattern: BoundPath | string): JsonPath | undefined {
  const path: (string | number)[] = [];
  let node: unknown = body;
  for (const part of pattern.split(".")) {
    const steps: (string | "*" | "[]")[] =
      part === "*" ? ["*"] : part.endsWith("[]") ? [part.slice(0, -2), "[]"] : [part];
    for (const step of steps) {
      if (node === null || typeof node !== "object") return undefined;
      const key =
        step === "[]"
          ? 0
          : step === "*"
            ? Object.keys(node as object)[0]
            : Object.hasOwn(node as object, step)
              ? step
              : undefined;
      if (key === undefined) return undefined;
      path.push(key);
      node = (node as Record<string | number, unknown>)[key];
    }
  }
  return path;
}

/** The value at a concrete path. */
export function valueAt(body: unknown, path: JsonPath): unknown {
  let node = body;
  for (const seg of path) node = (node as Record<string | number, unknown>)[seg];
  return node;
}

/** A copy of `body` with the value at `path` replaced. */
export function withValue(body: unknown, path: JsonPath, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(body)) return body.map((v, i) => (i === head ? withValue(v, rest, value) : v));
  const o = body as Record<string, unknown>;
  return { ...o, [head]: withValue(o[head as string], rest, value) };
}
