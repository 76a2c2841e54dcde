// The live display and colour, as pure functions and a class with a fake terminal and clock.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  barCells,
  COLOURS,
  colourWanted,
  durationText,
  ESCAPES,
  etaMs,
  LiveProgress,
  PLAIN,
  renderBar,
  visible,
} from "../src/terminal/index.ts";

// Anything a terminal would act on: escape sequences, \r, and other controls but \n.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is what it looks for
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f]/;

describe("colourWanted (no-color.org, FORCE_COLOR)", () => {
  it.each([
    ["a terminal", true, {}, true],
    ["a pipe", false, {}, false],
    ["a terminal with TERM=dumb", true, { TERM: "dumb" }, false],
    ["a pipe with FORCE_COLOR=1", false, { FORCE_COLOR: "1" }, true],
    ["a pipe with FORCE_COLOR=3", false, { FORCE_COLOR: "3" }, true],
    ["a pipe with FORCE_COLOR set but empty", false, { FORCE_COLOR: "" }, true],
    ["a terminal with FORCE_COLOR=0", true, { FORCE_COLOR: "0" }, false],
    ["a terminal with FORCE_COLOR=false", true, { FORCE_COLOR: "false" }, false],
    ["a terminal with NO_COLOR=1", true, { NO_COLOR: "1" }, false],
    ["a terminal with NO_COLOR empty (it does not count)", true, { NO_COLOR: "" }, true],
    [
      "FORCE_COLOR=1 and NO_COLOR=1 (NO_COLOR wins)",
      true,
      { FORCE_COLOR: "1", NO_COLOR: "1" },
      false,
    ],
  ])("%s", (_, isTTY, env, expected) => {
    expect(colourWanted(isTTY, env)).toBe(expected);
  });

  test.prop([
    fc.boolean(),
    fc.string({ minLength: 1 }),
    fc.option(fc.string()),
    fc.option(fc.string()),
  ])(
    "any non-empty NO_COLOR turns colour off, whatever the stream, FORCE_COLOR and TERM",
    (isTTY, noColor, force, term) => {
      const env = {
        NO_COLOR: noColor,
        ...(force === null ? {} : { FORCE_COLOR: force }),
        ...(term === null ? {} : { TERM: term }),
      };
      expect(colourWanted(isTTY, env)).toBe(false);
    },
  );

  test.prop([fc.string()])("coloured text shows the same as plain text", (text) => {
    for (const tone of ["green", "red", "yellow", "bold", "dim"] as const) {
      expect(visible(COLOURS[tone](text))).toBe(text);
      expect(PLAIN[tone](text)).toBe(text);
    }
    expect(COLOURS.red("x")).toBe("\x1b[31mx\x1b[39m");
  });
});

describe("durationText and etaMs", () => {
  it.each([
    [0, "0 s"],
    [1499, "1 s"],
    [59_400, "59 s"],
    [60_000, "1 min 00 s"],
    [125_000, "2 min 05 s"],
    [3_725_000, "1 h 02 min"],
  ])("%d ms is %s", (ms, text) => {
    expect(durationText(ms)).toBe(text);
  });

  it("is the time left at the rate so far, only once it means something", () => {
    expect(etaMs(50, 100, 10_000)).toBe(10_000); // half done in 10 s: 10 s to go
    expect(etaMs(90, 100, 9_000)).toBe(1_000);
    expect(etaMs(0, 100, 5_000)).toBeUndefined(); // no rate yet
    expect(etaMs(10, 100, 900)).toBeUndefined(); // under a second of data
    expect(etaMs(100, 100, 9_000)).toBeUndefined(); // done
  });
});

/** The fraction a bar shows, read back from its cells (█ = 8 eighths, ▏..▉ = 1..7). */
const eighthsOf = (cells: string) =>
  [...cells].reduce((n, c) => n + (c === "█" ? 8 : " ▏▎▍▌▋▊▉".indexOf(c)), 0);

