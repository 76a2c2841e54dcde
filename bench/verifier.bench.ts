// Verifier throughput and pact time against apps/provider on loopback, next to reference tools.
//
//   pnpm --filter @idp/verifier build      (and its dependencies: pnpm verify builds them all)
//   node bench/verifier.bench.ts [--seconds 5] [--runs 300] [--repeat 3]
//
// 1. conformance requests per second of `idp-verify --checks R1..R8` next to autocannon on the same
//    provider, the same concurrency (4) and a cheap endpoint (PUT clustering rules, 200, no body);
// 2. pact verification time of `idp-verify --checks pact` next to the Rust `pact-verifier` of
//    @pact-foundation/pact-cli on the same pacts. The provider runs with the pacts' placeholder
//    credentials so neither tool needs a request filter.
// Results are printed as a Markdown table for apps/verifier/README.md.
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs, promisify } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const verifierDir = join(root, "apps", "verifier");
const requireFromVerifier = createRequire(join(verifierDir, "package.json"));
const { values } = parseArgs({
  options: { seconds: { type: "string" }, runs: { type: "string" }, repeat: { type: "string" } },
});
const SECONDS = Number(values.seconds ?? 5);
const RUNS = Number(values.runs ?? 300);
const REPEAT = Number(values.repeat ?? 3);
const CONCURRENCY = 4;
const CREDENTIALS = { username: "pact-placeholder-user", password: "pact-placeholder-password" };
const AUTH = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString("base64")}`;

interface Provider {
  listen(o: {
    port: number;
    host: string;
  }): Promise<{ baseUrl: string; providerStatesUrl: string }>;
  close(): Promise<void>;
}
type VerifierModule = {
  parseConfig: (
    argv: string[],
    env: Record<string, string | undefined>,
  ) => { help: boolean; config?: unknown };
  verify: (config: unknown) => Promise<{
    durationMs: number;
    requests: { sent: number };
    exitCode: number;
    checks: { status: string; durationMs: number }[];
  }>;
};

const importResolved = (specifier: string) =>
  import(pathToFileURL(requireFromVerifier.resolve(specifier)).href);
const { createProvider } = (await importResolved("@idp/provider")) as {
  createProvider: (o: unknown) => Provider;
};
const verifier = (await import(
  pathToFileURL(join(verifierDir, "dist", "index.mjs")).href
)) as VerifierModule;
const autocannon = requireFromVerifier("autocannon") as (
  o: unknown,
) => Promise<{ requests: { average: number }; non2xx: number; errors: number }>;

const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function withProvider<T>(
  body: (urls: { baseUrl: string; providerStatesUrl: string }) => Promise<T>,
): Promise<T> {
  const provider = createProvider({
    db: ":memory:",
    credentials: CREDENTIALS,
    providerStates: true,
    log: () => {},
  });
  try {
    return await body(await provider.listen({ port: 0, host: "127.0.0.1" }));
  } finally {
    await provider.close();
  }
}

async function runVerify(args: string[], urls: { baseUrl: string; providerStatesUrl: string }) {
  const parsed = verifier.parseConfig(
    [
      "--provider-url",
      urls.baseUrl,
      "--provider-states-url",
      urls.providerStatesUrl,
      "--username",
      CREDENTIALS.username,
      "--password",
      CREDENTIALS.password,
      "--seed",
      "1",
      ...args,
    ],
    {},
  );
  return verifier.verify(parsed.config);
}

// 1. Conformance throughput.
const verifierRps: number[] = [];
const cannonRps: number[] = [];
for (let i = 0; i < REPEAT; i++) {
  await withProvider(async (urls) => {
    const report = await runVerify(
      [
        "--checks",
        "R1,R2,R3,R4,R5,R6,R7,R8",
        "--runs",
        String(RUNS),
        "--concurrency",
        String(CONCURRENCY),
      ],
      urls,
    );
    verifierRps.push(report.requests.sent / (report.durationMs / 1000));
    const result = await autocannon({
      url: `${urls.baseUrl}/marketing/login/apps/clustering/rules`,
      method: "PUT",
      headers: { authorization: AUTH, "content-type": "application/json" },
      body: JSON.stringify({ rules: { features: {}, parameters: { excluded_words: [] } } }),
      connections: CONCURRENCY,
      duration: SECONDS,
    });
    cannonRps.push(result.requests.average);
  });
}

// 2. Pact time. The Rust verifier posts a state change even for interactions without a state
// (state ""); a shim answers those with 200 and forwards the rest, as pact-js's proxy does.
async function stateShim(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const state = (JSON.parse(body || "{}") as { state?: string }).state ?? "";
      if (state === "") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
        return;
      }
      const answer = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const pactDir = join(root, "pacts");
const pactVerifierBin = join(verifierDir, "node_modules", ".bin", "pact-verifier");
const idpPactMs: number[] = [];
const rustPactMs: number[] = [];
for (let i = 0; i < REPEAT; i++) {
  await withProvider(async (urls) => {
    const started = performance.now();
    const report = await runVerify(["--checks", "pact", "--pacts", pactDir], urls);
    idpPactMs.push(performance.now() - started);
    if (report.exitCode !== 0)
      throw new Error(`idp-verify pact run failed (exit ${report.exitCode})`);
  });
  await withProvider(async (urls) => {
    const shim = await stateShim(urls.providerStatesUrl);
    const base = new URL(urls.baseUrl);
    const started = performance.now();
    try {
      await promisify(execFile)(
        pactVerifierBin,
        [
          "--dir",
          pactDir,
          "--hostname",
          base.hostname,
          "--port",
          base.port,
          "--base-path",
          base.pathname,
          "--state-change-url",
          shim.url,
          "--state-change-teardown",
          "--loglevel",
          "error",
          "--no-colour",
        ],
        { env: { ...process.env, PACT_DO_NOT_TRACK: "true" } },
      );
    } finally {
      rustPactMs.push(performance.now() - started);
      await shim.close();
    }
  });
}

const fmt = (n: number) => n.toFixed(0);
const v = median(verifierRps);
const a = median(cannonRps);
const ip = median(idpPactMs);
const rp = median(rustPactMs);
process.stdout.write(
  [
    `| measure (median of ${REPEAT}, Node ${process.version}, loopback, concurrency ${CONCURRENCY}) | idp-verify | reference | ratio |`,
    "|---|---:|---:|---:|",
    `| conformance requests/s (idp-verify R1-R8, --runs ${RUNS}) vs autocannon PUT clustering rules (${SECONDS} s) | ${fmt(v)} | ${fmt(a)} | ${(v / a).toFixed(2)} |`,
    `| pact verification wall time, ms (12 interactions) vs Rust pact-verifier | ${fmt(ip)} | ${fmt(rp)} | ${(ip / rp).toFixed(2)} |`,
    "",
  ].join("\n"),
);
