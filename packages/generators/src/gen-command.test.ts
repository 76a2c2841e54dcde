import { fc, test } from "@fast-check/vitest";
import { classifyRequestBody } from "@idp/contracts";
import { describe, expect, it } from "vitest";
import { GeneratorError } from "./errors.ts";
import { CLI_OPERATIONS, genLines, parseGenArgs } from "./gen-command.ts";

const noRandom = () => {
  throw new Error("the seed was given; no random seed should be drawn");
};

describe("parseGenArgs", () => {
  it("should read the operation and every flag of conformance.md §5", () => {
    expect(
      parseGenArgs(["push", "--invalid", "--count", "5", "--seed", "-7"], noRandom),
    ).toMatchObject({
      operation: "pushToUserDevices",
      invalid: true,
      count: 5,
      seed: -7,
      seedGiven: true,
    });
  });

  it("should draw a seed only when none is given", () => {
    expect(parseGenArgs(["create-schema"], () => 42)).toMatchObject({ seed: 42, seedGiven: false });
  });

  it.each([
    [["bogus"], /unknown operation "bogus"/],
    [[], /missing operation/],
    [["push", "--count", "ten"], /--count: expected an integer/],
    [["push", "--count", "-1"], /--count: expected an integer from 0/],
    [["push", "--seed", "1.5"], /--seed: expected an integer/],
    [["push", "--profile", "lax"], /--profile: expected default or strict/],
    [["push", "--colour"], /--colour/],
    [["push", "extra"], /unexpected argument "extra"/],
  ])("should reject %j with a one-line usage error naming the problem", (argv, message) => {
    const call = () => parseGenArgs(argv, () => 1);
    expect(call).toThrow(GeneratorError);
    expect(call).toThrow(message);
    try {
      call();
    } catch (e) {
      expect((e as GeneratorError).code).toBe("E_USAGE");
      expect((e as Error).message).not.toContain("\n");
    }
  });
});

describe("genLines", () => {
  const options = (argv: string[]) => {
    const o = parseGenArgs(argv, noRandom);
    if (o === "help") throw new Error("unexpected help");
    return o;
  };

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
    const op = CLI_OPERATIONS[name] ?? "createSchema";
    for (const line of first) expect(classifyRequestBody(op, line).outcome).toBe("valid");
  });

  it("should keep a shorter run a prefix of a longer one across chunks", () => {
    const long = [...genLines(options(["push", "--count", "1200", "--seed", "3"]))];
    const short = [...genLines(options(["push", "--count", "1001", "--seed", "3"]))];
    expect(long.slice(0, 1001)).toEqual(short);
    expect(new Set(long).size).toBe(long.length);
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
});
