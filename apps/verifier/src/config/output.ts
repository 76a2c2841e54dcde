import { resolve } from "node:path";
import { didYouMean } from "@idp/contracts";
import { z } from "zod";
import { rule } from "./rule.ts";

// What a run writes besides its console report (conformance.md §5): reports, replay files, a HAR
// file, a learned profile. Paths are read from the user's directory.

const REPORT_FORMATS = ["json", "junit", "html"] as const;
/** `json`, `junit` or `html`. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What a `--report` value that is not FORMAT=PATH was likely meant to be. */
function reportProblem(text: string): string {
  const format = /^([^=]*)=/.exec(text)?.[1];
  const close = format ? didYouMean(format, REPORT_FORMATS) : undefined;
  return `--report must be FORMAT=PATH with FORMAT json, junit or html (received ${JSON.stringify(text)}${close ? `; did you mean ${close}=...?` : ""})`;
}

/** `--report FORMAT=PATH`. */
const reportSchema = (cwd: string) =>
  z
    .string()
    .regex(/^(json|junit|html)=(.+)$/, { error: (issue) => reportProblem(String(issue.input)) })
    .transform((text) => {
      const eq = text.indexOf("=");
      return { format: text.slice(0, eq), path: resolve(cwd, text.slice(eq + 1)) };
    })
    .pipe(z.object({ format: z.enum(REPORT_FORMATS), path: z.string() }));

/** A path flag's value, which must not be empty: `what` says what it names. */
const pathSchema = (flag: string, what: string) =>
  z.string().min(1, { error: `${flag} needs ${what}; received an empty path` });

/** Where the run writes: `{ reports, replayDir?, harPath?, learn? }`. */
export const outputSchema = (cwd: string) =>
  z
    .object({
      report: z.array(reportSchema(cwd)).default([]),
      "replay-dir": pathSchema("--replay-dir", "a directory (DIR)").optional(),
      har: pathSchema("--har", "a file (FILE)").optional(),
      learn: pathSchema("--learn", "a file (PATH) to write the profile to").optional(),
      shard: z.string().optional(),
    })
    .check(
      rule(
        (v) => v.learn === undefined || v.shard === undefined,
        "--learn asks the whole provider how it reads the gaps; it does not go with --shard (run it once, unsharded)",
      ),
    )
    .transform((v) => ({
      reports: v.report,
      ...(v["replay-dir"] !== undefined ? { replayDir: resolve(cwd, v["replay-dir"]) } : {}),
      ...(v.har !== undefined ? { harPath: resolve(cwd, v.har) } : {}),
      /** `--learn PATH`: where to write the learned profile (conformance.md §6), and as given. */
      ...(v.learn !== undefined ? { learn: { path: resolve(cwd, v.learn), given: v.learn } } : {}),
    }));
