import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * A worker thread's module beside this one: `<built>.mjs` when built, `<source>.ts` from source
 * (tests), which then needs the workspace packages' sources, as vitest reads them.
 */
export function workerFile(
  built: string,
  source: string,
): { readonly path: string; readonly execArgv?: string[] } {
  const path = fileURLToPath(new URL(`./${built}.mjs`, import.meta.url));
  if (existsSync(path)) return { path };
  return {
    path: fileURLToPath(new URL(`./${source}.ts`, import.meta.url)),
    execArgv: ["--conditions=@idp/source", "--no-warnings"],
  };
}
