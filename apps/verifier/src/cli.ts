#!/usr/bin/env node
import * as nodeModule from "node:module";

// Node's on-disk compile cache (as tsc enables it): from the second run on, the ~250 modules that
// this thread, the embedded provider's thread and Pact's process load are not compiled again.
// Enabled before anything else is loaded, and passed on through NODE_COMPILE_CACHE, which the
// provider's thread and Pact's process inherit (the call covers only this thread). A quiet
// optimization: it never throws, NODE_DISABLE_COMPILE_CACHE=1 turns it off, and a
// NODE_COMPILE_CACHE the caller set names the directory.
const cache = nodeModule.enableCompileCache?.();
if (cache?.directory) process.env.NODE_COMPILE_CACHE ??= cache.directory;
process.env.PACT_DO_NOT_TRACK ??= "true";
const { startEarly } = await import("./early-start.ts");
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
