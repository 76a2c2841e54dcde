import { spawn } from "node:child_process";

export interface NodeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node ARGS` to completion with exactly `env` plus PATH and HOME (so a test sees what a user
 * with only those settings sees, never the test runner's own variables), stdout and stderr piped.
 */
export function runNode(args: readonly string[], env: Record<string, string>): Promise<NodeRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
