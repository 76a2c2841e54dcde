import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { isKnownSelector } from "./check-ids.ts";
import { VerifyError } from "./errors.ts";
import { parseShard, type Shard } from "./shard.ts";

export type ReportFormat = "json" | "junit" | "html";

export interface Credentials {
  readonly username: string;
  readonly password: string;
}

export interface BrokerSource {
  readonly url: string;
  readonly token?: string;
  readonly consumerVersionSelectors: readonly Record<string, unknown>[];
  readonly enablePending: boolean;
  readonly includeWipPactsSince?: string;
  /** The provider branch the broker works out pending and WIP pacts for (`--provider-branch`). */
  readonly providerBranch?: string;
}

export interface PublishOptions {
  readonly providerVersion: string;
  readonly providerBranch?: string;
}

/** Everything `verify` needs, parsed and validated once (conformance.md §5). */
export interface Config {
  /** Base address ending in /v1; absent: start and verify the embedded reference provider. */
  readonly providerUrl?: string;
  readonly credentials?: Credentials;
  readonly providerStatesUrl?: string;
  /** Pact files or folders; `defaultPacts` tells whether these are the repo's pacts/ (not asked for). */
  readonly pacts: readonly string[];
  readonly defaultPacts: boolean;
  readonly broker?: BrokerSource;
  readonly publish?: PublishOptions;
  /** Selected check ids or prefixes; empty means all. */
  readonly checks: readonly string[];
  readonly runs: number;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Consecutive transport failures after which the provider counts as stopped. */
  readonly maxConsecutiveTransportFailures: number;
  readonly profile: "default" | "strict";
  readonly reports: readonly { readonly format: ReportFormat; readonly path: string }[];
  /** `--shard i/n`: run only the i-th of n disjoint parts of the selected checks (shard.ts). */
  readonly shard?: Shard;
}

export const USAGE = `Usage: idp-verify [--provider-url URL] [--username U] [--password P]
                  [--provider-states-url URL] [--pacts PATH ...]
                  [--broker-url URL] [--broker-token T] [--consumer-version-selectors JSON]
                  [--enable-pending] [--include-wip-pacts-since DATE]
                  [--publish-verification-results --provider-version V --provider-branch B]
                  [--checks LIST] [--runs N] [--seed S] [--timeout-ms MS]
                  [--concurrency N] [--profile default|strict] [--shard i/n]
                  [--report FORMAT=PATH ...]   (json=..., junit=..., html=...)
Credentials also from IDP_USERNAME / IDP_PASSWORD; the broker token from PACT_BROKER_TOKEN.
Exit: 0 every selected check passed, 1 the provider broke a rule or pact, 2 could not verify.`;

const OPTIONS = {
  "provider-url": { type: "string" },
  username: { type: "string" },
  password: { type: "string" },
  "provider-states-url": { type: "string" },
  pacts: { type: "string", multiple: true },
  "broker-url": { type: "string" },
  "broker-token": { type: "string" },
  "consumer-version-selectors": { type: "string" },
  "enable-pending": { type: "boolean" },
  "include-wip-pacts-since": { type: "string" },
  "publish-verification-results": { type: "boolean" },
  "provider-version": { type: "string" },
  "provider-branch": { type: "string" },
  checks: { type: "string" },
  runs: { type: "string" },
  seed: { type: "string" },
  "timeout-ms": { type: "string" },
  concurrency: { type: "string" },
  profile: { type: "string" },
  report: { type: "string", multiple: true },
  shard: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const httpUrl = (flag: string) =>
  z
    .string()
    .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
      error: `${flag} must be an http(s) URL`,
    })
    .transform((s) => s.replace(/\/+$/, ""));

const intIn = (flag: string, min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, { error: `${flag} must be an integer` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `${flag} must be >= ${min}` })
        .max(max, { error: `${flag} must be <= ${max}` }),
    );

