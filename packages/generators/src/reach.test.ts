// Reach (issue 21): every wrong type at every tabulated place, valid bodies at every size, and the
// bounds a profile pins. The oracles are the spec's tables restated by hand (test/support) and
// @idp/contracts' classification, never this package's own labels.
import { fc, test } from "@fast-check/vitest";
import {
  type BoundPath,
  boundBreach,
  type ContractProfile,
  classifyJsonBody,
  classifyRequestBody,
  type DetailedOperationId,
  defaultProfile,
  profileFromFile,
  strictProfile,
} from "@idp/contracts";
import { describe, expect, it } from "vitest";
import { patternOf, TABULATED, TYPE_OF } from "../test/support/tabulated.ts";
import {
  invalidBodyArb,
  invalidBodyExamples,
  largeValidBodyArb,
  requestBodyText,
  stressBodyArb,
  validBodyArb,
} from "./index.ts";

const OPS: DetailedOperationId[] = ["createSchema", "pushToUserDevices", "updateClusteringRules"];

/** The kind of a JSON value, as the issue lists them. */
const kindOf = (v: unknown): string =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "array"
      : typeof v === "number"
        ? Number.isInteger(v)
          ? "integer"
          : "fraction"
        : typeof v;

const ALL_KINDS = ["null", "boolean", "integer", "fraction", "string", "array", "object"];
const kindsOfType = (t: string) => (t === "number" ? ["integer", "fraction"] : [t]);

describe.each(OPS)("wrong types of %s", (op) => {
  const examples = invalidBodyExamples(op);

  it("reach every JSON kind a tabulated field does not have, at every field", () => {
    const reached = new Set(
      examples
        .filter((e) => e.kind === "wrong-type")
        .map((e) => {
          let v: unknown = e.body;
          for (const seg of e.path) v = (v as Record<string | number, unknown>)[seg];
          return `${patternOf(op, e.path)} ${kindOf(v)}`;
        }),
    );
    const wanted = TABULATED[op].flatMap((path) =>
      ALL_KINDS.filter((k) => !kindsOfType(TYPE_OF[path] ?? "").includes(k)).map(
        (k) => `${path} ${k}`,
      ),
    );
    expect([...reached].sort()).toEqual(wanted.sort());
  });

  it.each([
    ["default", defaultProfile],
    ["strict", strictProfile],
  ] as const)(
    "are each invalid under the %s profile, with the status they expect",
    (_, profile) => {
      for (const e of invalidBodyExamples(op, { profile })) {
        const c = classifyRequestBody(op, requestBodyText(e), profile);
        expect(c.outcome, e.violation).toBe("invalid");
        if (c.outcome !== "invalid") continue;
        expect({ status: c.status, kind: c.violation.kind, path: c.violation.path }).toEqual({
          status: e.expectedStatus,
          kind: e.kind,
          path: e.path,
        });
      }
    },
  );
});

const codePoints = (s: string) => [...s].length;
function largest(body: unknown): { string: number; items: number } {
  let string = 0;
  let items = 0;
  const walk = (v: unknown): void => {
    if (typeof v === "string") string = Math.max(string, codePoints(v));
    else if (Array.isArray(v)) {
      items = Math.max(items, v.length);
      v.forEach(walk);
    } else if (v && typeof v === "object") {
      const keys = Object.keys(v);
      if (keys.length > 1 || !("schema" in v || "data" in v || "rules" in v))
        items = Math.max(items, keys.length);
      for (const k of keys) string = Math.max(string, codePoints(k));
      Object.values(v).forEach(walk);
    }
  };
  walk(body);
  return { string, items };
}

