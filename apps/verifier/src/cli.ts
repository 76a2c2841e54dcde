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
// The verdict is out; whatever still keeps the process alive is a handle left open (once, the
// embedded provider's thread after an error). A CI job must not hang on it: once nothing is left
// to write, the process ends with the verdict's code, and says why. Never holds the process itself.
const GRACE_MS = 3_000;
const leftOpen = setInterval(() => {
  if (process.stdout.writableLength > 0 || process.stderr.writableLength > 0) return;
  clearInterval(leftOpen);
  process.stderr.write(
    `idp-verify: something was left open ${GRACE_MS / 1000} s after the verdict; ending with exit ${code}\n`,
  );
  process.exit(code);
}, GRACE_MS).unref();
