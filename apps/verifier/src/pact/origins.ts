// Which pact each of pact-core's `interactionResults` came from. The results name the consumer and
// the interaction only, so two consumer versions with the same interaction description look alike;
// pact-core's `output` (the console lines, in the same order) names each pact before its
// interactions: the broker's notice "The pact at URL is being verified because ... (v1)", then
// "Verifying a pact between C and P", then one "  <description> (.. loading, .. verification)" line
// per interaction.

import { stripVTControlCharacters } from "node:util";

/** Where a verified interaction came from. */
export interface PactOrigin {
  readonly consumer: string;
  /** Consumer versions the broker named for this pact (several when they share its content). */
  readonly versions: readonly string[];
  readonly branches: readonly string[];
  /** A work-in-progress pact (the broker names its branch, not its version). */
  readonly wip: boolean;
  /** `consumer@version` (or `@branch`): unique per pact in a run, usable in a check id. */
  readonly label: string;
  /** For report lines: "consumer idp-web version 1.2 (branch main)". */
  readonly text: string;
}

// Removes terminal colour codes (pact-core colours its output).
const plain = (s: string): string => stripVTControlCharacters(s);

interface Notice {
  readonly versions: string[];
  readonly branches: string[];
  readonly wip: boolean;
}

function readNotice(text: string): Notice {
  const criteria = text.split("\n").filter((l) => /^\s*\*/.test(l));
  const versions = criteria.flatMap((l) => {
    const m = /\(([^()]+)\)\s*$/.exec(l);
    return m?.[1] ? m[1].split(",").map((v) => v.trim()) : [];
  });
  // The consumer's branches: in the criteria, or (a WIP pact) "the latest version(s) of C from
  // branch 'B'" / "from branches 'A', 'B' and 'C'" (the provider's branch is named later).
  const wip = /'work in progress' pact/.test(text);
  const wipFrom = /latest versions? of .+? from branch(?:es)? ((?:'[^']+'(?:, | and )?)+)/.exec(
    text,
  );
  const branches = wip
    ? [...(wipFrom?.[1] ?? "").matchAll(/'([^']+)'/g)].map((m) => m[1] ?? "")
    : criteria.flatMap((l) => [...l.matchAll(/branch '([^']+)'/g)].map((m) => m[1] ?? ""));
  return {
    versions: [...new Set(versions)],
    branches: [...new Set(branches)],
    wip,
  };
}

function origin(consumer: string, notice: Notice | undefined): PactOrigin {
  const versions = notice?.versions ?? [];
  const branches = notice?.branches ?? [];
  const wip = notice?.wip ?? false;
  const tag = versions.length > 0 ? versions.join("+") : branches.join("+");
  const label = tag ? `${consumer}@${tag}` : consumer;
  const parts = [
    versions.length > 0 ? `version ${versions.join(", ")}` : "",
    branches.length > 0 ? `branch ${branches.join(", ")}` : "",
    wip ? "work in progress" : "",
  ].filter((p) => p !== "");
  return {
    consumer,
    versions,
    branches,
    wip,
    label,
    text: `consumer ${consumer}${parts.length > 0 ? ` ${parts.join(", ")}` : ""}`,
  };
}

/**
 * The origin of each of `count` interaction results, in order; undefined when the output does not
 * account for exactly `count` interactions (then nothing is attributed rather than misattributed).
 */
export function pactOrigins(
  output: readonly string[] | undefined,
  count: number,
): PactOrigin[] | undefined {
  if (!output || count === 0) return undefined;
  const blocks: { origin: PactOrigin; size: number }[] = [];
  let notice: Notice | undefined;
  for (const entry of output) {
    const text = plain(entry);
    const trimmed = text.trim();
    if (trimmed.startsWith("The pact at ")) {
      notice = readNotice(trimmed);
      continue;
    }
    const header = /^Verifying a pact between (.+?) and (.+)$/.exec(trimmed);
    if (header?.[1]) {
      const o = origin(header[1], notice);
      // Two pacts of one consumer without a broker's notice (files, URLs): told apart by order.
      const taken = blocks.filter((b) => b.origin.label.split("#")[0] === o.label).length;
      blocks.push({
        origin:
          taken > 0
            ? { ...o, label: `${o.label}#${taken + 1}`, text: `${o.text} (pact ${taken + 1})` }
            : o,
        size: 0,
      });
      notice = undefined;
      continue;
    }
    const current = blocks.at(-1);
    if (current && /^ {2}\S.* \([^()]* loading, [^()]* verification\)$/.test(text))
      current.size += 1;
  }
  const all = blocks.flatMap((b) => Array.from({ length: b.size }, () => b.origin));
  return all.length === count ? all : undefined;
}

/** True when the results come from more than one pact of different consumers or versions. */
export function severalOrigins(origins: readonly PactOrigin[] | undefined): boolean {
  return origins !== undefined && new Set(origins.map((o) => o.label)).size > 1;
}