describe.each(OPS)("large valid bodies of %s", (op) => {
  const profiles: [string, ContractProfile][] = [
    ["default", defaultProfile],
    ["strict", strictProfile],
  ];
  it.each(profiles)("are valid under the %s profile and at most 1 MiB", (_, profile) => {
    for (const body of fc.sample(largeValidBodyArb(op, { profile }), { numRuns: 40, seed: 21 })) {
      const text = JSON.stringify(body);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1_048_576);
      expect(classifyJsonBody(op, body, profile).outcome).toBe("valid");
    }
  });

  it("reach long strings (over 1,000 code points) and, where the shape has them, many items", () => {
    const sizes = fc.sample(largeValidBodyArb(op), { numRuns: 60, seed: 5 }).map(largest);
    expect(sizes.filter((s) => s.string > 1000).length).toBeGreaterThanOrEqual(10);
    if (op !== "pushToUserDevices")
      expect(sizes.filter((s) => s.items > 50).length).toBeGreaterThanOrEqual(10);
  });

  it("fit a small byte budget", () => {
    // Kept values (short strings, four items per container) may leave a body a little over.
    for (const body of fc.sample(largeValidBodyArb(op, { maxBodyBytes: 4096 }), {
      numRuns: 30,
      seed: 3,
    }))
      expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(8192);
  });
});

describe("bounds a profile pins (conformance.md §6)", () => {
  const bounds: Partial<Record<BoundPath, object>> = {
    "schema.name": { maxLength: 64, status: 422 },
    "schema.fields": { maxItems: 3, status: 422 },
    "data.title": { maxLength: 5, status: 400 },
    "data.badge": { minimum: 0, maximum: 99, status: 400 },
    "rules.features": { maxItems: 8, status: 422 },
    "rules.features.*.labels[].keywords": { maxItems: 2, status: 422 },
    "rules.features.*.labels[].keywords[]": { maxLength: 3, status: 422 },
  };
  const profile = profileFromFile({ name: "bounded", bounds }, "bounded.json");

  it.each(OPS)("keep the valid bodies of %s, small and large, within them", (op) => {
    for (const arb of [validBodyArb(op, { profile }), largeValidBodyArb(op, { profile })])
      for (const body of fc.sample(arb, { numRuns: 60, seed: 8 })) {
        expect(boundBreach(op, body, profile.bounds)).toBeUndefined();
        expect(classifyJsonBody(op, body, profile).outcome).toBe("valid");
      }
  });

  it.each(OPS)("make over-bound invalid bodies of %s that expect the bound's status", (op) => {
    const cases = fc
      .sample(invalidBodyArb(op, { profile }), { numRuns: 400, seed: 9 })
      .filter((c) => c.kind === "out-of-bounds");
    expect(cases.length).toBeGreaterThan(0);
    const keys = new Set<string>();
    for (const c of cases) {
      const verdict = classifyRequestBody(op, requestBodyText(c), profile);
      expect(verdict.outcome, c.violation).toBe("invalid");
      if (verdict.outcome !== "invalid") continue;
      expect(verdict.status).toBe(c.expectedStatus);
      expect(verdict.violation.kind).toBe("out-of-bounds");
      expect(`bounds.${verdict.violation.bound?.key}`).toBe(c.bound);
      keys.add(c.bound ?? "");
    }
    const own = Object.keys(bounds)
      .filter((k) =>
        k.startsWith(
          { createSchema: "schema", pushToUserDevices: "data", updateClusteringRules: "rules" }[op],
        ),
      )
      .map((k) => `bounds.${k}`);
    expect([...keys].sort()).toEqual(own.sort());
  });

  it.each(OPS)("leave bounded places out of the stressed bodies of %s that expect valid", (op) => {
    for (const c of fc.sample(stressBodyArb(op, { profile, onlyValid: true }), {
      numRuns: 60,
      seed: 12,
    })) {
      expect(c.expected.outcome).toBe("valid");
      expect(classifyRequestBody(op, c.text, profile).outcome, c.description).toBe("valid");
    }
  });

  test.prop([fc.constant(null)], { numRuns: 1 })(
    "shrink an over-bound name to exactly one code point past the bound",
    () => {
      const over = invalidBodyArb("createSchema", { profile }).filter(
        (c) => c.bound === "bounds.schema.name",
      );
      const run = fc.check(
        fc.property(over, () => false),
        { seed: 4, numRuns: 1 },
      );
      expect(run.failed).toBe(true);
      const [c] = (run.counterexample ?? []) as [{ body: { schema: { name: string } } }];
      expect(codePoints(c.body.schema.name)).toBe(65);
    },
  );
});

