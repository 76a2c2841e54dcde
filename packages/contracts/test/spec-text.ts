import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The repo's copy of the specification, read the way a reviewer would. */
export const specText = readFileSync(
  fileURLToPath(new URL("../../../docs/spec/service-interface.md", import.meta.url)),
  "utf8",
);
export const conformanceText = readFileSync(
  fileURLToPath(new URL("../../../docs/spec/conformance.md", import.meta.url)),
  "utf8",
);

/** The rows of the first markdown table after a heading (or any line) starting with `marker`. */
export function tableAfter(text: string, marker: string): string[][] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(marker));
  if (start < 0) throw new Error(`spec text: no line starting with "${marker}"`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("|")) {
      inTable = true;
      rows.push(
        line
          .split("|")
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    } else if (inTable) break;
  }
  // Drop the header and the |---| separator.
  return rows.slice(2);
}
