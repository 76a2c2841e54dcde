#!/usr/bin/env node
// Thin bin of `idp-pacts`; the commands live in pacts-command.ts and broker.ts.
import { run } from "./pacts-command.ts";

process.exitCode = await run(process.argv.slice(2), process.env);