describe("renderBar", () => {
  test.prop([fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 60 })])(
    "barCells fills the fraction to the nearest eighth of a cell, in exactly `width` cells",
    (fraction, width) => {
      const { filled, empty } = barCells(fraction, width);
      expect([...filled, ...empty]).toHaveLength(width);
      expect(Math.abs(eighthsOf(filled) - fraction * width * 8)).toBeLessThanOrEqual(0.5);
    },
  );

  const state = fc
    .record({
      runsTotal: fc.nat({ max: 100_000 }),
      pactsTotal: fc.nat({ max: 500 }),
      runsPart: fc.double({ min: 0, max: 1, noNaN: true }),
      pactsPart: fc.double({ min: 0, max: 1, noNaN: true }),
      elapsedMs: fc.nat({ max: 10_000_000 }),
    })
    .map((s) => ({
      runs: { done: Math.floor(s.runsTotal * s.runsPart), total: s.runsTotal },
      pacts: { done: Math.floor(s.pactsTotal * s.pactsPart), total: s.pactsTotal },
      elapsedMs: s.elapsedMs,
    }));

  test.prop([state, fc.integer({ min: 1, max: 300 })])(
    "fits one line short of the terminal's width and holds no control character",
    (s, columns) => {
      const bar = renderBar(s, columns, COLOURS);
      expect([...visible(bar)].length).toBeLessThanOrEqual(columns - 1);
      expect(visible(bar)).not.toMatch(CONTROL);
    },
  );

  test.prop([state])("on a wide terminal, shows runs and pacts done of their totals", (s) => {
    const bar = renderBar(s, 200);
    if (s.runs.total > 0) expect(bar).toContain(` ${s.runs.done}/${s.runs.total} runs`);
    if (s.pacts.total > 0) expect(bar).toContain(`${s.pacts.done}/${s.pacts.total} pacts`);
  });

  it("reads as a person expects", () => {
    const s = { runs: { done: 900, total: 1800 }, pacts: { done: 0, total: 12 }, elapsedMs: 9000 };
    // 900 of 1812 cases in 9 s: 9.12 s left.
    expect(renderBar(s, 100)).toBe(
      `▕${"█".repeat(14)}▉${" ".repeat(15)}▏ 900/1800 runs · 0/12 pacts · 9 s · ETA 9 s`,
    );
    expect(renderBar(s, 40)).toBe("900/1800 runs · 0/12 pacts · 9 s");
    expect(renderBar(s, 20)).toBe("900/1800 runs");
    expect(renderBar(s, 10)).toBe("900/1800 ");
    expect(renderBar({ ...s, runs: { done: 0, total: 0 }, pacts: { done: 3, total: 0 } }, 80)).toBe(
      "3 pacts · 9 s",
    );
  });

  it("colours only the filled part", () => {
    const s = { runs: { done: 5, total: 10 }, pacts: { done: 0, total: 0 }, elapsedMs: 0 };
    expect(renderBar(s, 60, COLOURS)).toContain(
      `\x1b[32m${"█".repeat(15)}\x1b[39m${" ".repeat(15)}▏`,
    );
  });
});

/** A fake terminal and clock around a LiveProgress. */
function fake(isTTY: boolean, columns = 80) {
  let now = 0;
  let out = "";
  const writes: string[] = [];
  const live = new LiveProgress({
    isTTY,
    columns: () => columns,
    now: () => now,
    write: (t) => {
      out += t;
      writes.push(t);
    },
  });
  return {
    live,
    writes,
    out: () => out,
    advance: (ms: number) => {
      now += ms;
    },
    /** What the terminal shows: a tiny terminal with \r, \n and ESC[K (clear to line end). */
    screen: () => {
      const lines: string[][] = [[]];
      let col = 0;
      for (let i = 0; i < out.length; i++) {
        const line = lines[lines.length - 1] as string[];
        if (out.startsWith("\x1b[K", i)) {
          line.length = col;
          i += 2;
        } else if (out[i] === "\r") col = 0;
        else if (out[i] === "\n") {
          lines.push([]);
          col = 0;
        } else line[col++] = out[i] as string;
      }
      return lines.map((l) => l.join(""));
    },
  };
}

