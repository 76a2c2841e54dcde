import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  asksForHelp,
  brokerAuthorization,
  brokerTarget,
  CliError,
  commandOf,
  commandsHelp,
  type FlagTable,
  flagsHelp,
  oneOf,
  parseFlagValues,
  readFlags,
} from "../src/cli/index.ts";

const TABLE = {
  count: { type: "string", value: "N", defaultText: "10", description: "how many" },
  verbose: { type: "boolean", short: "v", env: ["X_VERBOSE"], description: "say more" },
  secret: { type: "string", envOnly: true, env: ["X_SECRET"], description: "a token" },
} as const satisfies FlagTable;

const usageError = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    return (e as CliError).message;
  }
  throw new Error("no error");
};

describe("readFlags", () => {
  it("reads flags, then the environment; an envOnly setting only from the environment", () => {
    const r = readFlags(TABLE, ["--count", "3"], { X_VERBOSE: "yes", X_SECRET: "s" });
    expect(r.values).toEqual({ count: "3", verbose: true, secret: "s" });
    expect(r.from).toEqual({ count: "--count", verbose: "X_VERBOSE", secret: "X_SECRET" });
  });

  it("takes no command-line flag for an envOnly setting, and suggests none", () => {
    expect(usageError(() => readFlags(TABLE, ["--secret", "s"], {}))).toBe(
      "unknown option --secret",
    );
    expect(usageError(() => readFlags(TABLE, ["--secrte", "s"], {}))).toBe(
      "unknown option --secrte",
    );
    expect(usageError(() => readFlags(TABLE, ["--cuont", "3"], {}))).toBe(
      "unknown option --cuont (did you mean --count?)",
    );
  });
});

describe("commandOf", () => {
  const COMMANDS = {
    publish: { summary: "publish", flags: {} },
    "record-deployment": { summary: "record", flags: {} },
  };

  it("names the command, or the closest one and every one", () => {
    expect(commandOf("x", COMMANDS, "publish")).toBe("publish");
    expect(usageError(() => commandOf("x", COMMANDS, "record-deploy"))).toBe(
      'unknown command "record-deploy" (did you mean record-deployment?): expected one of publish, record-deployment (x --help)',
    );
    expect(usageError(() => commandOf("x", COMMANDS, "zzz"))).toBe(
      'unknown command "zzz": expected one of publish, record-deployment (x --help)',
    );
    expect(usageError(() => commandOf("x", COMMANDS, undefined))).toBe(
      "missing command: one of publish, record-deployment",
    );
    // Not a command: a property every object has.
    expect(() => commandOf("x", COMMANDS, "toString")).toThrow(CliError);
  });

  it("lets --help win before a --, not after it", () => {
    expect(asksForHelp(["publish", "--bad", "-h"])).toBe(true);
    expect(asksForHelp(["publish", "--", "--help"])).toBe(false);
  });
});

describe("help", () => {
  it("lists every flag with its default and environment; an envOnly setting by its variable", () => {
    const text = flagsHelp(TABLE).join("\n");
    expect(text).toMatch(/^Options:\n {2}--count N +how many \(default: 10\)$/m);
    expect(text).toMatch(/^ {2}--verbose, -v +say more \(env X_VERBOSE\)$/m);
    expect(text).toMatch(/^ {2}X_SECRET +a token$/m);
  });

  it("stacks long descriptions as sentences under the flag, with a CLI's own note", () => {
    const text = flagsHelp(TABLE, undefined, 80, {
      layout: "stacked",
      note: (name) => (name === "count" ? "Only for lists." : undefined),
    }).join("\n");
    expect(text).toContain("  --count N\n      How many. Default: 10. Only for lists.\n");
    expect(text).toContain("  --verbose, -v\n      Say more. Environment: X_VERBOSE.\n");
  });

  it("lists each command and each command's flags", () => {
    const text = commandsHelp("x", {
      publish: { summary: "sends them", flags: { dir: { type: "string", description: "where" } } },
      doctor: { summary: "checks", flags: {} },
    }).join("\n");
    expect(text).toMatch(/^Commands:\n {2}publish +sends them\n {2}doctor +checks\n$/m);
    expect(text).toMatch(/^x publish:\n {2}--dir +where$/m);
    expect(text).not.toContain("x doctor:");
  });

  it("lists a flag several commands share once, under their names", () => {
    const dir = { type: "string", description: "where" } as const;
    const text = commandsHelp("x", {
      publish: { summary: "a", flags: { dir, all: { type: "boolean", description: "every" } } },
      check: { summary: "b", flags: { dir } },
      other: { summary: "c", flags: { dir: { type: "string", description: "elsewhere" } } },
    }).join("\n");
    // Sections in the order their first flag appears.
    expect(text).toMatch(/^x publish, check:\n {2}--dir +where\n\nx publish:\n {2}--all +every$/m);
    expect(text).toMatch(/^x other:\n {2}--dir +elsewhere$/m);
  });
});

describe("oneOf", () => {
  it("names the flag, every word and the closest", () => {
    const size = oneOf("--size", ["small", "huge"]);
    expect(parseFlagValues(size, "huge")).toBe("huge");
    expect(usageError(() => parseFlagValues(size, "hug"))).toBe(
      '--size must be one of small, huge (received "hug"): did you mean huge?',
    );
    expect(usageError(() => parseFlagValues(z.object({ s: size }), { s: "x" }))).toBe(
      '--size must be one of small, huge (received "x")',
    );
  });
});

describe("brokerTarget", () => {
  const names = { url: "U", token: "T", username: "N", password: "P" };

  it("splits user-info off the URL as the basic login, and never echoes a value", () => {
    const t = brokerTarget({ url: "https://a:b%40c@broker.example/", names });
    expect(t).toEqual({
      url: "https://broker.example",
      login: { username: "a", password: "b@c" },
    });
    expect(brokerAuthorization({ username: "a", password: "b@c" })).toBe(`Basic ${btoa("a:b@c")}`);
    expect(brokerAuthorization({ token: "t" })).toBe("Bearer t");
    expect(brokerTarget({ url: " ", token: "t", names })).toBeUndefined();
    expect(usageError(() => brokerTarget({ url: "ftp://s3cret@x", names }))).toBe(
      "U is not an absolute http(s) URL",
    );
    expect(
      usageError(() => brokerTarget({ url: "https://x", token: "t", username: "n", names })),
    ).toBe("give either T (PactFlow) or N and P (the open-source Pact Broker), not both");
    expect(usageError(() => brokerTarget({ url: "https://x", username: "n", names }))).toBe(
      "P is not set (basic auth needs both N and P)",
    );
  });
});
