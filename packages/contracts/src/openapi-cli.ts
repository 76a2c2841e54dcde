#!/usr/bin/env node
// Thin bin of `idp-openapi`; the command lives in openapi-command.ts.
import { runOpenApi } from "./openapi-command.ts";

process.exitCode = runOpenApi(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
