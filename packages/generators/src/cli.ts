#!/usr/bin/env node
import { packageVersion } from "@idp/contracts/cli";
import { GeneratorError } from "./errors.ts";
import { helpText, parseGenArgs } from "./gen-args.ts";
import { genLines } from "./gen-command.ts";

// The one place that prints and maps errors to exit codes: 0 done, 2 bad usage, 1 a bug.
async function main(): Promise<number> {
  // Relative paths are the working directory's (`pnpm gen` runs the bin in the directory pnpm was
  // run from: scripts/run-bin.mjs).
  const options = parseGenArgs(process.argv.slice(2), () => (Math.random() * 2 ** 32) | 0, {
    cwd: process.cwd(),
  });
  if (options === "help" || options === "version") {
    const version = packageVersion(import.meta.url);
    process.stdout.write(`${options === "help" ? helpText(version) : version}\n`);
    return 0;
  }
  if (!options.seedGiven)
    process.stderr.write(`idp-gen: seed ${options.seed} (replay with --seed ${options.seed})\n`);
  const out = process.stdout;
  let closed = false;
  out.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    closed = true; // the reader went away (`| head`): stop quietly
  });
  let batch = "";
  for (const line of genLines(options)) {
    batch += `${line}\n`;
    if (batch.length < 64 * 1024) continue;
    if (closed) return 0;
    if (!out.write(batch)) await drainOrClose(out);
    batch = "";
  }
  if (batch !== "" && !closed) out.write(batch);
  return 0;
}

function drainOrClose(out: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      resolve();
    };
    out.on("drain", done);
    out.on("close", done);
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    // Both codes come from what was asked (a flag, or a profile whose shapes cannot be derived).
    if (e instanceof GeneratorError) {
      const oneLine = e.message.replace(/\s*\n\s*/g, " ");
      process.stderr.write(`idp-gen: ${oneLine} (see idp-gen --help)\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(
      `idp-gen: unexpected error (a bug): ${e instanceof Error ? e.stack : String(e)}\n`,
    );
    process.exitCode = 1;
  },
);
