import type { CommandTable } from "./commands.ts";
import type { FlagSpec, FlagTable } from "./flags.ts";

/** `--name, -n VALUE`, as `--help` lists a flag; an `envOnly` setting: its variables. */
export const flagUsage = (name: string, o: FlagSpec): string =>
  o.envOnly
    ? (o.env ?? []).join(", ")
    : `--${name}${o.short ? `, -${o.short}` : ""}${o.value ? ` ${o.value}` : ""}`;

/** Words of `text` in lines of at most `width`, the first after `head`, the rest under it. */
export function wrapText(head: string, text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = head;
  for (const word of text.split(" ")) {
    if (line.length + word.length + 1 > width && line.trim() !== "" && line.length > head.length) {
      lines.push(line.trimEnd());
      line = " ".repeat(head.length);
    }
    line += (line.length > head.length ? " " : "") + word;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** How `flagsHelp` lays a table out. */
export interface FlagsHelpOptions {
  /**
   * `columns`: usage, then the description beside it; `stacked`: usage alone on its line, the
   * description as sentences under it (for long descriptions). @defaultValue "columns"
   */
  readonly layout?: "columns" | "stacked";
  /** Where descriptions start in `columns` (aligns tables). @defaultValue the widest usage + 2 */
  readonly column?: number;
  /** A CLI's own remark on a flag (e.g. which mode it applies to), after the default. */
  readonly note?: (name: string, spec: FlagSpec) => string | undefined;
}

/** The group a flag without one is listed in. */
export const DEFAULT_GROUP = "options";

/** The width of the widest usage of `tables` + 2: where descriptions start. */
export const usageColumn = (...tables: readonly FlagTable[]): number =>
  Math.max(...tables.flatMap((t) => Object.entries(t).map(([n, o]) => flagUsage(n, o).length))) + 2;

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/**
 * The options part of a `--help`: one section per group (in the order given; a flag without a
 * group is in `options`), each flag with its description, default and environment variables,
 * wrapped at `width`.
 */
export function flagsHelp(
  table: FlagTable,
  groups: Readonly<Record<string, string>> = { [DEFAULT_GROUP]: "Options" },
  width = 100,
  options: FlagsHelpOptions = {},
): string[] {
  const out: string[] = [];
  const column = options.column ?? usageColumn(table);
  for (const [group, title] of Object.entries(groups)) {
    out.push(`${title}:`);
    for (const [name, o] of Object.entries(table)) {
      if ((o.group ?? DEFAULT_GROUP) !== group) continue;
      const note = options.note?.(name, o);
      if (options.layout === "stacked") {
        const text = [
          sentence(o.description),
          o.defaultText ? `Default: ${o.defaultText}.` : "",
          o.env && !o.envOnly ? `Environment: ${o.env.join(", ")}.` : "",
          note ?? "",
        ].filter(Boolean);
        out.push(`  ${flagUsage(name, o)}`, ...wrapText("      ", text.join(" "), width));
        continue;
      }
      const extra = [
        o.defaultText ? `default: ${o.defaultText}` : "",
        o.env && !o.envOnly ? `env ${o.env.join(", ")}` : "",
        note ?? "",
      ].filter(Boolean);
      out.push(
        ...wrapText(
          `  ${flagUsage(name, o).padEnd(column)}`,
          `${o.description}${extra.length ? ` (${extra.join("; ")})` : ""}`,
          width,
        ),
      );
    }
    out.push("");
  }
  return out;
}

/**
 * The commands part of a `--help`: each command with its summary, then the flags, aligned: a flag
 * several commands share (the same spec object) is listed once, under all of their names.
 */
export function commandsHelp(cli: string, commands: CommandTable, width = 100): string[] {
  const entries = Object.entries(commands);
  const nameWidth = Math.max(...entries.map(([name]) => name.length)) + 4;
  const out = ["Commands:"];
  for (const [name, c] of entries)
    out.push(...wrapText(`  ${name.padEnd(nameWidth)}`, c.summary, width));
  out.push("");
  const sections = new Map<string, Record<string, FlagSpec>>();
  for (const [, c] of entries)
    for (const [flag, spec] of Object.entries(c.flags)) {
      const sharing = entries.filter(([, d]) => d.flags[flag] === spec).map(([n]) => n);
      const key = sharing.join(", ");
      sections.set(key, { ...sections.get(key), [flag]: spec });
    }
  const column = usageColumn(...sections.values());
  for (const [names, flags] of sections)
    out.push(...flagsHelp(flags, { [DEFAULT_GROUP]: `${cli} ${names}` }, width, { column }));
  return out;
}
