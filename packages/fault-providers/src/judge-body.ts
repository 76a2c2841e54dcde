// Judges a request body the way conformance.md §2-3 reads it, by walking the JSON by hand.
import {
  bodyShape,
  type LeafType,
  type OperationId,
  type Reading,
  type Shape,
} from "./body-shapes.ts";

export type ViolationKind =
  | "not-json"
  | "not-object"
  | "wrapper-missing"
  | "wrapper-not-object"
  | "wrong-type"
  | "missing-field"
  | "value-not-in-use";

/** One thing wrong with a body: where (`schema.fields[0].type`), what, and a machine code. */
export interface Problem {
  readonly kind: ViolationKind;
  /** The field, in the spec tables' notation; "" for the whole body. */
  readonly attribute: string;
  readonly message: string;
  /** The observed service's codes: `blank` (missing), `invalid` (type), `inclusion` (value). */
  readonly code: string;
}

export type BodyVerdict =
  | { readonly ok: true; readonly body: Readonly<Record<string, unknown>> }
  | {
      readonly ok: false;
      readonly status: 400 | 422;
      readonly kind: ViolationKind;
      /** The first few problems (at most {@link MAX_PROBLEMS}), the deciding kind first. */
      readonly problems: readonly Problem[];
    };

export interface JudgeOptions {
  readonly reading: Reading;
  /**
   * A tabulated, non-optional field that is absent: conformance.md §2 leaves it unspecified under
   * the default profile (only strict asserts a rejection). `reject` answers it like a wrong type
   * (same pinned status); `accept` treats the body as valid.
   */
  readonly missingField: "reject" | "accept";
  /** A place, as `data.title` or `rules.features.*.labels[].name`, where `null` is taken as valid (a fault). */
  readonly acceptNullAt?: string;
}

/** Body size cap. A larger body is answered like one that is not JSON (see the provider). */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_PROBLEMS = 10;

// RFC 8259 §8.1: JSON exchanged between systems is UTF-8; bytes that are not are "not JSON".
const UTF8 = new TextDecoder("utf-8", { fatal: true });

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The pinned 4xx of conformance.md §3, and the observed service's for push (issue 13). */
export function pinnedStatus(op: OperationId, kind: ViolationKind, reading: Reading): 400 | 422 {
  const inside = kind === "wrong-type" || kind === "missing-field" || kind === "value-not-in-use";
  switch (op) {
    case "createSchema":
      return inside ? 422 : 400;
    case "pushToUserDevices":
      return reading === "observed-service" && inside ? 422 : 400;
    case "updateClusteringRules":
      return 422;
  }
}

// A path as a linked list, so the walk allocates one small node per visited value and formats
// only the paths it reports.
interface PathNode {
  readonly parent: PathNode | undefined;
  readonly key: string | number;
}
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function formatPath(node: PathNode | undefined): string {
  const keys: (string | number)[] = [];
  for (let n = node; n; n = n.parent) keys.push(n.key);
  let out = "";
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i] as string | number;
    if (typeof k === "number") out += `[${k}]`;
    else if (!IDENT.test(k)) out += `[${JSON.stringify(k)}]`;
    else out += out === "" ? k : `.${k}`;
  }
  return out;
}

const A_TYPE: Record<Shape["t"], string> = {
  string: "a string",
  boolean: "a boolean",
  integer: "an integer",
  number: "a number",
  array: "an array",
  object: "an object",
  map: "an object",
};

function hasType(v: unknown, t: Shape["t"]): boolean {
  switch (t) {
    case "string":
      return typeof v === "string";
    case "boolean":
      return typeof v === "boolean";
    case "integer":
      // On the parsed value, like JSON.parse users do: 1.0 and 1e2 are integers, 1.5 is not.
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number";
    case "array":
      return Array.isArray(v);
    case "object":
    case "map":
      return isObject(v);
  }
}

/**
 * Sees every tabulated value that has its tabulated type, containers included (crash faults and
 * limits use it); `pattern` is its place with `[]` for array elements and `*` for map values.
 */
export type LeafVisitor = (
  value: unknown,
  shape: Shape,
  path: () => string,
  pattern: string,
) => void;

interface Found {
  wrong: Problem[];
  notInUse: Problem[];
  missing: Problem[];
}

/**
 * A shape with the pattern of its place worked out once: the pattern of a value depends only on
 * where it sits in the shape, never on the body, so the walk reads it instead of building a string
 * per visited value (a 1 MiB body has tens of thousands).
 */
type Placed =
  | { readonly s: Shape & { t: LeafType }; readonly p: string }
  | { readonly s: Shape & { t: "array" | "map" }; readonly p: string; readonly of: Placed }
  | {
      readonly s: Shape & { t: "object" };
      readonly p: string;
      /** The fields in table order, each placed. */
      readonly fields: readonly (readonly [string, Placed])[];
    };

