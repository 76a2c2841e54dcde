import { relative } from "node:path";

/**
 * Each failed test of a vitest JSON report as one line (its file, its name, the first line of its
 * error): the summary is the end of the output, the part a CI page keeps when it keeps only a part.
 */
export function failedTests(report, dir) {
  const lines = [];
  for (const file of report.testResults ?? [])
    for (const t of file.assertionResults ?? []) {
      if (t.status !== "failed") continue;
      const why = String(t.failureMessages?.[0] ?? "").split("\n")[0];
      const line = `    ${relative(dir, file.name)} > ${t.fullName}: ${why}`;
      lines.push(line.length > 300 ? `${line.slice(0, 299)}…` : line);
    }
  return lines.length > 10 ? [...lines.slice(0, 10), `    … and ${lines.length - 10} more`] : lines;
}
