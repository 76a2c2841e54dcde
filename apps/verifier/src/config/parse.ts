import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type ContractProfile, didYouMean, loadProfile, ProfileError } from "@idp/contracts";
import { z } from "zod";
import { VerifyError } from "../errors.ts";
import { PACT_PREFIX } from "../pact/ids.ts";
import { CONFORMANCE_CHECKS } from "../rules/index.ts";
import type { Credentials } from "../rules/types.ts";
import { base64, splitUserInfo } from "../secrets.ts";
import { parseShard, type Shard } from "../shard.ts";
import { OPTIONS } from "./options.ts";

/** `json`, `junit` or `html`. */
export type ReportFormat = "json" | "junit" | "html";

/** A pact to verify: a file or folder, or a URL (with the Authorization it needs, never printed). */
export type PactSource =
  | { readonly kind: "path"; readonly path: string }
  | { readonly kind: "url"; readonly url: string; readonly authorization?: string };

export type BrokerAuth =
  | { readonly token: string }
  | { readonly username: string; readonly password: string };

export interface BrokerSource {
  /** Without user-info. */
  readonly url: string;
  readonly auth?: BrokerAuth;
  readonly consumerVersionSelectors: readonly Record<string, unknown>[];
  readonly enablePending: boolean;
  readonly includeWipPactsSince?: string;
  readonly providerBranch?: string;
}

export interface PublishOptions {
  readonly providerVersion: string;
  readonly providerBranch?: string;
}

/** Everything `verify` needs, parsed and validated once (conformance.md §5). */
export interface Config {
  /** Base address ending in /v1, without user-info; absent: the embedded reference provider. */
  readonly providerUrl?: string;
  readonly credentials?: Credentials;
  readonly providerStates?: { readonly url: string; readonly authorization?: string };
  readonly pacts: readonly PactSource[];
  /** The pacts are the repo's pacts/ (nobody asked for them by name). */
  readonly defaultPacts: boolean;
  /** Pacts chosen on a broker by selectors (only without --pacts). */
  readonly broker?: BrokerSource;
  /** The broker's login, for pact URLs on the broker (fetched, and their results published). */
  readonly pactUrlAuth?: BrokerAuth;
  readonly publish?: PublishOptions;
  /** Check ids or prefixes from --checks; empty: every check the options allow. */
  readonly checks: readonly string[];
  readonly profile: ContractProfile;
  /** What --profile said (a built-in name or the path as given). */
  readonly profileArg: string;
  readonly runs: number;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly maxDurationMs: number;
  readonly concurrency: number;
  /** Worker threads for the checks and instances of Pact's verifier; absent: the defaults. */
  readonly threads?: number;
  /** Transport failures in a row after which the provider counts as stopped. */
  readonly maxConsecutiveTransportFailures: number;
  readonly reports: readonly { readonly format: ReportFormat; readonly path: string }[];
  readonly shard?: Shard;
  /** `--replay-dir`: where to write a vitest replay file per failure. */
  readonly replayDir?: string;
  /** `--require-cells`: every documented client-error cell must be seen (check cells.required). */
  readonly requireCells: boolean;
  /** Where relative paths start: the directory the user ran the command from. */
  readonly cwd: string;
}

export type ParseResult =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "run"; readonly config: Config };

const fail = (message: string): never => {
  throw new VerifyError("E_CONFIG", message);
};

const parseOrFail = <T>(schema: z.ZodType<T>, value: unknown): T => {
  const r = schema.safeParse(value);
  if (!r.success) fail(r.error.issues[0]?.message ?? "invalid option");
  return (r as { data: T }).data;
};

const httpUrl = (flag: string) =>
  z.string().refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
    error: (i) => `${flag} must be an http(s) URL (received ${JSON.stringify(i.input)})`,
  });

const wholeNumber = (flag: string, min: number, max: number) =>
  z
    .string()
    .refine((s) => /^-?\d+$/.test(s.trim()) && Number(s) >= min && Number(s) <= max, {
      error: (i) =>
        `${flag} must be a whole number from ${min} to ${max} (received ${JSON.stringify(i.input)})`,
    })
    .transform(Number);

