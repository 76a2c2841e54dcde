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

/** How idp-verify logs in to a Pact Broker: a bearer token (PactFlow) or basic auth (open source). */
export type BrokerAuth =
  | { readonly token: string }
  | { readonly username: string; readonly password: string };

export interface BrokerSource {
  /** The broker's base URL, without user-info (credentials are in `auth`). */
  readonly url: string;
  readonly auth?: BrokerAuth;
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
  /** Authorization for `providerStatesUrl`, from its URL user-info (the URL is kept without it). */
  readonly providerStatesAuthorization?: string;
  /** Pact files or folders; `defaultPacts` tells whether these are the repo's pacts/ (not asked for). */
  readonly pacts: readonly string[];
  /** Pacts by http(s) URL (`--pacts URL`, e.g. a broker webhook's pact URL). */
  readonly pactUrls: readonly string[];
  /** Credentials sent with `pactUrls`: the broker's, when every URL is on the broker's origin. */
  readonly pactUrlAuth?: BrokerAuth;
  readonly defaultPacts: boolean;
  /** Pacts chosen on a broker by selectors (set only without `--pacts`). */
  readonly broker?: BrokerSource;
  /** Every secret taken from flags, environment or URL user-info: the run scrubs them from all output. */
  readonly secrets: readonly string[];
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
                  [--provider-states-url URL] [--pacts PATH|URL ...]
                  [--broker-url URL] [--broker-token T | --broker-username U --broker-password P]
                  [--consumer-version-selectors JSON]
                  [--enable-pending] [--include-wip-pacts-since DATE]
                  [--publish-verification-results --provider-version V --provider-branch B]
                  [--checks LIST] [--runs N] [--seed S] [--timeout-ms MS]
                  [--concurrency N] [--profile default|strict] [--shard i/n]
                  [--report FORMAT=PATH ...]   (json=..., junit=..., html=...)
Credentials also from IDP_USERNAME / IDP_PASSWORD; the broker from PACT_BROKER_BASE_URL and
PACT_BROKER_TOKEN or PACT_BROKER_USERNAME / PACT_BROKER_PASSWORD. --include-wip-pacts-since implies
--enable-pending (WIP pacts are pending).
Exit: 0 every selected check passed, 1 the provider broke a rule or pact, 2 could not verify.`;

const OPTIONS = {
  "provider-url": { type: "string" },
  username: { type: "string" },
  password: { type: "string" },
  "provider-states-url": { type: "string" },
  pacts: { type: "string", multiple: true },
  "broker-url": { type: "string" },
  "broker-token": { type: "string" },
  "broker-username": { type: "string" },
  "broker-password": { type: "string" },
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

  // URL user-info is split off where the URL is read: the URL is kept without it, the credentials
  // separately, and every secret goes to `secrets` (scrubbed from all output).
  const secrets: string[] = [];
  const provider =
    values["provider-url"] === undefined
      ? undefined
      : splitUserInfo(parse(httpUrl("--provider-url"), values["provider-url"]), secrets);
  const providerUrl = provider?.url;
  const states =
    values["provider-states-url"] === undefined
      ? undefined
      : splitUserInfo(
          parse(httpUrl("--provider-states-url"), values["provider-states-url"]),
          secrets,
        );
  const providerStatesUrl = states?.url;

  if (
    provider?.userInfo &&
    [values.username, values.password, env.IDP_USERNAME, env.IDP_PASSWORD].some(
      (v) => v !== undefined,
    )
  )
    fail(
      "the provider credentials are given twice: in the user-info of --provider-url and in --username/--password or IDP_USERNAME/IDP_PASSWORD",
    );
  const username = values.username ?? env.IDP_USERNAME ?? provider?.userInfo?.username;
  const password = values.password ?? env.IDP_PASSWORD ?? provider?.userInfo?.password;
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

  // The broker: --broker-url or PACT_BROKER_BASE_URL; a token or basic auth from the flags, else
  // from PACT_BROKER_TOKEN / PACT_BROKER_USERNAME + PACT_BROKER_PASSWORD, else the URL's user-info.
  const brokerFlag = values["broker-url"] !== undefined ? "--broker-url" : "PACT_BROKER_BASE_URL";
  const brokerRaw = values["broker-url"] ?? nonBlank(env.PACT_BROKER_BASE_URL);
  const brokerParsed =
    brokerRaw === undefined
      ? undefined
      : splitUserInfo(parse(httpUrl(brokerFlag), brokerRaw), secrets);
  const brokerUrl = brokerParsed?.url;
  const brokerAuth = readBrokerAuth(values, env, brokerParsed?.userInfo, fail);
  if (brokerAuth) secrets.push(...brokerSecrets(brokerAuth));

  const explicitPacts = values.pacts ?? [];
  const pactUrls = explicitPacts.filter((p) => /^https?:\/\//i.test(p));
  const pactPaths = explicitPacts.filter((p) => !/^https?:\/\//i.test(p));
  for (const url of pactUrls) {
    if (!URL.canParse(url)) fail("--pacts: a pact URL is not a valid http(s) URL");
    const u = new URL(url);
    if (u.username !== "" || u.password !== "")
      fail(
        "--pacts: a pact URL must not carry credentials (user-info); give the broker's with --broker-username/--broker-password or PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD",
      );
  }
  // A pact URL on the broker is fetched (and its results published) with the broker's credentials;
  // pact-js sends one set of credentials to every URL, so URLs elsewhere go in a run of their own.
  const onBroker = (url: string) =>
    brokerUrl !== undefined && `${url}/`.startsWith(`${brokerUrl.replace(/\/+$/, "")}/`);
  const brokerPactUrls = pactUrls.filter(onBroker);
  if (brokerAuth && brokerPactUrls.length > 0 && brokerPactUrls.length < pactUrls.length)
    fail(
      "--pacts mixes URLs on the broker (fetched with its credentials) and URLs elsewhere: verify them in separate runs",
    );
  const pactUrlAuth = brokerAuth && brokerPactUrls.length > 0 ? brokerAuth : undefined;

  if (brokerUrl === undefined) {
    for (const flag of [
      "broker-token",
      "broker-username",
      "broker-password",
      "consumer-version-selectors",
      "enable-pending",
      "include-wip-pacts-since",
      "provider-branch",
    ] as const)
      if (values[flag] !== undefined)
        fail(`--${flag} needs --broker-url (or PACT_BROKER_BASE_URL)`);
  }
  if (explicitPacts.length > 0)
    for (const flag of [
      "consumer-version-selectors",
      "enable-pending",
      "include-wip-pacts-since",
    ] as const)
      if (values[flag] !== undefined)
        fail(`--${flag} chooses pacts on the broker; it does not go with --pacts`);
  const providerBranch = values["provider-branch"];
  if (providerBranch !== undefined && providerBranch.trim() === "")
    fail("--provider-branch must not be empty");
  const wipSince = values["include-wip-pacts-since"];
  // WIP pacts are pending by definition: without pending, a consumer's work in progress would fail
  // the provider's build.
  const enablePending = values["enable-pending"] === true || wipSince !== undefined;
  // Pact sends providerVersionBranch "" when no branch is given, and a Pact Broker refuses that
  // together with pending or WIP pacts (it computes both per provider branch).
  if (enablePending && !providerBranch)
    fail(
      "--enable-pending and --include-wip-pacts-since need --provider-branch (the broker works out pending and WIP pacts per provider branch)",
    );
  if (wipSince !== undefined && Number.isNaN(Date.parse(wipSince)))
    fail("--include-wip-pacts-since must be a date, e.g. 2025-01-01");
  const broker: BrokerSource | undefined =
    brokerUrl === undefined || explicitPacts.length > 0
      ? undefined
      : {
          url: brokerUrl,
          ...(brokerAuth ? { auth: brokerAuth } : {}),
          consumerVersionSelectors:
            values["consumer-version-selectors"] === undefined
              ? [{ mainBranch: true }, { deployedOrReleased: true }]
              : parse(selectorSchema, values["consumer-version-selectors"]),
          enablePending,
          ...(wipSince !== undefined ? { includeWipPactsSince: wipSince } : {}),
          ...(providerBranch ? { providerBranch } : {}),
        };

  let publish: PublishOptions | undefined;
  if (values["publish-verification-results"]) {
    const providerVersion = values["provider-version"];
    if (!providerVersion) fail("--publish-verification-results needs --provider-version");
    if (!broker && brokerPactUrls.length === 0)
      fail(
        "--publish-verification-results needs pacts from a broker (--broker-url or PACT_BROKER_BASE_URL, or --pacts with the broker's pact URLs): results go to a broker",
      );
    publish = {
      providerVersion: providerVersion as string,
      ...(providerBranch ? { providerBranch } : {}),
    };
  } else if (values["provider-version"] !== undefined) {
    fail("--provider-version goes with --publish-verification-results");
  }

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
    ...(states?.userInfo
      ? { providerStatesAuthorization: basicAuthorization(states.userInfo) }
      : {}),
    pacts:
      explicitPacts.length > 0
        ? pactPaths.map((p) => resolve(p))
        : broker
          ? []
          : [defaultPactsDir()],
    pactUrls,
    ...(pactUrlAuth ? { pactUrlAuth } : {}),
    defaultPacts: explicitPacts.length === 0 && !broker,
    ...(broker ? { broker } : {}),
    secrets,
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

const nonBlank = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== "" ? value : undefined;

/** `Basic base64(user:password)`. */
export const basicAuthorization = (c: Credentials): string =>
  `Basic ${Buffer.from(`${c.username}:${c.password}`, "utf8").toString("base64")}`;

/**
 * Splits the user-info off a URL: the URL without it, and the decoded credentials. Every form of the
 * password that could be printed (decoded, as written, and Base64 in a Basic header) goes to `secrets`.
 */
export function splitUserInfo(
  url: string,
  secrets: string[],
): { readonly url: string; readonly userInfo?: Credentials } {
  const u = new URL(url);
  if (u.username === "" && u.password === "") return { url };
  const userInfo = {
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
  };
  secrets.push(
    u.password,
    userInfo.password,
    `${u.username}:${u.password}@`,
    basicAuthorization(userInfo).slice("Basic ".length),
  );
  u.username = "";
  u.password = "";
  return { url: u.toString().replace(/\/+$/, ""), userInfo };
}

/** The secrets of a broker login, in every form that could be printed. */
export function brokerSecrets(auth: BrokerAuth): string[] {
  return "token" in auth
    ? [auth.token]
    : [auth.password, basicAuthorization(auth).slice("Basic ".length)];
}

type BrokerAuthFlags = {
  readonly "broker-token"?: string;
  readonly "broker-username"?: string;
  readonly "broker-password"?: string;
};

/**
 * The broker login: the flags when any is given, else the environment, else the broker URL's
 * user-info. A token (PactFlow) and basic auth (the open-source Pact Broker) exclude each other.
 */
function readBrokerAuth(
  flags: BrokerAuthFlags,
  env: Readonly<Record<string, string | undefined>>,
  userInfo: Credentials | undefined,
  fail: (message: string) => never,
): BrokerAuth | undefined {
  const fromFlags = [
    flags["broker-token"],
    flags["broker-username"],
    flags["broker-password"],
  ].some((v) => v !== undefined);
  const [token, username, password, where] = fromFlags
    ? [flags["broker-token"], flags["broker-username"], flags["broker-password"], "flags"]
    : [
        nonBlank(env.PACT_BROKER_TOKEN),
        nonBlank(env.PACT_BROKER_USERNAME),
        nonBlank(env.PACT_BROKER_PASSWORD),
        "env",
      ];
  const names =
    where === "flags"
      ? { token: "--broker-token", user: "--broker-username", password: "--broker-password" }
      : {
          token: "PACT_BROKER_TOKEN",
          user: "PACT_BROKER_USERNAME",
          password: "PACT_BROKER_PASSWORD",
        };
  if (token !== undefined && (username !== undefined || password !== undefined))
    fail(
      `give either ${names.token} (PactFlow) or ${names.user} and ${names.password} (basic auth, the open-source Pact Broker), not both`,
    );
  if ((username === undefined) !== (password === undefined))
    fail(`give both ${names.user} and ${names.password} (basic auth needs both)`);
  if (token !== undefined && token.trim() === "") fail(`${names.token} must not be empty`);
  if (username?.includes(":"))
    fail(`${names.user} must not contain ':' (Basic credentials are user:password)`);
  const given: BrokerAuth | undefined =
    token !== undefined
      ? { token }
      : username !== undefined && password !== undefined
        ? { username, password }
        : undefined;
  if (given && userInfo)
    fail(
      `the broker credentials are given twice: in the user-info of the broker URL and in ${where === "flags" ? "the --broker-* flags" : "PACT_BROKER_* variables"}`,
    );
  return given ?? userInfo;
}
