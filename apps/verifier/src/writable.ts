import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Throws when a file cannot be written at `path` (its folders are created; a file that did not
 * exist is not left behind): what a run writes at its end is checked before its first request.
 */
export function assertWritableFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  if (existsSync(path) && statSync(path).isDirectory()) throw new Error("it is a directory");
  const existed = existsSync(path);
  closeSync(openSync(path, "a"));
  if (!existed) unlinkSync(path);
}
