import { Buffer } from "node:buffer";
import { fc, test } from "@fast-check/vitest";
import {
  type ContractProfile,
  classifyRequestBody,
  type DetailedOperationId,
  strictProfile,
  type ViolationKind,
} from "@idp/contracts";
import { describe, expect, it } from "vitest";
import { isWellFormed, jsonDepth, jsonStrings } from "../test/support/json-walk.ts";
import { GeneratorError } from "./errors.ts";
import { STRESS_KINDS, type StressBodyCase, type StressKind, stressBodyArb } from "./index.ts";

// The oracle is @idp/contracts' classifier and a plain walk of the parsed body; the statuses are
// restated from conformance.md §3 rather than read from the contracts.
const SECTION_3: Record<DetailedOperationId, (kind: ViolationKind) => 400 | 422> = {
  createSchema: (kind) => (kind === "wrong-type" || kind === "unknown-key" ? 422 : 400),
  pushToUserDevices: () => 400,
  updateClusteringRules: () => 422,
};
const OPERATIONS: DetailedOperationId[] = [
  "createSchema",
  "pushToUserDevices",
  "updateClusteringRules",
];
// Every key name service-interface.md tabulates for the three operations.
const TABULATED_NAMES = new Set(
  [
    "schema name fields type unique permissions write_protected read_protected",
    "data message title small_icon vibrate vibrate_duration auto_cancel big_style activity_class badge sound",
    "rules features labels keywords classifier categories threshold excluded_words parameters",
  ].flatMap((line) => line.split(" ")),
);
const MiB = 1_048_576;

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root;
  for (const seg of path) node = (node as Record<string | number, unknown>)[seg];
  return node;
}

/** The contracts' verdict on the text agrees with what the case says it is, at its path. */
function expectClassifiedAsExpected(
  op: DetailedOperationId,
  c: StressBodyCase,
  profile?: ContractProfile,
) {
  const verdict = classifyRequestBody(op, c.text, profile);
  if (c.expected.outcome === "valid") {
    expect(verdict.outcome, c.description).toBe("valid");
    return;
  }
  expect(verdict.outcome, c.description).toBe("invalid");
  if (verdict.outcome !== "invalid") return;
  expect({ status: verdict.status, violation: verdict.violation.kind }).toEqual({
    status: c.expected.status,
    violation: c.expected.violation,
  });
  if (c.place === "tabulated-field") expect(verdict.violation.path).toEqual(c.path);
  else {
    // an unknown key: the same object, maybe another of its unknown keys
    expect(verdict.violation.path.slice(0, -1)).toEqual(c.path.slice(0, -1));
    expect(verdict.violation.path).toHaveLength(c.path.length);
  }
}

/** The stress is where the case says, of the size it says, read from the parsed body. */
function expectStressAt(c: StressBodyCase, body: unknown) {
  const value = valueAt(body, c.path);
  const codePoints = (s: unknown) => [...String(s)].length;
  const check: Record<StressKind, () => void> = {
    "deep-nesting": () => expect(jsonDepth(value)).toBe(c.size),
    "long-string": () => expect(codePoints(value)).toBe(c.size),
    unicode: () => expect(codePoints(value)).toBe(c.size),
    "large-array": () => expect((value as unknown[]).length).toBe(c.size),
    "extreme-number": () => expect(typeof value).toBe("number"),
    "many-keys": () => {
      if (c.place === "tabulated-field") expect(Object.keys(value as object)).toHaveLength(c.size);
      else {
        const container = valueAt(body, c.path.slice(0, -1)) as object;
        const unknown = Object.keys(container).filter((k) => !TABULATED_NAMES.has(k));
        expect(unknown).toHaveLength(c.size); // distinct keys: JSON.parse keeps one per name
      }
    },
  };
  if (c.kind !== "many-keys" || c.place === "tabulated-field")
    expect(value, c.description).not.toBeUndefined();
  check[c.kind]();
}

describe.each(OPERATIONS)("stress bodies of %s", (op) => {
  const arb = stressBodyArb(op);

  test.prop([arb], { numRuns: 60 })(
    "should parse, stay within 1 MiB, hold only well-formed Unicode, and be classified as the case says",
    (c) => {
      expect(Buffer.byteLength(c.text, "utf8")).toBeLessThanOrEqual(MiB);
      // The size it carries is counted from its parts: Node's byte length of the text is the oracle.
      expect(c.bytes).toBe(Buffer.byteLength(c.text, "utf8"));
      expect(c.pieces.join("")).toBe(c.text);
      expect(isWellFormed(c.text)).toBe(true);
      const body = JSON.parse(c.text) as unknown;
      // One assertion over every string (keys included): an expect per string was most of this
      // test's time on bodies of many keys, and the failure lists every ill-formed one.
      expect([...jsonStrings(body)].filter((s) => !isWellFormed(s))).toEqual([]);
      expectStressAt(c, body);
      expectClassifiedAsExpected(op, c);
      if (c.expected.outcome === "invalid")
        expect(c.expected.status).toBe(SECTION_3[op](c.expected.violation));
      if (c.place === "unknown-key") expect(c.expected.outcome).toBe("valid"); // conformance.md §2
    },
  );

  it("should cover every kind in unknown keys and in tabulated fields, valid and invalid, in 400 samples", () => {
    const seen = new Set<string>();
    const outcomes = new Set<string>();
    fc.assert(
      fc.property(arb, (c) => {
        seen.add(`${c.kind} ${c.place}`);
        outcomes.add(`${c.place} ${c.expected.outcome}`);
      }),
      { numRuns: 400 },
    );
    expect([...seen].sort()).toEqual(
      STRESS_KINDS.flatMap((k) => [`${k} tabulated-field`, `${k} unknown-key`]).sort(),
    );
    expect([...outcomes].sort()).toEqual([
      "tabulated-field invalid",
      "tabulated-field valid",
      "unknown-key valid",
    ]);
  });

  test.prop([stressBodyArb(op, { profile: strictProfile })], { numRuns: 40 })(
    "should follow the profile passed in: under strict, an unknown key is an unknown-key violation",
    (c) => {
      expectClassifiedAsExpected(op, c, strictProfile);
      if (c.place === "unknown-key")
        expect(c.expected).toMatchObject({ outcome: "invalid", violation: "unknown-key" });
    },
  );

  it("should keep every shrunk case classified as it says", () => {
    const seed = fc.readConfigureGlobal().seed ?? 0;
    let shrunk = 0;
    for (let i = 0; i < 3; i++) {
      const chain: StressBodyCase[] = [];
      fc.check(
        fc.property(arb, (c) => {
          chain.push(c);
          return false;
        }),
        { numRuns: 1, seed: seed + i },
      );
      const [first, ...rest] = chain;
      for (const c of rest) {
        expect({ kind: c.kind, place: c.place }).toEqual({
          kind: first?.kind,
          place: first?.place,
        });
        expectClassifiedAsExpected(op, c);
        shrunk++;
      }
    }
    expect(shrunk).toBeGreaterThan(5);
  });
});

