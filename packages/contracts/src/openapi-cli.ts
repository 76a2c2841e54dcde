#!/usr/bin/env node
// idp-openapi [--out FILE]: prints the OpenAPI 3.1 document (or writes it to FILE).
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { openApiJson } from "./openapi.ts";

function main(): number {
  let values: { out?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      options: { out: { type: "string", short: "o" }, help: { type: "boolean", short: "h" } },
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(
      `idp-openapi: ${(error as Error).message} (usage: idp-openapi [--out FILE])\n`,
    );
    return 2;
  }
  if (values.help) {
    process.stdout.write(
      "usage: idp-openapi [--out FILE]   print or write the OpenAPI 3.1 document\n",
    );
    return 0;
  }
  const json = openApiJson();
  if (values.out === undefined) {
    process.stdout.write(json);
    return 0;
  }
  try {
    writeFileSync(values.out, json);
  } catch (error) {
    process.stderr.write(
      `idp-openapi: cannot write --out ${values.out}: ${(error as NodeJS.ErrnoException).code ?? "error"}\n`,
    );
    return 2;
  }
  return 0;
}
process.exitCode = main();
