/** What decides colour: the stream is a terminal, and the conventions of no-color.org and FORCE_COLOR. */
export interface ColourEnv {
  readonly NO_COLOR?: string | undefined;
  readonly FORCE_COLOR?: string | undefined;
  readonly TERM?: string | undefined;
}

/**
 * Whether to colour what goes to a stream. NO_COLOR (any non-empty value) wins over everything
 * (no-color.org); then FORCE_COLOR: any value but "0" or "false" colours even a pipe, "0"/"false"
 * never; else colour only a terminal that is not TERM=dumb.
 */
export function colourWanted(isTTY: boolean, env: ColourEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return isTTY && env.TERM !== "dumb";
}

/** Colours for a stream: each wraps its text in SGR codes, or returns it unchanged. */
export interface Paint {
  readonly enabled: boolean;
  readonly green: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
}

// Each colour resets only itself (39 = default foreground, 22 = normal intensity), so they nest.
const sgr = (open: number, close: number) => (text: string) =>
  text === "" ? "" : `\x1b[${open}m${text}\x1b[${close}m`;
const same = (text: string) => text;

/** Paint that colours. */
export const COLOURS: Paint = {
  enabled: true,
  green: sgr(32, 39),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  bold: sgr(1, 22),
  dim: sgr(2, 22),
};

/** Paint that leaves text as it is. */
export const PLAIN: Paint = {
  enabled: false,
  green: same,
  red: same,
  yellow: same,
  bold: same,
  dim: same,
};

/** The paint for a stream, by `colourWanted`. */
export const paintFor = (isTTY: boolean, env: ColourEnv): Paint =>
  colourWanted(isTTY, env) ? COLOURS : PLAIN;

/** Every escape sequence (CSI and OSC) and control character but newline and tab, for tests and widths. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|[\x00-\x08\x0b-\x1f\x7f]/g;

/** Text as it shows on screen: without escape sequences. */
export const visible = (text: string): string => text.replace(ESCAPES, "");
