import { readFileSync } from "node:fs";

/**
 * The version of the package `moduleUrl` belongs to: its package.json, one folder up from the
 * module (a module of src/ in the workspace, of dist/ when built or installed). Each CLI passes its
 * own `import.meta.url`.
 */
export function packageVersion(moduleUrl: string): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", moduleUrl), "utf8")) as {
    version?: unknown;
  };
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}