const selectorsSchema = z.string().transform((s, ctx) => {
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

/** The repo's pacts/ when run from this workspace; installed elsewhere, the working directory's. */
export function defaultPactsDir(cwd: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of [join(here, "..", "..", "..", ".."), join(here, "..", "..", "..")]) {
    const repo = resolve(up);
    if (existsSync(join(repo, "pnpm-workspace.yaml")) && existsSync(join(repo, "pacts")))
      return join(repo, "pacts");
  }
  return join(cwd, "pacts");
}

/** Known --checks selectors: a check id, a dotted prefix of one, `pact` or `pact.<description>`. */
export function checkSelectorProblem(selector: string): string | undefined {
  if (selector === PACT_PREFIX || selector.startsWith(`${PACT_PREFIX}.`)) return undefined;
  if (CONFORMANCE_CHECKS.some((c) => c.id === selector || c.id.startsWith(`${selector}.`)))
    return undefined;
  const names = [
    PACT_PREFIX,
    ...new Set(
      CONFORMANCE_CHECKS.flatMap((c) => {
        const parts = c.id.split(".");
        return parts.map((_, i) => parts.slice(0, i + 1).join("."));
      }),
    ),
  ];
  const close = didYouMean(selector, names);
  return `unknown check id "${selector}" in --checks${close ? ` (did you mean "${close}"?)` : ""}; idp-verify --help lists every check id`;
}

/** `--seed -5` reads as a value, not a flag: node's parseArgs would call it ambiguous. */
function joinNegativeValues(argv: readonly string[]): string[] {
  const takesValue = new Set(OPTIONS.filter((o) => o.type === "string").map((o) => `--${o.name}`));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const v = argv[i + 1];
    if (takesValue.has(a) && v !== undefined && /^-\d/.test(v)) {
      out.push(`${a}=${v}`);
      i++;
    } else out.push(a);
  }
  return out;
}

type Values = Record<string, string | boolean | string[] | undefined>;

function readArgv(argv: readonly string[]): Values {
  const options = Object.fromEntries(
    OPTIONS.map((o) => [
      o.name,
      {
        type: o.type,
        ...(o.multiple ? { multiple: true } : {}),
        ...(o.short ? { short: o.short } : {}),
      },
    ]),
  ) as NonNullable<Parameters<typeof parseArgs>[0]>["options"];
  try {
    return parseArgs({
      args: joinNegativeValues(argv),
      options,
      strict: true,
      allowPositionals: false,
    }).values as Values;
  } catch (e) {
    const err = e as { code?: string; message: string };
    const flag = /'(-{1,2}[^'\s]+)/.exec(err.message)?.[1];
    if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) {
      const close = didYouMean(
        flag.replace(/^-+/, ""),
        OPTIONS.map((o) => o.name),
      );
      fail(`unknown option ${flag}${close ? ` (did you mean --${close}?)` : ""}`);
    }
    if (err.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
      fail(
        `unexpected argument ${flag ?? ""}: every value belongs to an option, e.g. --pacts PATH`,
      );
    if (err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag) {
      const spec = OPTIONS.find((o) => `--${o.name}` === flag.split("=")[0]);
      fail(
        spec?.type === "boolean"
          ? `${flag} takes no value`
          : `${flag} needs a value${spec?.value ? ` (${spec.value})` : ""}`,
      );
    }
    return fail(err.message.split("\n")[0] ?? "bad arguments");
  }
}

/** An option's value: the flag, else its environment variables. */
function optionValue(
  values: Values,
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  const v = values[name];
  if (typeof v === "string") return v;
  for (const e of OPTIONS.find((o) => o.name === name)?.env ?? []) {
    const fromEnv = env[e];
    if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  }
  return undefined;
}

/**
 * Parses argv (without node and script) and env into a validated {@link Config}.
 * @throws VerifyError E_CONFIG or E_PROFILE with a one-line message naming the option or file.
 */
