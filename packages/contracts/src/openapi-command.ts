// idp-openapi [--out FILE]: prints the OpenAPI 3.1 document (or writes it to FILE).
import { writeFileSync } from "node:fs";
import { CliError, type FlagTable, flagsHelp, packageVersion, readFlags } from "./cli/index.ts";
import { openApiJson } from "./openapi.ts";

/** idp-openapi's flags, read by the toolkit's shared parser. */
export const OPENAPI_FLAGS = {
  out: {
    type: "string",
    short: "o",
    value: "FILE",
    defaultText: "standard output",
    description: "write the document to FILE",
  },
  help: { type: "boolean", short: "h", description: "print this help and exit" },
  version: { type: "boolean", description: "print the version and exit" },
} as const satisfies FlagTable;

/** `idp-openapi --help`. */
export const openApiHelp = (): string =>
  [
    "idp-openapi: the OpenAPI 3.1 document of the IDP API, as @idp/contracts derives it from its",
    "zod shapes and catalogue (the bytes committed as docs/openapi.json).",
    "",
    "Usage: idp-openapi [--out FILE]",
    "",
    ...flagsHelp(OPENAPI_FLAGS),
    "Exit status: 0 written; 2 bad arguments or FILE not writable (one line on stderr).",
  ].join("\n");

/** Where idp-openapi writes. */
export interface OpenApiIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs idp-openapi; resolves to its exit status (2 with one line on stderr for bad arguments). */
export function runOpenApi(argv: readonly string[], io: OpenApiIo): number {
  try {
    const { values } = readFlags(OPENAPI_FLAGS, argv, {});
    if (values.help) io.stdout(`${openApiHelp()}\n`);
    else if (values.version) io.stdout(`idp-openapi ${packageVersion(import.meta.url)}\n`);
    else if (values.out === undefined) io.stdout(openApiJson());
    else writeDocument(values.out);
    return 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.stderr(`idp-openapi: ${error.message}\n`);
    return 2;
  }
}

function writeDocument(file: string): void {
  try {
    writeFileSync(file, openApiJson());
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "error";
    throw new CliError(`cannot write --out ${file}: ${code}`);
  }
}