describe("a string bound's unit (conformance.md §6: codePoints, utf16, bytes)", () => {
  const KEYWORD = "rules.features.*.labels[].keywords[]";
  const units = ["codePoints", "utf16", "bytes"] as const;
  // The measures restated by hand: the oracle is not @idp/contracts' lengthIn.
  const measure = {
    codePoints: (s: string) => [...s].length,
    utf16: (s: string) => s.length,
    bytes: (s: string) => Buffer.byteLength(s, "utf8"),
  };
  const profileOf = (unit: (typeof units)[number]) =>
    profileFromFile(
      { name: unit, bounds: { [KEYWORD]: { maxLength: 10, unit, status: 422 } } },
      `${unit}.json`,
    );
  const keywordsOf = (body: unknown): string[] =>
    Object.values(
      (body as { rules: { features: Record<string, { labels: { keywords: string[] }[] }> } }).rules
        .features,
    ).flatMap((f) => f.labels.flatMap((l) => l.keywords));

  it.each(units)(
    "%s: valid bodies keep within it, and some reach it exactly with characters heavier in the other units",
    (unit) => {
      const profile = profileOf(unit);
      const bodies = fc.sample(validBodyArb("updateClusteringRules", { profile }), {
        numRuns: 150,
        seed: 21,
      });
      const keywords = bodies.flatMap(keywordsOf);
      for (const body of bodies)
        expect(classifyJsonBody("updateClusteringRules", body, profile).outcome).toBe("valid");
      for (const k of keywords) expect(measure[unit](k)).toBeLessThanOrEqual(10);
      // At the limit, as heavy as can be in the other units: at a code-point bound 20 UTF-16 units
      // (every character astral), at a UTF-16 bound 30 bytes (every one CJK); a provider counting
      // those refuses them. About one body in three has one.
      const heavy = { codePoints: measure.utf16, utf16: measure.bytes, bytes: measure.codePoints };
      const most = { codePoints: 20, utf16: 30, bytes: 10 }[unit];
      const edged = bodies.filter((b) =>
        keywordsOf(b).some((k) => measure[unit](k) === 10 && heavy[unit](k) === most),
      );
      expect(edged.length).toBeGreaterThan(bodies.length / 5);
    },
  );

  it.each(units)(
    "%s: invalid bodies go just past it in that unit, some within it in the other units",
    (unit) => {
      const profile = profileOf(unit);
      const examples = invalidBodyExamples("updateClusteringRules", { profile }).filter(
        (c) => c.kind === "out-of-bounds",
      );
      const generated = fc
        .sample(invalidBodyArb("updateClusteringRules", { profile }), { numRuns: 600, seed: 22 })
        .filter((c) => c.kind === "out-of-bounds");
      expect(examples).toHaveLength(1);
      expect(generated.length).toBeGreaterThan(5);
      const pastOf = (c: (typeof examples)[number]) => {
        const over = keywordsOf(c.body).filter((k) => measure[unit](k) > 10);
        expect(over, c.violation).toHaveLength(1);
        const [k = ""] = over;
        expect(measure[unit](k)).toBeLessThanOrEqual(14);
        expect(c.violation).toContain(
          { codePoints: "code points", utf16: "UTF-16 units", bytes: "bytes" }[unit],
        );
        return k;
      };
      // One past a UTF-16 or a byte bound, yet within it in code points (and, past a byte bound,
      // in UTF-16 units): what a provider counting those accepts. The example always is such a
      // string; more than half of the generated ones are.
      for (const past of [examples.map(pastOf), generated.map(pastOf)]) {
        const light = past.filter(
          (k) =>
            (unit === "codePoints" || measure.codePoints(k) <= 10) &&
            (unit !== "bytes" || measure.utf16(k) <= 10),
        );
        if (unit !== "codePoints") expect(light.length).toBeGreaterThan(past.length / 2);
      }
    },
  );
});
