import { Buffer } from "node:buffer";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fc, test } from "@fast-check/vitest";
import { classifyRequestBody, type DetailedOperationId } from "@idp/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { hasLoneSurrogate, isWellFormed, jsonStrings } from "../test/support/json-walk.ts";
import { CLI_OPERATIONS, type GenOptions, parseGenArgs } from "./gen-args.ts";
import { genLines } from "./gen-command.ts";

const noRandom = () => {
  throw new Error("the seed was given; no random seed should be drawn");
};
const options = (argv: string[]): GenOptions => {
  const o = parseGenArgs(argv, noRandom);
  if (typeof o === "string") throw new Error(`unexpected ${o}`);
  return o;
};
const opOf = (name: string): DetailedOperationId => CLI_OPERATIONS[name] ?? "createSchema";

describe("genLines", () => {
  test.prop(
    [
      fc.constantFrom(...Object.keys(CLI_OPERATIONS)),
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    ],
    { numRuns: 5 },
  )("should print the same lines for the same seed, each a valid body", (name, seed) => {
    const argv = [name, "--count", "20", "--seed", String(seed)];
    const first = [...genLines(options(argv))];
    expect([...genLines(options(argv))]).toEqual(first);
    expect(first).toHaveLength(20);
    for (const line of first) expect(classifyRequestBody(opOf(name), line).outcome).toBe("valid");
  });

  it("should keep a shorter run a prefix of a longer one across chunks", () => {
    const long = [...genLines(options(["push", "--count", "1200", "--seed", "3"]))];
    const short = [...genLines(options(["push", "--count", "1001", "--seed", "3"]))];
    expect(long.slice(0, 1001)).toEqual(short);
    expect(new Set(long).size).toBe(long.length);
    const stress = (n: string) => [
      ...genLines(
        options(["push", "--stress", "--count", n, "--seed", "3", "--max-body-bytes", "65536"]),
      ),
    ];
    expect(stress("45").slice(0, 21)).toEqual(stress("21"));
  });

  it("should start each --invalid line with body, raw, expectedStatus, violation, in that order", () => {
    for (const line of genLines(
      options(["clustering-rules", "--invalid", "--count", "50", "--seed", "1"]),
    )) {
      const record = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(record).slice(0, 4)).toEqual([
        "body",
        "raw",
        "expectedStatus",
        "violation",
      ]);
      const text = record.raw ? String(record.body) : JSON.stringify(record.body);
      const verdict = classifyRequestBody("updateClusteringRules", text);
      expect(verdict.outcome === "invalid" && verdict.status).toBe(record.expectedStatus);
    }
  });

  it("should give --stress lines the exact text to send, classified by the contracts as the line says", () => {
    for (const name of Object.keys(CLI_OPERATIONS)) {
      const lines = [...genLines(options([name, "--stress", "--count", "30", "--seed", "9"]))];
      expect(lines).toHaveLength(30);
      for (const line of lines) {
        const record = JSON.parse(line) as {
          body: string;
          raw: boolean;
          stress: string;
          place: string;
          expected: { outcome: string; status?: number; violation?: string };
        };
        expect(Object.keys(record).slice(0, 5)).toEqual([
          "body",
          "raw",
          "stress",
          "place",
          "expected",
        ]);
        expect(record.raw).toBe(true);
        const verdict = classifyRequestBody(opOf(name), record.body);
        expect(verdict.outcome).toBe(record.expected.outcome);
        if (verdict.outcome === "invalid")
          expect([verdict.status, verdict.violation.kind]).toEqual([
            record.expected.status,
            record.expected.violation,
          ]);
      }
    }
  });

  it("should pass the size options through (--max-length 0: only empty arrays and maps)", () => {
    for (const line of genLines(
      options(["clustering-rules", "--max-length", "0", "--count", "30", "--seed", "2"]),
    )) {
      const body = JSON.parse(line) as {
        rules: { features: object; parameters: { excluded_words: unknown[] } };
      };
      expect(Object.keys(body.rules.features)).toEqual([]);
      expect(body.rules.parameters.excluded_words).toEqual([]);
    }
    for (const line of genLines(
      options([
        "push",
        "--stress",
        "--kinds",
        "deep-nesting",
        "--max-depth",
        "7",
        "--count",
        "30",
        "--seed",
        "2",
      ]),
    ))
      expect(JSON.parse(line)).toMatchObject({ stress: "deep-nesting" });
  });
});

