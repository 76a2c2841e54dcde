#!/usr/bin/env node
import { startEarly } from "./early-start.ts";

process.env.PACT_DO_NOT_TRACK ??= "true";
startEarly(process.argv.slice(2));
// Loaded after the early threads have started (a static import would load it first).
const { runCli } = await import("./run.ts");
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
