#!/usr/bin/env node
import { runCli } from "./run.ts";

process.env.PACT_DO_NOT_TRACK ??= "true";
const code = await runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  terminal: {
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: () => process.stderr.columns,
  },
});
// exitCode, not exit(): stdout and report files flush first.
process.exitCode = code;
