import { didYouMean } from "@idp/contracts";
import { wholeNumber } from "@idp/contracts/cli";
import { z } from "zod";
import { PACT_PREFIX } from "../pact/ids.ts";
import { CONFORMANCE_CHECKS } from "../rules/index.ts";
import { shardSchema } from "../shard.ts";
import { rule } from "./rule.ts";

// What to check, and how (conformance.md §5): the checks selected, how many runs from which seed,
// the time limits, the parallelism and the shard.

/** Known --checks selectors: a check id, a dotted prefix of one, `pact` or `pact.<description>`. */
export function checkSelectorProblem(selector: string): string | undefined {
  if (selector === PACT_PREFIX || selector.startsWith(`${PACT_PREFIX}.`)) return undefined;
  if (CONFORMANCE_CHECKS.some((c) => c.id === selector || c.id.startsWith(`${selector}.`)))
    return undefined;
  const names = [
    PACT_PREFIX,
    ...new Set(
      CONFORMANCE_CHECKS.flatMap((c) => {
        const parts = c.id.split(".");
        return parts.map((_, i) => parts.slice(0, i + 1).join("."));
      }),
    ),
  ];
  const close = didYouMean(selector, names);
  return `unknown check id "${selector}" in --checks${close ? ` (did you mean "${close}"?)` : ""}; idp-verify --help lists every check id`;
}

/** `--checks`: a comma list of selectors; empty, every check the options allow. */
const selectorsSchema = z
  .string()
  .default("")
  .transform((text) =>
    text
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
  )
  .pipe(
    z.array(
      z.string().refine((s) => checkSelectorProblem(s) === undefined, {
        error: (issue) => checkSelectorProblem(String(issue.input)),
      }),
    ),
  );

/** The checks selected: `{ checks }`, ids or prefixes; empty: every check the options allow. */
export const checksSchema = z.object({ checks: selectorsSchema });

/** How the checks run: `{ runs, seed, timeoutMs, ... }`. */
export const runSchema = z
  .object({
    runs: wholeNumber("--runs", 1, 1_000_000).default(100),
    seed: wholeNumber("--seed", -(2 ** 31), 2 ** 31 - 1).optional(),
    "timeout-ms": wholeNumber("--timeout-ms", 1, 600_000).default(10_000),
    "max-duration": wholeNumber("--max-duration", 1, 86_400).default(600),
    concurrency: wholeNumber("--concurrency", 1, 256).default(16),
    threads: wholeNumber("--threads", 1, 16).optional(),
    shard: shardSchema.optional(),
    "require-cells": z.boolean().default(false),
    "no-shrink": z.boolean().default(false),
    cleanup: z.boolean().default(false),
  })
  .check(
    rule(
      (v) => !(v["require-cells"] && v.shard),
      "--require-cells judges the statuses of a whole run; it does not go with --shard (a shard sends only part of the requests)",
    ),
  )
  .transform((v) => ({
    runs: v.runs,
    seed: v.seed ?? Math.floor(Math.random() * 2 ** 31),
    timeoutMs: v["timeout-ms"],
    maxDurationMs: 1000 * v["max-duration"],
    concurrency: v.concurrency,
    ...(v.threads === undefined ? {} : { threads: v.threads }),
    /** Transport failures in a row after which the provider counts as stopped. */
    maxConsecutiveTransportFailures: 5,
    ...(v.shard ? { shard: v.shard } : {}),
    requireCells: v["require-cells"],
    /** `--no-shrink`: a failing check cites its first failing case as found. */
    shrink: !v["no-shrink"],
    /** `--cleanup`: remove the schemas this run created (conformance.md §8). */
    cleanup: v.cleanup,
  }));