describe("LiveProgress", () => {
  it("writes only the lines, with no control character at all, when stderr is not a terminal", () => {
    const t = fake(false);
    t.live.line("verifying http://127.0.0.1:1/v1");
    t.live.plan({ runs: 200, pacts: 3 });
    for (let i = 0; i < 200; i++) {
      t.advance(7);
      t.live.caseDone(i % 2 ? "R1.auth.no-header" : "R8.no-success-body");
    }
    t.live.line("✓ R8.no-success-body (100 runs, 1.2 s)");
    t.live.tick();
    t.live.stop();
    expect(t.out()).toBe(
      "verifying http://127.0.0.1:1/v1\n✓ R8.no-success-body (100 runs, 1.2 s)\n",
    );
  });

  it("on a terminal, keeps the lines and one bar under them, redrawn in place", () => {
    const t = fake(true);
    t.live.line("verifying");
    t.live.plan({ runs: 200, pacts: 2 });
    t.advance(2000);
    for (let i = 0; i < 100; i++) t.live.caseDone("R8.no-success-body");
    t.live.checkDone("R8.no-success-body", 100);
    t.live.line("✓ R8.no-success-body (100 runs, 2.0 s)");
    expect(t.screen()).toEqual([
      "verifying",
      "✓ R8.no-success-body (100 runs, 2.0 s)",
      `▕${"█".repeat(14)}▉${" ".repeat(15)}▏ 100/200 runs · 0/2 pacts · 2 s · ETA 2 s`,
    ]);
    t.live.stop();
    expect(t.screen()).toEqual(["verifying", "✓ R8.no-success-body (100 runs, 2.0 s)", ""]);
    // After stop, the terminal is the caller's again: plain lines, no redraws.
    t.live.caseDone("R1.auth.no-header");
    t.live.line("done");
    expect(t.out().endsWith("\r\x1b[Kdone\n")).toBe(true);
  });

  it("redraws at most every 100 ms however fast cases finish", () => {
    const t = fake(true);
    t.live.plan({ runs: 1000, pacts: 0 });
    const before = t.writes.length;
    for (let i = 0; i < 1000; i++) {
      t.advance(1); // 1000 cases in one second
      t.live.caseDone("R5.invalid-rejected.createSchema");
    }
    expect(t.writes.length - before).toBe(10);
    t.live.tick(); // a timer's tick within 100 ms of the last redraw draws nothing
    expect(t.writes.length - before).toBe(10);
    t.advance(100);
    t.live.tick();
    expect(t.writes.length - before).toBe(11);
    expect(t.screen().at(-1)).toMatch(/ 1000\/1000 runs · 1 s$/);
  });

  it("counts a check that stopped early as done, and pact interactions apart", () => {
    const t = fake(true, 120);
    t.live.plan({ runs: 300, pacts: 4 });
    for (let i = 0; i < 7; i++) t.live.caseDone("R4.valid-accepted.createSchema");
    t.live.checkDone("R4.valid-accepted.createSchema", 100); // failed after 7 runs
    t.live.caseDone("pact.create schema: 201 for a valid schema");
    t.live.checkDone("pact.create schema: 201 for a valid schema", 1);
    t.advance(100);
    t.live.tick();
    expect(t.live.state()).toMatchObject({
      runs: { done: 100, total: 300 },
      pacts: { done: 1, total: 4 },
    });
    expect(t.screen().at(-1)).toContain("100/300 runs · 1/4 pacts");
  });

  it("fits a narrow terminal and follows a resize", () => {
    let columns = 120;
    let out = "";
    const live = new LiveProgress({
      isTTY: true,
      columns: () => columns,
      now: () => 0,
      write: (t) => {
        out += t;
      },
    });
    live.plan({ runs: 1800, pacts: 12 });
    columns = 30;
    live.line("x");
    const bar = out.slice(out.lastIndexOf("\n") + 1);
    expect([...visible(bar)].length).toBeLessThanOrEqual(29);
    expect(bar).not.toContain("▕");
  });
});

it("ESCAPES finds what the bar and colours write", () => {
  expect("\r\x1b[K\x1b[32mok\x1b[39m".replace(ESCAPES, "")).toBe("ok");
});