const selectorSchema = z.string().transform((s, ctx) => {
  try {
    const parsed: unknown = JSON.parse(s);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    if (list.every((x) => typeof x === "object" && x !== null && !Array.isArray(x)))
      return list as Record<string, unknown>[];
  } catch {
    // reported below
  }
  ctx.addIssue({
    code: "custom",
    message: `--consumer-version-selectors must be a JSON object or array of objects, e.g. '[{"mainBranch":true}]'`,
  });
  return z.NEVER;
});

const reportSchema = z.string().transform((s, ctx) => {
  const m = /^(json|junit|html)=(.+)$/.exec(s);
  if (!m?.[1] || !m[2]) {
    ctx.addIssue({
      code: "custom",
      message: `--report must be FORMAT=PATH with FORMAT json, junit or html (received "${s}")`,
    });
    return z.NEVER;
  }
  return { format: m[1] as ReportFormat, path: resolve(m[2]) };
});

/** The repo's pacts/ folder: src/ and dist/ both sit two levels below the repo root's apps/. */
export function defaultPactsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const repo = resolve(here, "..", "..", "..");
  // In this workspace, the repo's pacts/; installed from a registry (inside node_modules), the
  // pacts/ of the current directory.
  return existsSync(join(repo, "pnpm-workspace.yaml")) && existsSync(join(repo, "pacts"))
    ? join(repo, "pacts")
    : join(process.cwd(), "pacts");
}

export type ParseResult =
  | { readonly help: true }
  | { readonly help: false; readonly config: Config };

/**
 * Parses argv (without node and script) and env into a validated {@link Config}.
 * @throws VerifyError E_CONFIG with a one-line message naming the option.
 */