function place(s: Shape, p: string): Placed {
  switch (s.t) {
    case "array":
      return { s, p, of: place(s.of, `${p}[]`) };
    case "map":
      return { s, p, of: place(s.of, `${p}.*`) };
    case "object":
      return {
        s,
        p,
        fields: Object.entries(s.fields).map(([k, f]) => [k, place(f, `${p}.${k}`)] as const),
      };
    default:
      return { s, p };
  }
}
/** Placed once per shape and root, for the life of the process (the shapes are constants). */
const placedByShape = new Map<Shape, Map<string, Placed>>();
function placed(s: Shape, root: string): Placed {
  let byRoot = placedByShape.get(s);
  if (byRoot === undefined) {
    byRoot = new Map();
    placedByShape.set(s, byRoot);
  }
  let out = byRoot.get(root);
  if (out === undefined) {
    out = place(s, root);
    byRoot.set(root, out);
  }
  return out;
}

/**
 * Walks `value` against `shape` with an explicit stack: the depth of the walk is the depth of the
 * shape (at most 6), never the depth of the body; values under unknown keys are never visited.
 */
function walk(
  value: unknown,
  shape: Shape,
  root: PathNode,
  visit?: LeafVisitor,
  acceptNullAt?: string,
): Found {
  const found: Found = { wrong: [], notInUse: [], missing: [] };
  const add = (list: Problem[], p: Problem) => {
    if (list.length < MAX_PROBLEMS) list.push(p);
  };
  const stack: { v: unknown; c: Placed; at: PathNode }[] = [
    { v: value, c: placed(shape, String(root.key)), at: root },
  ];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { v, c, at } = item;
    const s = c.s;
    if (v === null && c.p === acceptNullAt) continue;
    if (!hasType(v, s.t)) {
      add(found.wrong, {
        kind: "wrong-type",
        attribute: formatPath(at),
        message: `must be ${A_TYPE[s.t]}`,
        code: "invalid",
      });
      continue;
    }
    visit?.(v, s, () => formatPath(at), c.p);
    if ("of" in c) {
      // An array's elements or a map's values, all of one shape.
      if (c.s.t === "array") {
        const a = v as unknown[];
        for (let i = a.length - 1; i >= 0; i--)
          stack.push({ v: a[i], c: c.of, at: { parent: at, key: i } });
      } else {
        const o = v as Record<string, unknown>;
        const keys = Object.keys(o);
        for (let i = keys.length - 1; i >= 0; i--) {
          const k = keys[i] as string;
          stack.push({ v: o[k], c: c.of, at: { parent: at, key: k } });
        }
      }
    } else if ("fields" in c) {
      const o = v as Record<string, unknown>;
      for (const [k] of c.fields)
        if (!Object.hasOwn(o, k) && !c.s.optional?.includes(k))
          add(found.missing, {
            kind: "missing-field",
            attribute: formatPath({ parent: at, key: k }),
            message: "can't be blank",
            code: "blank",
          });
      // Pushed in reverse so that fields are judged (and reported) in table order.
      for (let i = c.fields.length - 1; i >= 0; i--) {
        const [k, f] = c.fields[i] as readonly [string, Placed];
        if (Object.hasOwn(o, k)) stack.push({ v: o[k], c: f, at: { parent: at, key: k } });
      }
    } else if (c.s.inUse && !c.s.inUse.includes(v as string))
      add(found.notInUse, {
        kind: "value-not-in-use",
        attribute: formatPath(at),
        message: "is not included in the list",
        code: "inclusion",
      });
  }
  return found;
}

/**
 * Judges the raw bytes of a request body (`"too-large"` when it exceeded {@link MAX_BODY_BYTES}).
 * `visit` sees the tabulated values of a body whose wrapper is an object.
 */
export function judgeBody(
  op: OperationId,
  raw: Buffer | "too-large",
  options: JudgeOptions,
  visit?: LeafVisitor,
): BodyVerdict {
  const reject = (kind: ViolationKind, problems: Problem[]): BodyVerdict => ({
    ok: false,
    status: pinnedStatus(op, kind, options.reading),
    kind,
    problems,
  });
  const whole = (kind: ViolationKind, message: string, attribute = "") =>
    reject(kind, [{ kind, attribute, message, code: "invalid" }]);

  if (raw === "too-large")
    return whole("not-json", `the body is larger than ${MAX_BODY_BYTES} bytes`);
  let body: unknown;
  try {
    // JSON.parse is iterative in V8: any depth that fits in the size cap parses without recursion.
    body = JSON.parse(UTF8.decode(raw));
  } catch {
    return whole("not-json", "the body is not JSON (UTF-8)");
  }
  if (!isObject(body)) return whole("not-object", "the body is not a JSON object");
  const { wrapper, inner } = bodyShape(op, options.reading);
  if (!Object.hasOwn(body, wrapper)) return whole("wrapper-missing", "can't be blank", wrapper);
  if (!isObject(body[wrapper])) return whole("wrapper-not-object", "must be an object", wrapper);

  const found = walk(
    body[wrapper],
    inner,
    { parent: undefined, key: wrapper },
    visit,
    options.acceptNullAt,
  );
  if (found.wrong.length > 0)
    return reject(
      "wrong-type",
      [...found.wrong, ...found.notInUse, ...found.missing].slice(0, MAX_PROBLEMS),
    );
  if (found.notInUse.length > 0)
    return reject("value-not-in-use", [...found.notInUse, ...found.missing].slice(0, MAX_PROBLEMS));
  if (found.missing.length > 0 && options.missingField === "reject")
    return reject("missing-field", found.missing);
  return { ok: true, body };
}
