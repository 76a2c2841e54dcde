import { randomBytes } from "node:crypto";
import type { Config } from "../config/parse.ts";
import type { CheckResult } from "../results.ts";
import { Secrets } from "../secrets.ts";

/** Hooks of `verify`: progress lines, each result as it is final, plan and case counts. */
export interface VerifyIo {
  /** Progress and warnings, one line each (the CLI writes them to stderr). */
  readonly progress?: (line: string) => void;
  /** Each check's result as soon as it is final. */
  readonly onResult?: (result: CheckResult) => void;
  /**
   * Once the checks start: how many conformance runs and pact interactions the run asks for; then
   * after each case judged (a conformance run, or a pact interaction's result). For a progress bar.
   */
  readonly onPlan?: (total: { readonly runs: number; readonly pacts: number }) => void;
  readonly onCaseDone?: (checkId: string) => void;
}

/**
 * What every phase of one run shares: its options and hooks, its clock, its id, its secrets and
 * where progress goes.
 */
export interface RunContext {
  readonly config: Config;
  readonly io: VerifyIo;
  readonly startedAt: Date;
  /** performance.now() at the start. */
  readonly started: number;
  /** performance.now() by which everything must end (`--max-duration`). */
  readonly deadline: number;
  /** Salts the names this run makes up. */
  readonly runId: string;
  readonly secrets: Secrets;
  readonly progress: (line: string) => void;
}

export function startRun(config: Config, io: VerifyIo): RunContext {
  const started = performance.now();
  return {
    config,
    io,
    startedAt: new Date(),
    started,
    deadline: started + config.maxDurationMs,
    runId: randomBytes(4).toString("hex"),
    secrets: registerSecrets(config),
    progress: io.progress ?? (() => {}),
  };
}

/** Date.now() of a performance.now() instant (worker threads and child processes share no clock). */
export const epochOf = (perfMs: number): number => Date.now() + (perfMs - performance.now());

/** Every secret the options hold, registered before anything can be recorded. */
function registerSecrets(config: Config): Secrets {
  const secrets = new Secrets();
  const provider = config.provider;
  if (provider.kind === "url") {
    secrets.addBasic(provider.credentials.username, provider.credentials.password, "password");
    secrets.add(headerSecret(provider.states?.authorization), "provider-states URL password");
  }
  const auth = config.broker?.auth ?? config.pactUrlAuth;
  if (auth && "token" in auth) secrets.add(auth.token, "broker token");
  if (auth && "password" in auth) secrets.addBasic(auth.username, auth.password, "broker password");
  for (const p of config.pacts)
    if (p.kind === "url") secrets.add(headerSecret(p.authorization), "pact URL credentials");
  for (const [name, value] of config.transport.headers)
    secrets.add(value, `value of --header ${name}`);
  if (config.transport.tls.key) secrets.add(config.transport.tls.key, "--client-key");
  // A proxy's credentials go out as Proxy-Authorization: a gateway behind it may echo them.
  for (const proxy of [config.transport.proxy.httpProxy, config.transport.proxy.httpsProxy]) {
    if (!proxy) continue;
    const u = new URL(proxy);
    if (u.username === "" && u.password === "") continue;
    secrets.add(`${u.username}:${u.password}`, undefined);
    secrets.addBasic(
      decodeURIComponent(u.username),
      decodeURIComponent(u.password),
      "proxy password (HTTP_PROXY/HTTPS_PROXY)",
    );
  }
  return secrets;
}

const headerSecret = (h: string | undefined) => h?.slice(h.indexOf(" ") + 1);
