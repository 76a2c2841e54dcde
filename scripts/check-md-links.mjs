#!/usr/bin/env node
// Every relative link of the repository's Markdown files resolves: the file or folder exists, and
// an anchor (`#section`, `other.md#section`) names a heading of that Markdown file as GitHub slugs
// it. Links in code (fenced blocks, `inline`) are text, not links; http(s) and mailto links are not
// followed. `node scripts/check-md-links.mjs` prints one line per broken link and exits 1.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The lines of `text` outside fenced code blocks (``` or ~~~), each with its 1-based number. */
function proseLines(text) {
  const out = [];
  let fence;
  text.split("\n").forEach((line, i) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined && open) fence = open[1];
    else if (
      fence !== undefined &&
      open &&
      open[1][0] === fence[0] &&
      open[1].length >= fence.length
    )
      fence = undefined;
    else if (fence === undefined) out.push({ line, number: i + 1 });
  });
  return out;
}

/** A line without its code spans (their text is not Markdown). */
const withoutCode = (line) => line.replace(/(`+)[\s\S]*?\1/g, "");

/**
 * The anchor GitHub gives a heading: its text as rendered (code spans' content, links' text),
 * lowercased, every character but letters, digits, marks, `_`, `-` and spaces dropped, spaces
 * turned into hyphens (github-slugger's rule).
 */
export function slug(heading) {
  const rendered = heading
    .replace(/(`+)([\s\S]*?)\1/g, "$2")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor of a Markdown text: its headings' slugs (a repeated one gets -1, -2, ...). */
export function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  for (const { line } of proseLines(text)) {
    const h = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

/** The link targets of a Markdown text (inline links, images, reference definitions). */
export function linksOf(text) {
  const out = [];
  for (const { line, number } of proseLines(text)) {
    const prose = withoutCode(line);
    for (const m of prose.matchAll(
      /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g,
    ))
      out.push({ target: m[1], line: number });
    const ref = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (ref) out.push({ target: ref[1], line: number });
  }
  return out;
}

/** The Markdown files git tracks (or would: untracked, not ignored), but changesets. */
export function markdownFiles(root = ROOT) {
  const r = spawnSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "--", "*.md"],
    { cwd: root, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr.trim()}`);
  return r.stdout
    .split("\n")
    .filter((f) => f !== "" && !f.startsWith(".changeset/") && existsSync(join(root, f)));
}

/** One line per broken link of `files` (paths relative to `root`): `file:line: target: why`. */
export function findings(root = ROOT, files = markdownFiles(root)) {
  const anchorCache = new Map();
  const anchors = (file) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, "utf8")));
    return anchorCache.get(file);
  };
  const out = [];
  for (const file of files) {
    const path = join(root, file);
    for (const { target, line } of linksOf(readFileSync(path, "utf8"))) {
      if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, mailto:, ...
      const hash = target.indexOf("#");
      const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const to =
        pathPart === "" ? path : join(pathPart.startsWith("/") ? root : dirname(path), pathPart);
      const where = `${file}:${line}: ${target}`;
      if (!existsSync(to)) {
        out.push(`${where}: no such file ${relative(root, to) || "."}`);
        continue;
      }
      if (anchor === undefined || !to.endsWith(".md") || statSync(to).isDirectory()) continue;
      if (!anchors(to).has(anchor))
        out.push(`${where}: ${relative(root, to)} has no heading with the anchor #${anchor}`);
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const broken = findings();
  for (const b of broken) process.stderr.write(`${b}\n`);
  if (broken.length > 0) {
    process.stderr.write(`${broken.length} broken Markdown link(s)\n`);
    process.exitCode = 1;
  } else process.stdout.write("every relative link and anchor of the Markdown files resolves\n");
}
