import { fork } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import { fileURLToPath } from "node:url";
import { VerifyError } from "../errors.ts";
import type { ProxySettings, TlsSettings } from "../http/settings.ts";
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

/** Forks a worker, hands it the job over IPC, and kills it after `deadlineMs` at the latest. */
export function runPactWorker(
  job: PactJob,
  deadlineMs: number,
  proxy: ProxySettings = {},
  tlsEnv: Record<string, string> = {},
): Promise<WorkerOutcome> {
  return new Promise((resolvePromise) => {
    const path = workerPath();
    const child = fork(path, [], {
      // From source (tests), Node strips the worker's types; never inherit the parent's flags.
      execArgv: path.endsWith(".ts") ? ["--experimental-strip-types", "--no-warnings"] : [],
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      // pact-core reads PACT_BROKER_* and PACT_DESCRIPTION-style filters from the environment:
      // only our options may choose the pacts, the credentials and whether results are published.
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([k]) =>
              !/^PACT_(BROKER_|DESCRIPTION$|PROVIDER_STATE$|PROVIDER_NO_STATE$|VERIFIER_)/.test(
                k,
              ) &&
              !/^(https?|no|all)_proxy$/i.test(k) &&
              !/^SSL_CERT_(FILE|DIR)$/.test(k),
          ),
        ),
        ...pactProxyEnv(proxy),
        ...tlsEnv,
        NODE_NO_WARNINGS: "1",
        PACT_DO_NOT_TRACK: "true",
      },
    });
    let log = "";
    const keep = (chunk: Buffer) => {
      log = (log + chunk.toString("utf8")).slice(-65_536);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    let settled = false;
    let answer: PactJobResult | undefined;
    const finish = (r: PactJobResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill("SIGKILL");
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
    });
    child.on("error", (e) => finish({ error: `cannot start Pact's verifier: ${e.message}` }));
    // The worker exits right after its answer; waiting for its output to close keeps the log whole.
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
    child.send(job);
  });
}
