import type { FlagSpec, FlagTable } from "./flags.ts";

/** `--name, -n VALUE`, as `--help` lists a flag. */
export const flagUsage = (name: string, o: FlagSpec): string =>
  `--${name}${o.short ? `, -${o.short}` : ""}${o.value ? ` ${o.value}` : ""}`;

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

/**
 * The options part of a `--help`: one section per group (in the order given), each flag with its
 * description, default and environment variables, wrapped at `width`.
 */
export function flagsHelp(
  table: FlagTable,
  groups: Readonly<Record<string, string>>,
  width = 100,
): string[] {
  const out: string[] = [];
  const column = Math.max(...Object.entries(table).map(([n, o]) => flagUsage(n, o).length)) + 2;
  for (const [group, title] of Object.entries(groups)) {
    out.push(`${title}:`);
    for (const [name, o] of Object.entries(table).filter(([, x]) => x.group === group)) {
      const extra = [
        o.defaultText ? `default: ${o.defaultText}` : "",
        o.env ? `env ${o.env.join(", ")}` : "",
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
