// What the provider wrote is shown, never obeyed (conformance.md §9): its text (bodies, header
// values, messages quoting them, Pact's words about them) reaches a terminal, a CI log or a browser
// only with control characters written out as escapes, so no answer can move the cursor, erase a
// line or draw a fake verdict. Our own text has no control characters: escaping it changes nothing.

// C0 and C1 controls, DEL, and the characters that reorder or break lines (bidi controls, U+2028/9).
const CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to escape
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const escaped = (c: string) =>
  NAMED[c] ?? `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;

/** One line of provider text for a console or JUnit line: every control character escaped (`\u001b`, `\r`, `\n`). */
export function shown(text: string): string {
  return text.replace(CONTROLS, escaped);
}

/** Provider text for a block that keeps its lines (an HTML `<pre>`): line feeds and tabs stay. */
export function shownBlock(text: string): string {
  return text.replace(CONTROLS, (c) => (c === "\n" || c === "\t" ? c : escaped(c)));
}
