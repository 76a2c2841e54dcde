import type { LearnReport } from "./types.ts";

/** Provider text on one line, control characters escaped (conformance.md §9: shown, never obeyed). */
const safe = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
  text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1));
const short = (text: string, max = 200) =>
  safe(text.length > max ? `${text.slice(0, max)}…` : text);

const WORDS = {
  refused: "never learned",
  inconsistent: "seen both ways",
  "not-surveyed": "not asked",
  dropped: "dropped",
} as const;

/** The console's account of `--learn`: what was learned (with its evidence) and what was not. */
export function renderLearn(learn: LearnReport): string[] {
  const out = [
    `Learned profile: ${learn.path} (extends ${learn.extends}): ${learn.learned.length} key${learn.learned.length === 1 ? "" : "s"} learned, ${learn.notLearned.length} not (${learn.requests} requests of its own, never judged)`,
  ];
  for (const k of learn.learned)
    out.push(
      `  + ${k.key} = ${JSON.stringify(k.value)}`,
      `      ${k.source.check}: ${short(k.source.seen, 300)}`,
      `      ${short(k.source.request, 160)} -> ${short(k.source.answer, 160)}`,
    );
  for (const n of learn.notLearned) {
    out.push(`  - ${n.subject}: ${WORDS[n.kind]}: ${short(n.why, 300)}`);
    for (const e of n.exchanges)
      out.push(`      ${short(e.request, 160)} -> ${short(e.answer, 160)}`);
  }
  return out;
}
