import { type ChildProcess, fork } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import { fileURLToPath } from "node:url";
import { VerifyError } from "../errors.ts";
import type { ProxySettings, TlsSettings } from "../http/settings.ts";
import { Kept } from "../kept.ts";
import { JOB_END } from "./job-end.ts";
import type { PactJob, PactJobResult } from "./worker.ts";

/** The worker beside this module: pact-worker.mjs when built, worker.ts from source. */
function workerPath(): string {
  for (const name of ["./pact-worker.mjs", "./worker.ts"]) {
    const path = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new VerifyError(
    "E_PACT_VERIFIER",
    "the pact worker (pact-worker.mjs) is missing next to the verifier",
  );
}

export type WorkerOutcome = PactJobResult & { readonly log: string };

/**
 * The proxy variables Pact's core sees: the run's own (it fetches pacts from a broker itself), with
 * 127.0.0.1 and localhost never proxied, since the guard it talks to listens there.
 */
export function pactProxyEnv(proxy: ProxySettings): Record<string, string> {
  const noProxy = ["127.0.0.1", "localhost", ...(proxy.noProxy ? [proxy.noProxy] : [])].join(",");
  return {
    ...(proxy.httpProxy ? { HTTP_PROXY: proxy.httpProxy, http_proxy: proxy.httpProxy } : {}),
    ...(proxy.httpsProxy ? { HTTPS_PROXY: proxy.httpsProxy, https_proxy: proxy.httpsProxy } : {}),
    NO_PROXY: noProxy,
    no_proxy: noProxy,
  };
}

/**
 * What Pact's core reads of the run's TLS: it trusts the roots of SSL_CERT_FILE (rustls-native-certs
 * reads it on Linux and macOS, in place of the system's store), so a private CA (`--ca-cert`,
 * NODE_EXTRA_CA_CERTS) goes there beside Node's own roots, written into `dir`. `--insecure` is
 * Pact's own switch (disableSslVerification), set with the job.
 */
export function pactTlsEnv(tls: TlsSettings | undefined, dir: string): Record<string, string> {
  if (!tls?.ca) return {};
  const file = join(dir, "ca-bundle.pem");
  writeFileSync(file, `${[...rootCertificates, tls.ca].join("\n")}\n`);
  return { SSL_CERT_FILE: file };
}

/** The environment a worker runs a job in: the run's own, less what only our options may set. */
function jobEnv(proxy: ProxySettings, tlsEnv: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  // pact-core reads PACT_BROKER_* and PACT_DESCRIPTION-style filters from the environment: only
  // our options may choose the pacts, the credentials and whether results are published.
  for (const [k, v] of Object.entries(process.env))
    if (
      v !== undefined &&
      !/^PACT_(BROKER_|DESCRIPTION$|PROVIDER_STATE$|PROVIDER_NO_STATE$|VERIFIER_)/.test(k) &&
      !/^(https?|no|all)_proxy$/i.test(k) &&
      !/^SSL_CERT_(FILE|DIR)$/.test(k)
    )
      env[k] = v;
  return {
    ...env,
    ...pactProxyEnv(proxy),
    ...tlsEnv,
    NODE_NO_WARNINGS: "1",
    PACT_DO_NOT_TRACK: "true",
  };
}

/** A worker process, held in the event loop or not: with its IPC channel and its pipes. */
class PactWorker {
  readonly child: ChildProcess;
  constructor(child: ChildProcess) {
    this.child = child;
  }
  ref(): void {
    this.child.ref();
    this.child.channel?.ref();
    (this.child.stdout as { ref?: () => void } | null)?.ref?.();
    (this.child.stderr as { ref?: () => void } | null)?.ref?.();
  }
  unref(): void {
    this.child.unref();
    this.child.channel?.unref();
    (this.child.stdout as { unref?: () => void } | null)?.unref?.();
    (this.child.stderr as { unref?: () => void } | null)?.unref?.();
  }
  once(event: "exit", listener: () => void): void {
    this.child.once(event, listener);
  }
}

/**
 * Workers between the runs of this process, kept for the next run: a worker spends about a third
 * of a second of CPU starting Node and loading pact-core, once per run and instance otherwise.
 * Each job carries its whole environment, which the worker takes in place of its own before Pact
 * reads it, so a kept worker runs a job as a new one would. A worker that crashed, failed or ran
 * out of time is never kept; at most two idle (one per Pact instance a run starts by default).
 * Idle, a worker keeps no process alive, and ends with its parent (worker.ts).
 */
const workers = new Kept<PactWorker>(2, () => {
  const path = workerPath();
  return new PactWorker(
    fork(path, [], {
      // From source (tests), Node strips the worker's types; never inherit the parent's flags.
      execArgv: path.endsWith(".ts") ? ["--experimental-strip-types", "--no-warnings"] : [],
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      // Replaced by each job's own (jobEnv) before Pact runs; this one only starts Node.
      env: jobEnv({}, {}),
    }),
  );
});

/** How many workers this process has started, and the idle ones' pids (tests). */
export const pactWorkers = (): { readonly forked: number; readonly idle: readonly number[] } => ({
  forked: workers.started,
  idle: workers.idle.flatMap((w) => (w.child.pid === undefined ? [] : [w.child.pid])),
});

/** Gives a worker whose job ended well back for the next run (or ends it). */
function keepWorker(worker: PactWorker): void {
  const { child } = worker;
  child.stdout?.removeAllListeners("data");
  child.stderr?.removeAllListeners("data");
  child.removeAllListeners("message");
  child.removeAllListeners("error");
  child.removeAllListeners("close");
  if (child.exitCode !== null || !child.connected || !workers.keep(worker)) child.kill("SIGKILL");
}

/**
 * Starts a worker now, idle, for the run to come (the CLI, before it loads the rest of the
 * verifier): its loading of pact-core overlaps the CLI's own.
 */
export const startPactWorkerEarly = (): void => workers.warm();

/**
 * Hands a worker (kept or new) the job over IPC, and kills it after `deadlineMs` at the latest.
 * The job's log is its worker's output up to its end line on both streams.
 */
export function runPactWorker(
  job: PactJob,
  deadlineMs: number,
  proxy: ProxySettings = {},
  tlsEnv: Record<string, string> = {},
): Promise<WorkerOutcome> {
  return new Promise((resolvePromise) => {
    const worker = workers.take();
    const { child } = worker;
    let log = "";
    /** The streams whose end line has come (a job's output is whole once both have). */
    let ended = 0;
    const END = `${JOB_END}\n`;
    const reader = () => {
      // The end of a chunk that may be the start of the end line, kept for the next chunk.
      let carry = "";
      return (chunk: Buffer) => {
        let text = carry + chunk.toString("utf8");
        carry = "";
        for (let at = text.indexOf(END); at >= 0; at = text.indexOf(END)) {
          ended += 1;
          text = text.slice(0, at) + text.slice(at + END.length);
        }
        for (let n = Math.min(END.length - 1, text.length); n > 0; n--)
          if (END.startsWith(text.slice(-n))) {
            carry = text.slice(-n);
            text = text.slice(0, -n);
            break;
          }
        log = (log + text).slice(-65_536);
        if (answer && ended >= 2) finish(answer, true);
      };
    };
    child.stdout?.on("data", reader());
    child.stderr?.on("data", reader());
    let settled = false;
    let answer: PactJobResult | undefined;
    const finish = (r: PactJobResult, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (reusable) keepWorker(worker);
      else if (child.exitCode === null) child.kill("SIGKILL");
      resolvePromise({ ...r, log });
    };
    const timer = setTimeout(
      () =>
        finish({
          error: `Pact's verifier did not finish within ${Math.round(deadlineMs / 1000)} s`,
        }),
      deadlineMs,
    );
    child.on("message", (m: PactJobResult) => {
      answer = m;
      if (ended >= 2) finish(m, true);
    });
    child.on("error", (e) => finish({ error: `cannot start Pact's verifier: ${e.message}` }));
    child.on("close", (code, signal) => {
      if (answer) return finish(answer);
      const last =
        log
          .trim()
          .split("\n")
          .filter((l) => /error|panic/i.test(l))
          .slice(-1)[0] ?? "";
      finish({
        error: `Pact's verifier exited (${signal ?? `code ${code}`}) without results${last ? `: ${last.slice(0, 300)}` : ""}`,
      });
    });
    child.send({ ...job, env: jobEnv(proxy, tlsEnv) } satisfies PactJob);
  });
}
