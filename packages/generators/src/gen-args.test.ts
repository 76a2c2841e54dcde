import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { strictProfile } from "@idp/contracts";
import { flagUsage } from "@idp/contracts/cli";
import { describe, expect, it } from "vitest";
import { GeneratorError } from "./errors.ts";
import { GEN_FLAGS, helpText, parseGenArgs } from "./gen-args.ts";

const noRandom = () => {
  throw new Error("the seed was given; no random seed should be drawn");
};

describe("parseGenArgs", () => {
  it("should read the operation and the flags of conformance.md §5", () => {
    expect(
      parseGenArgs(["push", "--invalid", "--count", "5", "--seed", "-7"], noRandom),
    ).toMatchObject({
      operation: "pushToUserDevices",
      mode: "invalid",
      count: 5,
      seed: -7,
      seedGiven: true,
    });
    expect(parseGenArgs(["create-schema", "--profile=strict", "--seed=3"], noRandom)).toMatchObject(
      {
        operation: "createSchema",
        mode: "valid",
        profile: strictProfile,
        seed: 3,
      },
    );
  });

  it("should draw a seed only when none is given, and default to 10 valid bodies", () => {
    expect(parseGenArgs(["create-schema"], () => 42)).toMatchObject({
      seed: 42,
      seedGiven: false,
      count: 10,
      mode: "valid",
      valid: {},
      stress: {},
    });
  });

  it("should pass the size options through to the library", () => {
    expect(
      parseGenArgs(["clustering-rules", "--max-length", "40", "--size", "large"], () => 1),
    ).toMatchObject({ valid: { maxLength: 40, size: "large" } });
    expect(
      parseGenArgs(
        [
          "push",
          "--stress",
          "--kinds",
          "unicode,deep-nesting",
          "--max-depth",
          "600",
          "--max-string-length=7",
          "--max-keys",
          "8",
          "--max-array-length",
          "9",
          "--max-body-bytes",
          "70000",
        ],
        () => 1,
      ),
    ).toMatchObject({
      mode: "stress",
      stress: {
        kinds: ["unicode", "deep-nesting"],
        maxDepth: 600,
        maxStringLength: 7,
        maxKeys: 8,
        maxArrayLength: 9,
        maxBodyBytes: 70000,
      },
    });
  });

  it("should let --help and --version win over everything else before --", () => {
    expect(parseGenArgs(["push", "--cout", "3", "--help"], noRandom)).toBe("help");
    expect(parseGenArgs(["-h"], noRandom)).toBe("help");
    expect(parseGenArgs(["--version", "bogus"], noRandom)).toBe("version");
    expect(() => parseGenArgs(["push", "--", "--help"], noRandom)).toThrow(
      'unexpected argument "--help"',
    );
  });

  it.each([
    [["push", "--count", "-1"], '--count must be a whole number >= 1 (received "-1")'],
    [["push", "--count", "0"], '--count must be a whole number >= 1 (received "0")'],
    [["push", "--count", "ten"], '--count must be a whole number >= 1 (received "ten")'],
    [["push", "--count"], "--count needs a value (N)"],
    [["push", "--count", "--invalid"], "--count needs a value (N)"],
    [
      ["push", "--seed", "1.5"],
      '--seed must be a whole number from -2147483648 to 2147483647 (received "1.5")',
    ],
    [["push", "--cout", "3"], "unknown option --cout (did you mean --count?)"],
    [["push", "--invaild"], "unknown option --invaild (did you mean --invalid?)"],
    [["push", "--max-dept", "3"], "unknown option --max-dept (did you mean --max-depth?)"],
    [["push", "--colour"], "unknown option --colour"],
    [["push", "-c", "3"], "unknown option -c"],
    [
      ["pus"],
      'unknown operation "pus": did you mean push? (expected one of create-schema, push, clustering-rules)',
    ],
    [["create_schema"], 'unknown operation "create_schema": did you mean create-schema?'],
    [
      ["bogus"],
      'unknown operation "bogus" (expected one of create-schema, push, clustering-rules)',
    ],
    [[], "missing operation: expected one of create-schema, push, clustering-rules"],
    [["push", "extra"], 'unexpected argument "extra": idp-gen takes one operation ("push")'],
    [
      ["push", "--profile", "stric"],
      'profile stric: expected "default", "strict" or the path of a readable JSON profile file',
    ],
    [["push", "--profile", "stric"], 'did you mean "strict"?'],
    [
      ["push", "--size", "hug"],
      '--size must be one of xsmall, small, medium, large, xlarge, huge (received "hug"): did you mean huge?',
    ],
    [
      ["push", "--max-body-bytes", "70000"],
      "--max-body-bytes applies to valid bodies only with --size huge",
    ],
    [
      ["push", "--size", "huge", "--max-length", "40"],
      "--max-length does not apply with --size huge: cut huge bodies with --max-body-bytes",
    ],
    [
      ["push", "--invalid", "--max-body-bytes", "70000"],
      "--max-body-bytes applies only to --stress and valid bodies (without --invalid or --stress)",
    ],
    [["push", "--invalid=yes"], "--invalid takes no value"],
    [["push", "--invalid", "--stress"], "--invalid and --stress cannot be combined: choose one"],
    [["push", "--max-depth", "5"], "--max-depth applies only to --stress"],
    [
      ["push", "--invalid", "--size", "large"],
      "--size applies only to valid bodies (without --invalid or --stress)",
    ],
    [
      ["push", "--stress", "--kinds", "deep,unicode"],
      '--kinds: unknown kind "deep": did you mean deep-nesting?',
    ],
    [
      ["push", "--stress", "--max-body-bytes", "1000"],
      '--max-body-bytes must be a whole number >= 65536 (received "1000")',
    ],
  ])("should reject %j with one line saying what is expected", (argv, message) => {
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

describe("--profile PATH", () => {
  const profiles = fileURLToPath(new URL("../../../profiles/", import.meta.url));

  it("should load a profile file relative to the given directory", () => {
    const options = parseGenArgs(["push", "--profile", "observed-service.json"], () => 1, {
      cwd: profiles,
    });
    if (typeof options === "string") throw new Error(options);
    expect(options.profile.name).toBe("observed-service");
    expect(options.profile.statusMapping.pushToUserDevices["wrong-type"]).toBe(
      JSON.parse(readFileSync(join(profiles, "observed-service.json"), "utf8")).statusMapping
        .pushToUserDevices["wrong-type"],
    );
  });

  it("should turn a bad file into one E_USAGE line that names it", () => {
    const dir = mkdtempSync(join(tmpdir(), "gen-args-profile-"));
    try {
      writeFileSync(join(dir, "p.json"), '{"name":"p","extends":"lenient"}');
      const call = () => parseGenArgs(["push", "--profile", "p.json"], () => 1, { cwd: dir });
      expect(call).toThrow(GeneratorError);
      expect(call).toThrow(/^profile p\.json: extends: expected /);
      try {
        call();
      } catch (e) {
        expect((e as GeneratorError).code).toBe("E_USAGE");
        expect((e as Error).message).not.toContain("\n");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("helpText", () => {
  const help = helpText("9.9.9");

  it("should explain every option with its default, the output of each mode, and examples", () => {
    for (const flag of [
      "--invalid",
      "--stress",
      "--count N",
      "--seed S",
      "--profile default|strict|PATH",
      "--max-length N",
      "--size xsmall|small|medium|large|xlarge|huge",
      "--kinds LIST",
      "--max-depth N",
      "--max-string-length N",
      "--max-keys N",
      "--max-array-length N",
      "--max-body-bytes N",
      "--version",
      "--help, -h",
    ])
      expect(help).toContain(`\n  ${flag}\n`);
    for (const text of [
      "idp-gen 9.9.9",
      "Default: 10.",
      "Default: 10000.",
      "Default: 1048576 (1 MiB).",
      "Bodies may hold any Unicode",
      "each valid UTF-8 JSON",
      "Examples:",
      "POST /marketing/datastore/schemas",
    ])
      expect(help).toContain(text);
  });

  it("should list every flag of its table", () => {
    for (const [name, spec] of Object.entries(GEN_FLAGS))
      expect(help).toContain(`\n  ${flagUsage(name, spec)}\n`);
  });

  it("should run every example it shows through the parser", () => {
    const examples = help
      .split("\n")
      .filter((l) => l.startsWith("  idp-gen "))
      .map((l) =>
        l
          .replace(/\|.*$|>.*$/, "")
          .trim()
          .split(/\s+/)
          .slice(1),
      );
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const argv of examples) expect(typeof parseGenArgs(argv, () => 1)).toBe("object");
  });
});

describe("README", () => {
  it("should show the --help that idp-gen prints", () => {
    const dir = new URL("..", import.meta.url);
    const { version } = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")) as {
      version: string;
    };
    const readme = readFileSync(new URL("README.md", dir), "utf8");
    expect(readme).toContain(
      `\`idp-gen --help\` prints:\n\n\`\`\`\n${helpText(version)}\n\`\`\`\n`,
    );
  });
});