export function parseConfig(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ParseResult {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true }));
  } catch (e) {
    throw new VerifyError("E_CONFIG", (e as Error).message.split("\n")[0] ?? "bad arguments", {
      cause: e,
    });
  }
  if (values.help) return { help: true };
  const fail = (message: string): never => {
    throw new VerifyError("E_CONFIG", message);
  };
  const parse = <T>(schema: z.ZodType<T>, value: unknown): T => {
    const r = schema.safeParse(value);
    if (!r.success) fail(r.error.issues[0]?.message ?? "invalid option");
    return (r as { data: T }).data;
  };

  const providerUrl =
    values["provider-url"] === undefined
      ? undefined
      : parse(httpUrl("--provider-url"), values["provider-url"]);
  const providerStatesUrl =
    values["provider-states-url"] === undefined
      ? undefined
      : parse(httpUrl("--provider-states-url"), values["provider-states-url"]);

  const username = values.username ?? env.IDP_USERNAME;
  const password = values.password ?? env.IDP_PASSWORD;
  if ((username === undefined) !== (password === undefined))
    fail(
      "give both a username and a password (--username/--password or IDP_USERNAME/IDP_PASSWORD)",
    );
  if (username?.includes(":"))
    fail("the username must not contain ':' (Basic credentials are user:password)");
  if (providerUrl !== undefined && username === undefined)
    fail(
      "--provider-url needs credentials: --username and --password, or IDP_USERNAME and IDP_PASSWORD",
    );
  if (providerUrl === undefined && providerStatesUrl !== undefined)
    fail("--provider-states-url needs --provider-url (the embedded provider has its own)");

  const checks = (values.checks ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = checks.filter((c) => !isKnownSelector(c));
  if (unknown.length > 0)
    fail(`unknown check id "${unknown[0]}" in --checks (see idp-verify --help and the README)`);

  const brokerUrl =
    values["broker-url"] === undefined
      ? undefined
      : parse(httpUrl("--broker-url"), values["broker-url"]);
  if (brokerUrl === undefined) {
    for (const flag of [
      "broker-token",
      "consumer-version-selectors",
      "enable-pending",
      "include-wip-pacts-since",
      "provider-branch",
    ] as const)
      if (values[flag] !== undefined) fail(`--${flag} needs --broker-url`);
  }
  const providerBranch = values["provider-branch"];
  if (providerBranch !== undefined && providerBranch.trim() === "")
    fail("--provider-branch must not be empty");
  // Pact sends providerVersionBranch "" when no branch is given, and a Pact Broker refuses that
  // together with pending or WIP pacts (it computes both per provider branch).
  if (
    (values["enable-pending"] || values["include-wip-pacts-since"] !== undefined) &&
    !providerBranch
  )
    fail(
      "--enable-pending and --include-wip-pacts-since need --provider-branch (the broker works out pending and WIP pacts per provider branch)",
    );
  const wipSince = values["include-wip-pacts-since"];
  if (wipSince !== undefined && Number.isNaN(Date.parse(wipSince)))
    fail("--include-wip-pacts-since must be a date, e.g. 2025-01-01");
  const brokerToken = values["broker-token"] ?? env.PACT_BROKER_TOKEN;
  const broker: BrokerSource | undefined =
    brokerUrl === undefined
      ? undefined
      : {
          url: brokerUrl,
          ...(brokerToken ? { token: brokerToken } : {}),
          consumerVersionSelectors:
            values["consumer-version-selectors"] === undefined
              ? [{ mainBranch: true }, { deployedOrReleased: true }]
              : parse(selectorSchema, values["consumer-version-selectors"]),
          enablePending: values["enable-pending"] ?? false,
          ...(wipSince !== undefined ? { includeWipPactsSince: wipSince } : {}),
          ...(providerBranch ? { providerBranch } : {}),
        };

  let publish: PublishOptions | undefined;
  if (values["publish-verification-results"]) {
    const providerVersion = values["provider-version"];
    if (!providerVersion) fail("--publish-verification-results needs --provider-version");
    if (!broker) fail("--publish-verification-results needs --broker-url (results go to a broker)");
    publish = {
      providerVersion: providerVersion as string,
      ...(providerBranch ? { providerBranch } : {}),
    };
  } else if (values["provider-version"] !== undefined) {
    fail("--provider-version goes with --publish-verification-results");
  }

  const explicitPacts = values.pacts ?? [];
  const profileName = values.profile ?? "default";
  if (profileName !== "default" && profileName !== "strict")
    fail(`--profile must be default or strict (received "${profileName}")`);
  const profile = profileName as "default" | "strict";

  const config: Config = {
    ...(providerUrl !== undefined ? { providerUrl } : {}),
    ...(username !== undefined && password !== undefined
      ? { credentials: { username, password } }
      : {}),
    ...(providerStatesUrl !== undefined ? { providerStatesUrl } : {}),
    pacts:
      explicitPacts.length > 0
        ? explicitPacts.map((p) => resolve(p))
        : broker
          ? []
          : [defaultPactsDir()],
    defaultPacts: explicitPacts.length === 0 && !broker,
    ...(broker ? { broker } : {}),
    ...(publish ? { publish } : {}),
    checks,
    runs: values.runs === undefined ? 100 : parse(intIn("--runs", 1, 100_000), values.runs),
    seed:
      values.seed === undefined
        ? Math.floor(Math.random() * 2 ** 31)
        : parse(intIn("--seed", -(2 ** 31), 2 ** 31 - 1), values.seed),
    timeoutMs:
      values["timeout-ms"] === undefined
        ? 10_000
        : parse(intIn("--timeout-ms", 1, 600_000), values["timeout-ms"]),
    concurrency:
      values.concurrency === undefined
        ? 4
        : parse(intIn("--concurrency", 1, 64), values.concurrency),
    maxConsecutiveTransportFailures: 5,
    profile,
    reports: (values.report ?? []).map((r) => parse(reportSchema, r)),
    ...(values.shard !== undefined ? { shard: parseShard(values.shard) } : {}),
  };
  return { help: false, config };
}
