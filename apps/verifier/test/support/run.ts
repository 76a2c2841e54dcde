import { runCli } from "../../src/run.ts";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs idp-verify in-process and collects what it prints. */
export async function runVerify(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const started = performance.now();
  const code = await runCli(args, env, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr, ms: performance.now() - started };
}

export const CREDENTIALS = {
  username: "verifier-test-user",
  password: "s3cret-Pa55-never-printed",
} as const;
export const CREDENTIAL_TOKEN = Buffer.from(
  `${CREDENTIALS.username}:${CREDENTIALS.password}`,
).toString("base64");

/** Flags that point idp-verify at a provider with the test credentials, small and fast. */
export function against(
  baseUrl: string,
  extra: readonly string[] = [],
  statesUrl?: string,
): string[] {
  return [
    "--provider-url",
    baseUrl,
    "--username",
    CREDENTIALS.username,
    "--password",
    CREDENTIALS.password,
    ...(statesUrl ? ["--provider-states-url", statesUrl] : []),
    "--runs",
    "15",
    "--seed",
    "42",
    "--timeout-ms",
    "2000",
    ...extra,
  ];
}