export function parseConfig(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = env.INIT_CWD ?? process.cwd(),
): ParseResult {
  const values = readArgv(argv);
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  const str = (name: string) => optionValue(values, env, name);

  // The provider, its credentials (URL user-info counts as --username/--password).
  const rawProvider = str("provider-url");
  const provider =
    rawProvider === undefined
      ? undefined
      : splitUserInfo(parseOrFail(httpUrl("--provider-url"), rawProvider));
  const providerUrl = provider?.url.replace(/\/+$/, "");
  if (provider?.credentials && (str("username") !== undefined || str("password") !== undefined))
    fail(
      "the provider credentials are given twice: in the user-info of --provider-url and in --username/--password or IDP_USERNAME/IDP_PASSWORD",
    );
  const username = str("username") ?? provider?.credentials?.username;
  const password = str("password") ?? provider?.credentials?.password;
  if ((username === undefined) !== (password === undefined))
    fail(
      "give both a username and a password (--username/--password or IDP_USERNAME/IDP_PASSWORD)",
    );
  if (username?.includes(":"))
    fail("the username must not contain ':' (Basic credentials are user:password)");
  if (providerUrl !== undefined && username === undefined)
    fail(
      "--provider-url needs credentials: IDP_USERNAME and IDP_PASSWORD, or --username and --password",
    );

  const rawStates = str("provider-states-url");
  const states =
    rawStates === undefined
      ? undefined
      : splitUserInfo(parseOrFail(httpUrl("--provider-states-url"), rawStates));
  if (providerUrl === undefined && states !== undefined)
    fail("--provider-states-url needs --provider-url (the embedded provider has its own)");

  // --checks
  const checks = (typeof values.checks === "string" ? values.checks : "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const c of checks) {
    const problem = checkSelectorProblem(c);
    if (problem) fail(problem);
  }

  // The broker: --broker-url or PACT_BROKER_BASE_URL. Its login: the flags if any is given, else
  // PACT_BROKER_TOKEN or PACT_BROKER_USERNAME + PACT_BROKER_PASSWORD, else the URL's user-info.
  const rawBroker = str("broker-url");
  const broker0 =
    rawBroker === undefined
      ? undefined
      : splitUserInfo(
          parseOrFail(
            httpUrl(values["broker-url"] ? "--broker-url" : "PACT_BROKER_BASE_URL"),
            rawBroker,
          ),
        );
  const brokerAuth = readBrokerAuth(values, env, broker0?.credentials);
  if (!broker0)
    for (const flag of ["broker-token", "broker-username", "broker-password"] as const)
      if (values[flag] !== undefined)
        fail(`--${flag} needs --broker-url (or PACT_BROKER_BASE_URL)`);
  const brokerUrl = broker0?.url.replace(/\/+$/, "");

  // Pact sources: paths from the user's directory; URLs (a webhook's pact), fetched with the
  // broker's login when they are on the broker. Giving --pacts turns choosing pacts on the broker off.
  const explicit = (values.pacts as string[] | undefined) ?? [];
  const onBroker = (url: string) =>
    brokerUrl !== undefined && `${url}/`.startsWith(`${brokerUrl}/`);
  const pacts: PactSource[] = explicit.map((p) => {
    if (!/^https?:\/\//i.test(p)) return { kind: "path", path: resolve(cwd, p) };
    const url = parseOrFail(httpUrl("--pacts"), p);
    if (splitUserInfo(url).credentials)
      fail(
        "--pacts: a pact URL must not carry credentials (user-info); give the broker's with --broker-username/--broker-password or PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD",
      );
    return {
      kind: "url",
      url,
      ...(brokerAuth && onBroker(url) ? { authorization: authorizationOf(brokerAuth) } : {}),
    };
  });
  const urls = pacts.filter((p) => p.kind === "url");
  // Pact's verifier sends one login to every pact URL: a run takes URLs on the broker or elsewhere.
  if (brokerAuth && urls.some((u) => u.authorization) && urls.some((u) => !u.authorization))
    fail(
      "--pacts mixes URLs on the broker (fetched with its login) and URLs elsewhere: verify them in separate runs",
    );
  // Flags that choose pacts on a broker: meaningless with --pacts, or without a broker.
  for (const flag of [
    "consumer-version-selectors",
    "enable-pending",
    "include-wip-pacts-since",
  ] as const)
    if (values[flag] !== undefined) {
      if (explicit.length > 0)
        fail(`--${flag} chooses pacts on the broker; it does not go with --pacts`);
      if (!broker0) fail(`--${flag} needs --broker-url (or PACT_BROKER_BASE_URL)`);
    }
  const providerBranch =
    typeof values["provider-branch"] === "string" ? values["provider-branch"] : undefined;
  if (providerBranch !== undefined && providerBranch.trim() === "")
    fail("--provider-branch must not be empty");
  const wipSince =
    typeof values["include-wip-pacts-since"] === "string"
      ? values["include-wip-pacts-since"]
      : undefined;
  if (wipSince !== undefined && Number.isNaN(Date.parse(wipSince)))
    fail(
      `--include-wip-pacts-since must be a date, e.g. 2025-01-01 (received ${JSON.stringify(wipSince)})`,
    );
  // WIP pacts are pending by definition: a consumer's work in progress never fails the build.
  const enablePending = values["enable-pending"] === true || wipSince !== undefined;
  // Pact sends providerVersionBranch "" without a branch, which a broker refuses with pending/WIP.
  if (enablePending && !providerBranch)
    fail(
      "--enable-pending and --include-wip-pacts-since need --provider-branch (the broker works out pending and WIP pacts per provider branch)",
    );
  const broker: BrokerSource | undefined =
    broker0 && brokerUrl && explicit.length === 0
      ? {
          url: brokerUrl,
          ...(brokerAuth ? { auth: brokerAuth } : {}),
          consumerVersionSelectors:
            typeof values["consumer-version-selectors"] === "string"
              ? parseOrFail(selectorsSchema, values["consumer-version-selectors"])
              : [{ mainBranch: true }, { deployedOrReleased: true }],
          enablePending,
          ...(wipSince !== undefined ? { includeWipPactsSince: wipSince } : {}),
          ...(providerBranch ? { providerBranch } : {}),
        }
      : undefined;
  const pactUrlAuth = brokerAuth && urls.some((u) => u.authorization) ? brokerAuth : undefined;

  let publish: PublishOptions | undefined;
  const providerVersion =
    typeof values["provider-version"] === "string" ? values["provider-version"] : undefined;
  if (values["publish-verification-results"]) {
    if (!providerVersion) fail("--publish-verification-results needs --provider-version");
    if (
      !broker &&
      !(
        (urls.length > 0 && urls.length === pacts.length && pactUrlAuth !== undefined) ||
        (urls.length > 0 && urls.every((u) => onBroker(u.url)))
      )
    )
      fail(
        "--publish-verification-results needs pacts from a broker (--broker-url or PACT_BROKER_BASE_URL, or --pacts with the broker's pact URLs): results go to a broker",
      );
    publish = {
      providerVersion: providerVersion as string,
      ...(providerBranch ? { providerBranch } : {}),
    };
  } else if (providerVersion !== undefined)
    fail("--provider-version goes with --publish-verification-results");
  const defaultPacts = explicit.length === 0 && !broker;

  // The profile.
  const profileArg = typeof values.profile === "string" ? values.profile : "default";
  let profile: ContractProfile;
  try {
    profile = loadProfile(profileArg, { cwd });
  } catch (e) {
    if (e instanceof ProfileError) throw new VerifyError("E_PROFILE", e.message, { cause: e });
    throw e;
  }

  const reportSchema = z.string().transform((s, ctx) => {
    const m = /^(json|junit|html)=(.+)$/.exec(s);
    if (!m?.[1] || !m[2]) {
      const format = /^([^=]*)=/.exec(s)?.[1];
      const close = format ? didYouMean(format, ["json", "junit", "html"]) : undefined;
      ctx.addIssue({
        code: "custom",
        message: `--report must be FORMAT=PATH with FORMAT json, junit or html (received ${JSON.stringify(s)}${close ? `; did you mean ${close}=...?` : ""})`,
      });
      return z.NEVER;
    }
    return { format: m[1] as ReportFormat, path: resolve(cwd, m[2]) };
  });

  if (values["require-cells"] === true && typeof values.shard === "string")
    fail(
      "--require-cells judges the statuses of a whole run; it does not go with --shard (a shard sends only part of the requests)",
    );
  if (values["replay-dir"] === "") fail("--replay-dir needs a directory (DIR)");

  const config: Config = {
    ...(providerUrl !== undefined ? { providerUrl } : {}),
    ...(username !== undefined && password !== undefined
      ? { credentials: { username, password } }
      : {}),
    ...(states
      ? {
          providerStates: {
            url: states.url,
            ...(states.credentials
              ? {
                  authorization: `Basic ${base64(`${states.credentials.username}:${states.credentials.password}`)}`,
                }
              : {}),
          },
        }
      : {}),
    pacts: defaultPacts ? [{ kind: "path", path: defaultPactsDir(cwd) }] : pacts,
    defaultPacts,
    ...(broker ? { broker } : {}),
    ...(pactUrlAuth ? { pactUrlAuth } : {}),
    ...(publish ? { publish } : {}),
    checks,
    profile,
    profileArg,
    runs:
      values.runs === undefined
        ? 100
        : parseOrFail(wholeNumber("--runs", 1, 1_000_000), values.runs),
    seed:
      values.seed === undefined
        ? Math.floor(Math.random() * 2 ** 31)
        : parseOrFail(wholeNumber("--seed", -(2 ** 31), 2 ** 31 - 1), values.seed),
    timeoutMs:
      values["timeout-ms"] === undefined
        ? 10_000
        : parseOrFail(wholeNumber("--timeout-ms", 1, 600_000), values["timeout-ms"]),
    maxDurationMs:
      1000 *
      (values["max-duration"] === undefined
        ? 600
        : parseOrFail(wholeNumber("--max-duration", 1, 86_400), values["max-duration"])),
    concurrency:
      values.concurrency === undefined
        ? 16
        : parseOrFail(wholeNumber("--concurrency", 1, 256), values.concurrency),
    ...(values.threads === undefined
      ? {}
      : { threads: parseOrFail(wholeNumber("--threads", 1, 16), values.threads) }),
    maxConsecutiveTransportFailures: 5,
    reports: ((values.report as string[] | undefined) ?? []).map((r) =>
      parseOrFail(reportSchema, r),
    ),
    ...(typeof values.shard === "string" ? { shard: parseShard(values.shard) } : {}),
    ...(typeof values["replay-dir"] === "string"
      ? { replayDir: resolve(cwd, values["replay-dir"]) }
      : {}),
    requireCells: values["require-cells"] === true,
    cwd,
  };
  return { kind: "run", config };
}

/** `Basic base64(user:password)` or `Bearer token`: the broker's login as a header value. */
export function authorizationOf(auth: BrokerAuth): string {
  return "token" in auth
    ? `Bearer ${auth.token}`
    : `Basic ${base64(`${auth.username}:${auth.password}`)}`;
}

/** The broker login: flags, else the environment, else the URL's user-info; never two of them mixed. */
function readBrokerAuth(
  values: Values,
  env: Readonly<Record<string, string | undefined>>,
  userInfo: { readonly username: string; readonly password: string } | undefined,
): BrokerAuth | undefined {
  const flag = (n: string) => (typeof values[n] === "string" ? (values[n] as string) : undefined);
  const envOf = (n: string) => (env[n] !== undefined && env[n] !== "" ? env[n] : undefined);
  const fromFlags = {
    token: flag("broker-token"),
    username: flag("broker-username"),
    password: flag("broker-password"),
  };
  const fromEnv = {
    token: envOf("PACT_BROKER_TOKEN"),
    username: envOf("PACT_BROKER_USERNAME"),
    password: envOf("PACT_BROKER_PASSWORD"),
  };
  const given = (x: typeof fromFlags) =>
    x.token !== undefined || x.username !== undefined || x.password !== undefined;
  const pick = (x: typeof fromFlags, names: readonly [string, string, string]): BrokerAuth => {
    if (x.token !== undefined && (x.username !== undefined || x.password !== undefined))
      fail(
        `give either ${names[0]} (PactFlow) or ${names[1]} and ${names[2]} (the open-source Pact Broker), not both`,
      );
    if (x.token !== undefined) return { token: x.token };
    if (x.username === undefined || x.password === undefined)
      fail(`give both ${names[1]} and ${names[2]}`);
    return { username: x.username as string, password: x.password as string };
  };
  if (given(fromFlags)) {
    if (userInfo)
      fail(
        "the broker credentials are given twice: in the user-info of --broker-url and in --broker-token/--broker-username/--broker-password",
      );
    return pick(fromFlags, ["--broker-token", "--broker-username", "--broker-password"]);
  }
  if (given(fromEnv)) {
    if (userInfo)
      fail(
        "the broker credentials are given twice: in the user-info of the broker URL and in PACT_BROKER_*",
      );
    return pick(fromEnv, ["PACT_BROKER_TOKEN", "PACT_BROKER_USERNAME", "PACT_BROKER_PASSWORD"]);
  }
  return userInfo;
}
