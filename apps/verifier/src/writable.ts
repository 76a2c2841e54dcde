import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { VerifyError, type VerifyErrorCode } from "./errors.ts";

/**
 * Runs `write` (a write, or the check that one will work); its failure is `code` (exit 2), one line:
 * `<what>: <errno code, or the message>`.
 */
export function asWriteError(code: VerifyErrorCode, what: string, write: () => void): void {
  try {
    write();
  } catch (e) {
    throw new VerifyError(
      code,
      `${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      { cause: e },
    );
  }
}

/**
 * Creates `dir` and each missing folder above it, one level at a time. Not Node's
 * `mkdirSync(dir, { recursive: true })`: for a path under /proc (`--learn /proc/x/y.json`) it
 * never returns (mkdir says ENOENT, the parent exists, it tries again), where this throws the
 * level's own error (ENOENT, EACCES, ENOTDIR) once.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (e) {
      // Made meanwhile by another process (two runs writing into one new folder): as recursive did.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(d).isDirectory()) throw e;
    }
  }
}

/**
 * Throws when a file cannot be written at `path` (its folders are created; a file that did not
 * exist is not left behind): what a run writes at its end is checked before its first request.
 */
export function assertWritableFile(path: string): void {
  makeDirs(dirname(path));
  if (existsSync(path) && statSync(path).isDirectory()) throw new Error("it is a directory");
  const existed = existsSync(path);
  closeSync(openSync(path, "a"));
  if (!existed) unlinkSync(path);
}
