import { fc, test } from "@fast-check/vitest";
import {
  type ContractProfile,
  classifyRequestBody,
  type DetailedOperationId,
  PINNED_STATUS_MAPPING,
  SPEC_VIOLATION_KINDS,
  strictProfile,
  VIOLATION_KINDS,
  type ViolationKind,
} from "@idp/contracts";
import { binaryString } from "@idp/test-utils/arbitraries";
import { describe, expect, it } from "vitest";
import { isWellFormed, jsonStrings } from "../test/support/json-walk.ts";
import { patternOf, TABULATED } from "../test/support/tabulated.ts";
import { codePointBoundary } from "./_internal/unicode.ts";
import {
  type InvalidBodyCase,
  invalidBodyArb,
  invalidClusteringRulesArb,
  invalidCreateSchemaRequestArb,
  invalidUserPublishRequestArb,
  requestBodyText,
} from "./index.ts";

// conformance.md §3, restated from the table rather than read from the contracts.
const SECTION_3: Record<DetailedOperationId, (kind: ViolationKind) => 400 | 422> = {
  createSchema: (kind) => (kind === "wrong-type" ? 422 : 400),
  pushToUserDevices: () => 400,
  updateClusteringRules: () => 422,
};

function expectRejectedAsNamed(
  op: DetailedOperationId,
  c: InvalidBodyCase,
  profile?: ContractProfile,
) {
  const verdict = classifyRequestBody(op, requestBodyText(c), profile);
  expect(verdict.outcome).toBe("invalid");
  if (verdict.outcome !== "invalid") return;
  expect({ kind: verdict.violation.kind, path: verdict.violation.path }).toEqual({
    kind: c.kind,
    path: c.path,
  });
  expect(verdict.status).toBe(c.expectedStatus);
}

const arbs: Record<DetailedOperationId, () => fc.Arbitrary<InvalidBodyCase>> = {
  createSchema: invalidCreateSchemaRequestArb,
  pushToUserDevices: invalidUserPublishRequestArb,
  updateClusteringRules: invalidClusteringRulesArb,
};

describe.each(Object.keys(arbs) as DetailedOperationId[])("invalid bodies of %s", (op) => {
  const arb = arbs[op]();

  test.prop([arb], { numRuns: 300 })(
    "should be rejected by the default profile at the named path, with the pinned status",
    (c) => {
      expectRejectedAsNamed(op, c);
      const kind = c.kind as ViolationKind; // no bounds under the default profile
      expect(c.expectedStatus).toBe(PINNED_STATUS_MAPPING[op][kind]);
      expect(c.expectedStatus).toBe(SECTION_3[op](kind));
      expect(c.violation.startsWith(c.path.length === 0 ? "(body)" : String(c.path[0]))).toBe(true);
    },
  );

  it("should cover every spec violation kind and a wrong type at every tabulated path in 1000 samples", () => {
    // Act
    const cases = fc.sample(arb, 1000);
    // Assert
    expect(new Set(cases.map((c) => c.kind))).toEqual(new Set(SPEC_VIOLATION_KINDS));
    const wrongTypeAt = new Set(
      cases.filter((c) => c.kind === "wrong-type").map((c) => patternOf(op, c.path)),
    );
    expect([...wrongTypeAt].sort().join("\n")).toBe([...TABULATED[op]].sort().join("\n"));
  });

  it("should keep every shrunk case invalid in the same way", () => {
    // Arrange: an always-failing property makes fast-check shrink each case as far as it goes
    const seed = fc.readConfigureGlobal().seed ?? 0;
    const chains: InvalidBodyCase[][] = [];
    // Act
    for (let i = 0; i < 10; i++) {
      const chain: InvalidBodyCase[] = [];
      fc.check(
        fc.property(arb, (c) => {
          chain.push(c);
          return false;
        }),
        { numRuns: 1, seed: seed + i },
      );
      chains.push(chain);
    }
    // Assert
    expect(chains.flat().length).toBeGreaterThan(20);
    for (const [first, ...shrunk] of chains) {
      if (!first) continue;
      for (const c of shrunk) {
        expect({ kind: c.kind, at: patternOf(op, c.path) }).toEqual({
          kind: first.kind,
          at: patternOf(op, first.path),
        });
        expectRejectedAsNamed(op, c);
      }
    }
  });

  test.prop([invalidBodyArb(op, { profile: strictProfile })], { numRuns: 60 })(
    "should be rejected at the named path by the strict profile when asked for it",
    (c) => {
      expectRejectedAsNamed(op, c, strictProfile);
    },
  );
});

describe("invalid bodies: only what the spec states, by default", () => {
  it("should never call a missing field, unknown key or value beyond those in use invalid", () => {
    const kinds = new Set(fc.sample(invalidClusteringRulesArb(), 500).map((c) => c.kind));
    expect([...kinds].filter((k) => !(SPEC_VIOLATION_KINDS as string[]).includes(k))).toEqual([]);
  });

  it("should produce the strict-only kinds under the strict profile", () => {
    const kinds = new Set(
      fc.sample(invalidBodyArb("createSchema", { profile: strictProfile }), 500).map((c) => c.kind),
    );
    expect(kinds).toEqual(new Set(VIOLATION_KINDS));
  });

  it("should break a strict enum slot in every way the strict profile tells apart", () => {
    const atFieldType = fc
      .sample(invalidBodyArb("createSchema", { profile: strictProfile }), 3000)
      .filter((c) => c.path.length === 4 && c.path[1] === "fields" && c.path[3] === "type");
    expect(new Set(atFieldType.map((c) => c.kind))).toEqual(
      new Set(["wrong-type", "missing-field", "value-not-in-use"]),
    );
  });
});

describe("requestBodyText", () => {
  test.prop([invalidUserPublishRequestArb()])(
    "should send raw text as is and JSON values serialised",
    (c) => {
      const text = requestBodyText(c);
      if (c.raw) {
        expect(text).toBe(c.body);
        expect(() => JSON.parse(text)).toThrow();
      } else expect(JSON.parse(text)).toEqual(c.body);
    },
  );
});

describe("well-formed Unicode", () => {
  it.each(Object.keys(arbs) as DetailedOperationId[])(
    "should send only text that encodes as UTF-8: %s, 3000 cases (raw cuts keep surrogate pairs whole)",
    (op) => {
      for (const c of fc.sample(arbs[op](), 3000)) {
        const text = requestBodyText(c);
        expect(isWellFormed(text), text).toBe(true);
        if (!c.raw) expect([...jsonStrings(c.body)].filter((s) => !isWellFormed(s))).toEqual([]);
      }
    },
  );

  test.prop([binaryString({ minLength: 1 }), fc.nat()])(
    "should cut a body only between code points",
    (text, n) => {
      const cut = codePointBoundary(text, n % (text.length + 1));
      expect(isWellFormed(text.slice(0, cut))).toBe(true);
      expect((n % (text.length + 1)) - cut).toBeLessThanOrEqual(1);
    },
  );
});