describe("idp-gen --size huge", () => {
  it.each(Object.keys(CLI_OPERATIONS))(
    "%s: large valid bodies within --max-body-bytes and the profile's bounds",
    (name) => {
      const lines = [
        ...genLines(
          options([
            name,
            "--size",
            "huge",
            "--max-body-bytes",
            "65536",
            "--count",
            "12",
            "--seed",
            "4",
          ]),
        ),
      ];
      expect(lines).toHaveLength(12);
      for (const line of lines) {
        expect(Buffer.byteLength(line)).toBeLessThanOrEqual(65536);
        expect(classifyRequestBody(opOf(name), line).outcome).toBe("valid");
      }
      // Larger than the default size: the longest line is several kilobytes.
      expect(Math.max(...lines.map((l) => l.length))).toBeGreaterThan(4000);
    },
  );
});

describe("every idp-gen line is valid UTF-8 JSON, with no lone surrogate in what it carries", () => {
  const modes = [
    [],
    ["--invalid"],
    ["--stress", "--max-body-bytes", "65536"],
    ["--invalid", "--profile", "strict"],
  ];
  test.prop(
    [
      fc.constantFrom(...Object.keys(CLI_OPERATIONS)),
      fc.constantFrom(...modes),
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    ],
    { numRuns: 12 },
  )("for every operation and mode", (name, mode, seed) => {
    const count = mode[0] === "--stress" ? "20" : mode[0] === "--invalid" ? "2000" : "500";
    for (const line of genLines(
      options([name, ...mode, "--count", count, "--seed", String(seed)]),
    )) {
      expect(Buffer.from(line, "utf8").toString("utf8")).toBe(line);
      const record = JSON.parse(line) as unknown;
      for (const s of jsonStrings(record))
        if (hasLoneSurrogate(s)) expect.fail(`lone surrogate in ${line}`);
      const { raw, body } = record as { raw?: boolean; body?: unknown };
      // A raw body is text to send: it must be well-formed itself (and, when JSON, inside too).
      if (raw === true) expect(isWellFormed(String(body))).toBe(true);
    }
  });
});

describe("idp-gen --profile with a string bound's unit (conformance.md §6)", () => {
  const dir = mkdtempSync(join(tmpdir(), "idp-gen-unit-"));
  const file = join(dir, "utf16.json");
  writeFileSync(
    file,
    JSON.stringify({
      name: "utf16 keywords",
      bounds: {
        "rules.features.*.labels[].keywords[]": { maxLength: 5, unit: "utf16", status: 422 },
      },
    }),
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const keywords = (rules: unknown): string[] =>
    Object.values(
      (rules as { rules: { features: Record<string, { labels: { keywords: string[] }[] }> } }).rules
        .features,
    ).flatMap((f) => f.labels.flatMap((l) => l.keywords));

  it("prints valid lines within 5 UTF-16 units, some at 5 units of 3-byte characters", () => {
    const lines = [
      ...genLines(
        options(["clustering-rules", "--profile", file, "--count", "200", "--seed", "5"]),
      ),
    ];
    const all = lines.flatMap((l) => keywords(JSON.parse(l)));
    for (const k of all) expect(k.length).toBeLessThanOrEqual(5);
    expect(all.some((k) => k.length === 5 && Buffer.byteLength(k) === 15)).toBe(true);
  });

  it("prints invalid lines one UTF-16 unit or a few past it, expecting the bound's status", () => {
    const lines = [
      ...genLines(
        options([
          "clustering-rules",
          "--invalid",
          "--profile",
          file,
          "--count",
          "400",
          "--seed",
          "6",
        ]),
      ),
    ].map((l) => JSON.parse(l) as { body: unknown; expectedStatus: number; violation: string });
    const past = lines.filter((l) => l.violation.includes("past the profile's maxLength 5"));
    expect(past.length).toBeGreaterThan(0);
    for (const l of past) {
      expect(l.expectedStatus).toBe(422);
      expect(l.violation).toMatch(/: \d+ UTF-16 units, past/);
      expect(Math.max(...keywords(l.body).map((k) => k.length))).toBeGreaterThan(5);
    }
  });
});
