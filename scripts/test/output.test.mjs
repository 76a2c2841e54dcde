// The filter between the tools and a piped `pnpm test` / `pnpm verify`'s build notice.
import { spawn } from "node:child_process";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { colourWanted, noColourEnv, noiseFilter, pipeLines, plainLine } from "../lib/output.mjs";

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

describe("colourWanted", () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [true, { TERM: "dumb" }, false],
    [false, { FORCE_COLOR: "1" }, true],
    [true, { FORCE_COLOR: "0" }, false],
    [true, { NO_COLOR: "1" }, false],
    [true, { NO_COLOR: "" }, true],
    [false, { NO_COLOR: "1", FORCE_COLOR: "1" }, false],
  ])("isTTY %s, env %j: %s", (isTTY, env, expected) => {
    expect(colourWanted(isTTY, env)).toBe(expected);
  });

  it("asks children for no colour in both dialects", () => {
    expect(noColourEnv({ FORCE_COLOR: "1", PATH: "/bin" })).toEqual({
      FORCE_COLOR: "0",
      NO_COLOR: "1",
      PATH: "/bin",
    });
  });
});

describe("plainLine", () => {
  it.each([
    // vitest, as turbo replays it from its cache
    [
      "@idp/x:test:  \x1b[32m✓\x1b[39m \x1b[30m\x1b[46m @idp/x \x1b[49m\x1b[39m test/a.test.ts \x1b[2m(\x1b[22m\x1b[2m3 tests\x1b[22m\x1b[2m)\x1b[22m",
      "@idp/x:test:  ✓  @idp/x  test/a.test.ts (3 tests)",
    ],
    // turbo's own bold summary, with its cursor-clearing tail
    [
      "\x1b[1m Tasks:    \x1b[32m\x1b[1m25 successful\x1b[0m, 25 total\x1b[0m",
      " Tasks:    25 successful, 25 total",
    ],
    [
      "    ...Finishing writing to cache...     \r\x1b[2K",
      "    ...Finishing writing to cache...     ",
    ],
    // a progress counter overwritten in place: the terminal would show the last one
    ["10%\r50%\r100%", "100%"],
    ["a line from Windows\r", "a line from Windows"],
    // an OSC 8 hyperlink
    ["see \x1b]8;;https://example.invalid\x07the docs\x1b]8;;\x07", "see the docs"],
  ])("%j -> %j", (line, plain) => {
    expect(plainLine(line)).toBe(plain);
  });

  const sgr = fc.constantFrom(
    "\x1b[0m",
    "\x1b[1m",
    "\x1b[32m",
    "\x1b[39m",
    "\x1b[1;31m",
    "\x1b[38;5;208m",
  );
  const text = fc.string({ unit: fc.constantFrom("a", "✓", " ", ":", "@", "é", "𝒙", "[", "m") });
  test.prop([fc.array(fc.tuple(fc.option(sgr), text), { maxLength: 12 })])(
    "keeps every character of the text and none of the colours",
    (parts) => {
      const line = parts.map(([c, t]) => `${c ?? ""}${t}`).join("");
      const plain = plainLine(line);
      expect(plain).toBe(parts.map(([, t]) => t).join(""));
      expect(plain).not.toMatch(CONTROL);
    },
  );
});

// What tsdown printed for one build of @idp/contracts (pnpm test, before this filter).
const TSDOWN = [
  "$ tsdown",
  "ℹ tsdown v0.22.14 powered by rolldown v1.2.19",
  "ℹ config file: /repo/packages/contracts/tsdown.config.ts ",
  "ℹ entry: src/index.ts, src/openapi-cli.ts",
  "ℹ Build start",
  "ℹ dist/index.mjs             45.88 kB │ gzip: 13.39 kB",
  "ℹ 5 files, total: 107.26 kB",
  "[PLUGIN_TIMINGS] JavaScript callbacks ran for 6.3s of this 6.4s build (98%).",
  "The slowest callbacks, timed inside each callback (the wait before a callback starts is excluded, the time it awaits is included):",
  "  - plugin rolldown-plugin-dts:generate load (90%, 5.8s, 29 calls)",
  "Additional callback time came from the callbacks below and from callbacks under 1s.",
  "2 callbacks are listed without a time. Their calls overlapped, so the time inside one call includes work from other calls. To find their cost, profile the build with `node --cpu-prof`:",
  "  - plugin rolldown-plugin-dts:resolver resolveId (208 calls)",
  "See https://rolldown.rs/reference/InputOptions.checks#bundlertimings for more details.",
  "",
  "✔ Build complete in 6721ms",
];
const VITEST_TAIL = [
  "      Tests  126 passed (126)",
  "",
  "    Isolate  9 workers spawned · ~510ms startup each (spawn + environment, per file)",
  "             at least ~4.08s faster with isolate: false — reuses workers across files instead of one per file",
  "",
  "JSON report written to /repo/packages/generators/.vitest-report.json",
];
const keep = (lines, filter = noiseFilter()) =>
  lines.map((l) => filter(l)).filter((l) => l !== undefined);

describe("noiseFilter", () => {
  it("keeps of a tsdown build only the command and its end", () => {
    expect(keep(TSDOWN)).toEqual(["$ tsdown", "✔ Build complete in 6721ms"]);
  });

  it("drops vitest's isolate hint and keeps the counts", () => {
    expect(keep(VITEST_TAIL)).toEqual([
      "      Tests  126 passed (126)",
      "",
      "JSON report written to /repo/packages/generators/.vitest-report.json",
    ]);
  });

  it("follows each turbo task by its prefix, however their lines interleave", () => {
    const a = TSDOWN.map((l) => `@idp/contracts:build: ${l}`);
    const b = [
      "cache miss, executing 1",
      "$ tsc -p tsconfig.json",
      "src/x.ts(1,1): error TS1: no",
    ].map((l) => `@idp/generators:typecheck: ${l}`);
    const mixed = a.flatMap((l, i) => (b[i] === undefined ? [l] : [l, b[i]]));
    expect(keep(mixed)).toEqual([
      "@idp/contracts:build: $ tsdown",
      ...b,
      "@idp/contracts:build: ✔ Build complete in 6721ms",
    ]);
  });

  it("keeps warnings and errors, and stops hiding a timings block that never ends", () => {
    const lines = [
      "[PLUGIN_TIMINGS] JavaScript callbacks ran for 1s",
      ...Array.from({ length: 60 }, (_, i) => `line ${i}`),
    ];
    const kept = keep(lines);
    expect(kept.length).toBeGreaterThan(15);
    expect(kept.at(-1)).toBe("line 59");
    expect(
      keep(["⚠ [MISSING_EXPORT] x is not exported", "ERROR  run failed: command  exited (1)"]),
    ).toEqual(["⚠ [MISSING_EXPORT] x is not exported", "ERROR  run failed: command  exited (1)"]);
  });
});

it("pipeLines copies a child's lines through the filter, in order", async () => {
  const child = spawn(process.execPath, [
    "-e",
    `for (const l of ${JSON.stringify(["\x1b[32mone\x1b[39m", "[PLUGIN_TIMINGS] x", "See https://rolldown.rs/x#bundlertimings y", "", "two"])}) console.log(l)`,
  ]);
  let out = "";
  const filter = noiseFilter();
  await pipeLines(
    child.stdout,
    (t) => {
      out += t;
    },
    (l) => filter(plainLine(l)),
  );
  expect(out).toBe("one\ntwo\n");
});