describe("stress sizes", () => {
  it.each(["deep-nesting", "long-string", "many-keys", "large-array", "unicode"] as const)(
    "should shrink the size of %s to the smallest failing one",
    (kind) => {
      for (const op of OPERATIONS) {
        const r = fc.check(
          fc.property(stressBodyArb(op, { kinds: [kind] }), (c) => c.size <= 3),
          { numRuns: 100 },
        );
        expect(r.failed).toBe(true);
        expect(r.counterexample?.[0].size).toBe(4);
      }
    },
  );

  it("should reach 10,000 levels of nesting, which JSON.parse and the contracts read", () => {
    const cases = fc.sample(stressBodyArb("createSchema", { kinds: ["deep-nesting"] }), 200);
    const deepest = cases.filter((c) => c.size === 10_000);
    expect(deepest.length).toBeGreaterThan(5);
    for (const c of deepest) {
      expect(jsonDepth(valueAt(JSON.parse(c.text), c.path))).toBe(10_000);
      expectClassifiedAsExpected("createSchema", c);
    }
  });

  it("should reach each maximum and cut sizes to fit the byte cap", () => {
    const limits = { maxDepth: 50, maxStringLength: 300_000, maxKeys: 40, maxArrayLength: 60 };
    const caps: Partial<Record<StressKind, number>> = {
      "deep-nesting": 50,
      "many-keys": 40,
      "large-array": 60,
    };
    const seenMax = new Set<StressKind>();
    fc.assert(
      fc.property(
        stressBodyArb("updateClusteringRules", { ...limits, maxBodyBytes: 65_536 }),
        (c) => {
          expect(Buffer.byteLength(c.text, "utf8")).toBeLessThanOrEqual(65_536);
          const cap = caps[c.kind];
          if (cap !== undefined) expect(c.size).toBeLessThanOrEqual(cap);
          if (c.size === cap) seenMax.add(c.kind);
          expectClassifiedAsExpected("updateClusteringRules", c);
        },
      ),
      { numRuns: 300 },
    );
    expect([...seenMax].sort()).toEqual(["deep-nesting", "large-array", "many-keys"]);
  });

  it("should print the same texts for the same seed", () => {
    const texts = (seed: number) =>
      fc.sample(stressBodyArb("pushToUserDevices"), { seed, numRuns: 20 }).map((c) => c.text);
    expect(texts(5)).toEqual(texts(5));
    expect(texts(6)).not.toEqual(texts(5));
  });

  it("should write -0, 1e308 and numbers beyond a double as written, never as JSON.stringify would", () => {
    const texts = fc
      .sample(stressBodyArb("pushToUserDevices", { kinds: ["extreme-number"] }), 600)
      .map((c) => c.text);
    for (const literal of [":-0", ":1e308", ":-1e308", ":9007199254740993", ":5e-324", ":1e400"])
      expect(
        texts.some((t) => t.includes(`${literal},`) || t.includes(`${literal}}`)),
        literal,
      ).toBe(true);
  });

  it("should produce only the kinds asked for", () => {
    const kinds = new Set(
      fc
        .sample(stressBodyArb("createSchema", { kinds: ["unicode", "many-keys"] }), 100)
        .map((c) => c.kind),
    );
    expect([...kinds].sort()).toEqual(["many-keys", "unicode"]);
  });

  it.each([
    [{ maxDepth: 0 }, "maxDepth must be a whole number >= 1 (received 0)"],
    [{ maxKeys: 1.5 }, "maxKeys must be a whole number >= 1 (received 1.5)"],
    [{ maxBodyBytes: 1000 }, "maxBodyBytes must be a whole number >= 65536 (received 1000)"],
    [{ kinds: [] }, "kinds must be a non-empty list"],
    [
      { kinds: ["deep"] },
      'kinds must be a non-empty list of deep-nesting, long-string, many-keys, large-array, extreme-number, unicode (received ["deep"])',
    ],
  ])("should refuse %j with E_USAGE naming the constraint", (constraints, message) => {
    const call = () => stressBodyArb("createSchema", constraints as never);
    expect(call).toThrow(GeneratorError);
    expect(call).toThrow(message);
  });
});
