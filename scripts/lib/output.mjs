// Shared by run-tests.mjs and run-bin.mjs: whether a stream gets colour, the environment that turns
// children's colour off, and a line filter that takes escape codes and tool noise out of piped logs.
import { createInterface } from "node:readline";

/**
 * Colour for a stream, as no-color.org and FORCE_COLOR say: NO_COLOR (non-empty) wins, then
 * FORCE_COLOR ("0"/"false" never, any other value always), else only a terminal that is not dumb.
 * @param {boolean} isTTY
 * @param {Record<string, string | undefined>} env
 */
export function colourWanted(isTTY, env) {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return isTTY && env.TERM !== "dumb";
}

/**
 * The environment for children whose output is piped on: both variables, since the tools disagree
 * (tinyrainbow and picocolors read NO_COLOR and take any FORCE_COLOR, even "0", as "colour";
 * vitest's other colour helper colours even a pipe unless FORCE_COLOR is "0").
 * @param {Record<string, string | undefined>} env
 */
export const noColourEnv = (env) => ({ ...env, NO_COLOR: "1", FORCE_COLOR: "0" });

/** CSI, OSC and other ESC sequences (colours, cursor moves, hyperlinks). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are the point
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/**
 * A line as a log file should hold it: no escape codes, and after a carriage return only what a
 * terminal would have kept (the text after the last one).
 * @param {string} line
 */
export function plainLine(line) {
  const text = line.replace(ESCAPES, "");
  const cr = text.replace(/\r+$/, "").lastIndexOf("\r");
  return (cr < 0 ? text : text.slice(cr + 1)).replace(/\r+$/, "");
}

/** Turbo's task prefix, `@idp/contracts:build: `. */
const PREFIX = /^(\S+:[\w-]+: )?(.*)$/s;

/**
 * Tool noise, per task (turbo interleaves tasks' lines, each with its prefix):
 * - tsdown's `ℹ` lines (config file, entry, each output file's size): `✔ Build complete` stays,
 *   and so do its warnings and errors;
 * - rolldown's plugin-timings block, `[PLUGIN_TIMINGS] ...` to `See https://rolldown.rs/...`,
 *   and the blank line after it;
 * - vitest's two-line `Isolate ... workers spawned` / `... faster with isolate: false` hint, and
 *   the blank line after it.
 * Returns a function from a (plain) line to the line, or undefined to drop it.
 */
export function noiseFilter() {
  /** Per prefix: inside a timings block (lines left before giving up), or just after one. */
  const state = new Map();
  return (/** @type {string} */ line) => {
    const [, prefix = "", text = ""] = PREFIX.exec(line) ?? [];
    const s = state.get(prefix);
    if (s?.inBlock !== undefined) {
      // A block that never ends (rolldown changed its wording) stops hiding after 40 lines.
      if (/rolldown\.rs\/.*bundlertimings/i.test(text) || s.inBlock <= 0)
        state.set(prefix, { after: true });
      else state.set(prefix, { inBlock: s.inBlock - 1 });
      return undefined;
    }
    if (s?.after) {
      state.delete(prefix);
      if (text.trim() === "") return undefined;
    }
    if (text.includes("[PLUGIN_TIMINGS]")) {
      state.set(prefix, { inBlock: 40 });
      return undefined;
    }
    if (/^ℹ /.test(text)) return undefined;
    if (/^\s*Isolate\s+\d+ workers? spawned/.test(text)) return undefined;
    if (/faster with\s+isolate: false/.test(text)) {
      state.set(prefix, { after: true });
      return undefined;
    }
    return line;
  };
}

/**
 * Copies a child's stream to `write` line by line through `filter`; resolves at its end.
 * @param {import("node:stream").Readable} stream
 * @param {(text: string) => void} write
 * @param {(line: string) => string | undefined} filter
 */
export function pipeLines(stream, write, filter) {
  return new Promise((resolve) => {
    const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (line) => {
      const kept = filter(line);
      if (kept !== undefined) write(`${kept}\n`);
    });
    lines.on("close", resolve);
  });
}
