#!/usr/bin/env node
import { packageVersion } from "@idp/contracts/cli";
import { helpText, parseCli } from "./config.ts";
import { createProvider, type IdpProvider } from "./provider.ts";

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const fail = (message: string, code: number): void => {
  process.stderr.write(`idp-provider: ${message}\n`);
  process.exitCode = code;
};

async function main(): Promise<void> {
  const parsed = parseCli(process.argv.slice(2), process.env);
  if (parsed.kind === "help") {
    process.stdout.write(helpText());
    return;
  }
  if (parsed.kind === "version") {
    process.stdout.write(`idp-provider ${packageVersion(import.meta.url)}\n`);
    return;
  }
  if (parsed.kind === "error") {
    fail(`${parsed.message} (see --help)`, 2);
    return;
  }
  const { config } = parsed;
  let provider: IdpProvider;
  try {
    provider = createProvider({
      db: config.db,
      credentials: config.credentials,
      providerStates: config.providerStates,
      seed: { loginUsers: config.loginUsers, otherLoginAppUsers: config.otherLoginAppUsers },
    });
  } catch (error) {
    fail(`cannot open the database "${config.db}": ${messageOf(error)}`, 2);
    return;
  }
  try {
    await provider.listen({ port: config.port, host: config.host });
  } catch (error) {
    await provider.close();
    fail(`cannot listen on ${config.host}:${config.port}: ${messageOf(error)}`, 1);
    return;
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${JSON.stringify({ level: "info", msg: "stopping", signal })}\n`);
    provider.close().then(
      () => process.exit(0),
      (error: unknown) => {
        fail(`shutdown failed: ${messageOf(error)}`, 1);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  fail(`unexpected error: ${messageOf(error)}`, 1);
});
