import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type ContractProfile, didYouMean, loadProfile, ProfileError } from "@idp/contracts";
import {
  type BrokerLogin,
  brokerAuthorization,
  brokerTarget,
  CliError,
  type FlagValues,
  httpUrl,
  parseFlagValues,
  readFlags,
  wholeNumber,
} from "@idp/contracts/cli";
import { z } from "zod";
import { VerifyError } from "../errors.ts";
import type { TransportSettings } from "../http/settings.ts";
import { PACT_PREFIX } from "../pact/ids.ts";
import type { Credentials } from "../rules/auth.ts";
import { CONFORMANCE_CHECKS } from "../rules/index.ts";
import { base64, splitUserInfo } from "../secrets.ts";
import { parseShard } from "../shard.ts";
import { FLAGS, type Flags } from "./flags.ts";
import { transportSettings } from "./transport.ts";

// idp-verify's options and environment (conformance.md §5, §7) through the toolkit's shared parser
// (@idp/contracts/cli): the flag table in flags.ts, read with the environment, then each part of the
// run parsed by a zod schema of its own. `Config` is what those schemas give, so what they prove
// (a provider URL always has credentials, a publication always has a version) is in its type.

/** `json`, `junit` or `html`. */
export type ReportFormat = "json" | "junit" | "html";
type Env = Readonly<Record<string, string | undefined>>;
type Values = FlagValues<Flags>;

/** A pact to verify: a file or folder, or a URL (with the Authorization it needs, never printed). */
export type PactSource =
  | { readonly kind: "path"; readonly path: string }
  | { readonly kind: "url"; readonly url: string; readonly authorization?: string };

/** A broker's login (the same reading as idp-pacts': @idp/pact-consumer's `brokerTarget`). */
export type BrokerAuth = BrokerLogin;

const issue = (ctx: z.RefinementCtx, message: string): typeof z.NEVER => {
  ctx.addIssue({ code: "custom", message });
  return z.NEVER;
};

// --- the provider ------------------------------------------------------------------------------

const providerSchema = z
  .object({
    "provider-url": httpUrl("--provider-url").optional(),
    username: z.string().optional(),
    password: z.string().optional(),
    "provider-states-url": httpUrl("--provider-states-url").optional(),
  })
  .transform((v, ctx) => {
    // URL user-info counts as --username/--password; it is split off where it is placed.
    const provider = v["provider-url"] === undefined ? undefined : splitUserInfo(v["provider-url"]);
    if (provider?.credentials && (v.username !== undefined || v.password !== undefined))
      return issue(
        ctx,
        "the provider credentials are given twice: in the user-info of --provider-url and in --username/--password or IDP_USERNAME/IDP_PASSWORD",
      );
    const username = v.username ?? provider?.credentials?.username;
    const password = v.password ?? provider?.credentials?.password;
    if ((username === undefined) !== (password === undefined))
      return issue(
        ctx,
        "give both a username and a password (--username/--password or IDP_USERNAME/IDP_PASSWORD)",
      );
    if (username?.includes(":"))
      return issue(ctx, "the username must not contain ':' (Basic credentials are user:password)");
    const states =
      v["provider-states-url"] === undefined ? undefined : splitUserInfo(v["provider-states-url"]);
    if (!provider) {
      if (states)
        return issue(
          ctx,
          "--provider-states-url needs --provider-url (the embedded provider has its own)",
        );
      return { kind: "embedded" as const };
    }
    if (username === undefined || password === undefined)
      return issue(
        ctx,
        "--provider-url needs credentials: IDP_USERNAME and IDP_PASSWORD, or --username and --password",
      );
    const credentials: Credentials = { username, password };
    return {
      kind: "url" as const,
      url: provider.url.replace(/\/+$/, ""),
      credentials,
      ...(states
        ? {
            states: {
              url: states.url,
              ...(states.credentials
                ? {
                    authorization: `Basic ${base64(`${states.credentials.username}:${states.credentials.password}`)}`,
                  }
                : {}),
            },
          }
        : {}),
    };
  });

/** The embedded reference provider, or a provider at a URL with its credentials and state URL. */
export type ProviderTarget = z.output<typeof providerSchema>;

// --- pacts: files, URLs or a broker ---------------------------------------------------------------

const selectorsSchema = z.string().transform((s, ctx) => {
  try {
    const parsed: unknown = JSON.parse(s);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    if (list.every((x) => typeof x === "object" && x !== null && !Array.isArray(x)))
      return list as Record<string, unknown>[];
  } catch {
    // reported below
  }
  return issue(
    ctx,
    `--consumer-version-selectors must be a JSON object or array of objects, e.g. '[{"mainBranch":true}]'`,
  );
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

/** The broker's address and login: the login flags if any is given, else PACT_BROKER_*. */
function brokerOf(values: Values, from: From) {
  const logins = ["broker-token", "broker-username", "broker-password"] as const;
  const byFlag = logins.some((f) => from[f]?.startsWith("--"));
  const pick = (f: (typeof logins)[number]) =>
    (from[f]?.startsWith("--") ?? false) === byFlag ? values[f] : undefined;
  return brokerTarget({
    url: values["broker-url"],
    token: pick("broker-token"),
    username: pick("broker-username"),
    password: pick("broker-password"),
    names: {
      url: from["broker-url"] ?? "--broker-url",
      ...(byFlag
        ? { token: "--broker-token", username: "--broker-username", password: "--broker-password" }
        : {
            token: "PACT_BROKER_TOKEN",
            username: "PACT_BROKER_USERNAME",
            password: "PACT_BROKER_PASSWORD",
          }),
    },
  });
}

type From = { readonly [K in keyof Flags]?: string };

/** Pacts chosen on a broker by selectors (only without --pacts). */
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

/** Which pacts a run verifies, and whether it publishes the results. */
export interface PactsPart {
  readonly pacts: readonly PactSource[];
  /** The pacts are the repo's pacts/ (nobody asked for them by name). */
  readonly defaultPacts: boolean;
  readonly broker?: BrokerSource;
  /** The broker's login, for pact URLs on the broker (fetched, and their results published). */
  readonly pactUrlAuth?: BrokerAuth;
  readonly publish?: PublishOptions;
}

function pactsPart(values: Values, from: From, cwd: string): PactsPart {
  const target = brokerOf(values, from);
  const brokerAuth = target?.login;
  if (!target)
    for (const flag of ["broker-token", "broker-username", "broker-password"] as const)
      if (from[flag]?.startsWith("--"))
        throw new CliError(`--${flag} needs --broker-url (or PACT_BROKER_BASE_URL)`);
  // Pact sources: paths from the user's directory; URLs (a webhook's pact), fetched with the
  // broker's login when they are on the broker. Giving --pacts turns choosing pacts on the broker off.
  const explicit = values.pacts ?? [];
  const onBroker = (url: string) => target !== undefined && `${url}/`.startsWith(`${target.url}/`);
  const pacts: PactSource[] = explicit.map((p) => {
    if (!/^https?:\/\//i.test(p)) return { kind: "path", path: resolve(cwd, p) };
    const url = parseFlagValues(httpUrl("--pacts"), p);
    if (splitUserInfo(url).credentials)
      throw new CliError(
        "--pacts: a pact URL must not carry credentials (user-info); give the broker's with --broker-username/--broker-password or PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD",
      );
    return {
      kind: "url",
      url,
      ...(brokerAuth && onBroker(url) ? { authorization: brokerAuthorization(brokerAuth) } : {}),
    };
  });
  const urls = pacts.filter((p) => p.kind === "url");
  // Pact's verifier sends one login to every pact URL: a run takes URLs on the broker or elsewhere.
  if (brokerAuth && urls.some((u) => u.authorization) && urls.some((u) => !u.authorization))
    throw new CliError(
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
        throw new CliError(`--${flag} chooses pacts on the broker; it does not go with --pacts`);
      if (!target) throw new CliError(`--${flag} needs --broker-url (or PACT_BROKER_BASE_URL)`);
    }
  const providerBranch = values["provider-branch"];
  if (providerBranch !== undefined && providerBranch.trim() === "")
    throw new CliError("--provider-branch must not be empty");
  const wipSince = values["include-wip-pacts-since"];
  if (wipSince !== undefined) checkWipSince(wipSince, Date.now());
  // WIP pacts are pending by definition: a consumer's work in progress never fails the build.
  const enablePending = values["enable-pending"] === true || wipSince !== undefined;
  // Pact sends providerVersionBranch "" without a branch, which a broker refuses with pending/WIP.
  if (enablePending && !providerBranch)
    throw new CliError(
      "--enable-pending and --include-wip-pacts-since need --provider-branch (the broker works out pending and WIP pacts per provider branch)",
    );
  const selectors =
    values["consumer-version-selectors"] !== undefined
      ? parseFlagValues(selectorsSchema, values["consumer-version-selectors"])
      : undefined;
  // The broker matches a consumer branch to the provider's: without one, it selects nothing.
  if (selectors?.some((s) => s.matchingBranch === true) && !providerBranch)
    throw new CliError(
      '--consumer-version-selectors: {"matchingBranch": true} needs --provider-branch (the broker selects the consumer branch named like the provider\'s branch)',
    );
  const broker: BrokerSource | undefined =
    target && explicit.length === 0
      ? {
          url: target.url,
          ...(brokerAuth ? { auth: brokerAuth } : {}),
          consumerVersionSelectors: selectors ?? [
            { mainBranch: true },
            { deployedOrReleased: true },
          ],
          enablePending,
          ...(wipSince !== undefined ? { includeWipPactsSince: wipSince } : {}),
          ...(providerBranch ? { providerBranch } : {}),
        }
      : undefined;
  const pactUrlAuth = brokerAuth && urls.some((u) => u.authorization) ? brokerAuth : undefined;
  const providerVersion = values["provider-version"];
  let publish: PublishOptions | undefined;
  if (values["publish-verification-results"]) {
    if (!providerVersion)
      throw new CliError("--publish-verification-results needs --provider-version");
    const fromBroker =
      broker !== undefined ||
      (urls.length > 0 && urls.length === pacts.length && pactUrlAuth !== undefined) ||
      (urls.length > 0 && urls.every((u) => onBroker(u.url)));
    if (!fromBroker)
      throw new CliError(
        "--publish-verification-results needs pacts from a broker (--broker-url or PACT_BROKER_BASE_URL, or --pacts with the broker's pact URLs): results go to a broker",
      );
    publish = { providerVersion, ...(providerBranch ? { providerBranch } : {}) };
  } else if (providerVersion !== undefined)
    throw new CliError("--provider-version goes with --publish-verification-results");
  const defaultPacts = explicit.length === 0 && !broker;
  return {
    pacts: defaultPacts ? [{ kind: "path", path: defaultPactsDir(cwd) }] : pacts,
    defaultPacts,
    ...(broker ? { broker } : {}),
    ...(pactUrlAuth ? { pactUrlAuth } : {}),
    ...(publish ? { publish } : {}),
  };
}

/** The furthest back `--include-wip-pacts-since` may reach (conformance.md §5). */
export const WIP_MAX_DAYS = 90;

/** A WIP date is a date, at most WIP_MAX_DAYS back from `now` (older branches are not in progress). */
function checkWipSince(since: string, now: number): void {
  const at = Date.parse(since);
  const example = new Date(now - 30 * 86_400_000).toISOString().slice(0, 10);
  if (Number.isNaN(at))
    throw new CliError(
      `--include-wip-pacts-since must be a date, e.g. ${example} (received ${JSON.stringify(since)})`,
    );
  const days = Math.floor((now - at) / 86_400_000);
  if (days > WIP_MAX_DAYS)
    throw new CliError(
      `--include-wip-pacts-since ${since} is ${days} days back; expected a date at most ${WIP_MAX_DAYS} days back, e.g. ${example} (every consumer branch since then would be verified as work in progress)`,
    );
}

// --- what to check, and how ----------------------------------------------------------------------

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

const checksSchema = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const list = (text ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    for (const c of list) {
      const problem = checkSelectorProblem(c);
      if (problem) return issue(ctx, problem);
    }
    return list;
  });

/** How many runs, which seed, time limits and parallelism. */
const runSchema = z
  .object({
    runs: wholeNumber("--runs", 1, 1_000_000).optional(),
    seed: wholeNumber("--seed", -(2 ** 31), 2 ** 31 - 1).optional(),
    "timeout-ms": wholeNumber("--timeout-ms", 1, 600_000).optional(),
    "max-duration": wholeNumber("--max-duration", 1, 86_400).optional(),
    concurrency: wholeNumber("--concurrency", 1, 256).optional(),
    threads: wholeNumber("--threads", 1, 16).optional(),
    shard: z.string().optional(),
    "require-cells": z.boolean().optional(),
    cleanup: z.boolean().optional(),
  })
  .transform((v, ctx) => {
    if (v["require-cells"] === true && v.shard !== undefined)
      return issue(
        ctx,
        "--require-cells judges the statuses of a whole run; it does not go with --shard (a shard sends only part of the requests)",
      );
    return {
      runs: v.runs ?? 100,
      seed: v.seed ?? Math.floor(Math.random() * 2 ** 31),
      timeoutMs: v["timeout-ms"] ?? 10_000,
      maxDurationMs: 1000 * (v["max-duration"] ?? 600),
      concurrency: v.concurrency ?? 16,
      ...(v.threads === undefined ? {} : { threads: v.threads }),
      /** Transport failures in a row after which the provider counts as stopped. */
      maxConsecutiveTransportFailures: 5,
      ...(v.shard !== undefined ? { shard: parseShard(v.shard) } : {}),
      requireCells: v["require-cells"] === true,
      /** `--cleanup`: remove the schemas this run created (conformance.md §8). */
      cleanup: v.cleanup === true,
    };
  });

// --- reports -----------------------------------------------------------------------------------

const reportSchema = (cwd: string) =>
  z.string().transform((s, ctx) => {
    const m = /^(json|junit|html)=(.+)$/.exec(s);
    if (!m?.[1] || !m[2]) {
      const format = /^([^=]*)=/.exec(s)?.[1];
      const close = format ? didYouMean(format, ["json", "junit", "html"]) : undefined;
      return issue(
        ctx,
        `--report must be FORMAT=PATH with FORMAT json, junit or html (received ${JSON.stringify(s)}${close ? `; did you mean ${close}=...?` : ""})`,
      );
    }
    return { format: m[1] as ReportFormat, path: resolve(cwd, m[2]) };
  });

const outputSchema = (cwd: string) =>
  z
    .object({
      report: z.array(reportSchema(cwd)).optional(),
      "replay-dir": z.string().optional(),
      har: z.string().optional(),
      learn: z.string().optional(),
      shard: z.string().optional(),
    })
    .transform((v, ctx) => {
      if (v["replay-dir"] === "") return issue(ctx, "--replay-dir needs a directory (DIR)");
      if (v.har === "") return issue(ctx, "--har needs a file (FILE)");
      if (v.learn === "") return issue(ctx, "--learn needs a file (PATH) to write the profile to");
      if (v.learn !== undefined && v.shard !== undefined)
        return issue(
          ctx,
          "--learn asks the whole provider how it reads the gaps; it does not go with --shard (run it once, unsharded)",
        );
      return {
        /** `--learn PATH`: where to write the learned profile (conformance.md §6), and as given. */
        ...(v.learn !== undefined
          ? { learn: { path: resolve(cwd, v.learn), given: v.learn } }
          : {}),
        reports: v.report ?? [],
        ...(v["replay-dir"] !== undefined ? { replayDir: resolve(cwd, v["replay-dir"]) } : {}),
        ...(v.har !== undefined ? { harPath: resolve(cwd, v.har) } : {}),
      };
    });

// --- the whole configuration ---------------------------------------------------------------------

/** Everything `verify` needs, parsed and validated once (conformance.md §5, §7). */
export type Config = {
  readonly provider: ProviderTarget;
  /** Check ids or prefixes from --checks; empty: every check the options allow. */
  readonly checks: readonly string[];
  readonly profile: ContractProfile;
  /** What --profile said (a built-in name or the path as given). */
  readonly profileArg: string;
  /** How the provider is reached: rate limit, extra headers, TLS, proxies (§7). */
  readonly transport: TransportSettings;
  /** Where relative paths start: the directory the user ran the command from. */
  readonly cwd: string;
} & PactsPart &
  z.output<typeof runSchema> &
  z.output<ReturnType<typeof outputSchema>>;

export type ParseResult =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "run"; readonly config: Config };

function loadProfileOrExit(profileArg: string, cwd: string): ContractProfile {
  try {
    return loadProfile(profileArg, { cwd });
  } catch (e) {
    if (e instanceof ProfileError) throw new VerifyError("E_PROFILE", e.message, { cause: e });
    throw e;
  }
}

/**
 * Parses argv (without node and script) and env into a validated {@link Config}.
 * @throws VerifyError E_CONFIG or E_PROFILE with a one-line message naming the option or file.
 */
export function parseConfig(
  argv: readonly string[],
  env: Env,
  cwd: string = env.INIT_CWD ?? process.cwd(),
): ParseResult {
  try {
    const { values, from } = readFlags(FLAGS, argv, env, {
      positionalHint: "every value belongs to an option, e.g. --pacts PATH",
    });
    if (values.help) return { kind: "help" };
    if (values.version) return { kind: "version" };
    const profileArg = values.profile ?? "default";
    const config: Config = {
      provider: parseFlagValues(providerSchema, values),
      checks: parseFlagValues(checksSchema, values.checks),
      ...pactsPart(values, from, cwd),
      ...parseFlagValues(runSchema, values),
      ...parseFlagValues(outputSchema(cwd), values),
      transport: transportSettings(values, env, cwd),
      profile: loadProfileOrExit(profileArg, cwd),
      profileArg,
      cwd,
    };
    if (config.publish && config.provider.kind === "embedded")
      throw new CliError(
        "--publish-verification-results needs --provider-url: without it the embedded reference provider is verified, not your provider, so nothing of yours would be verified while the broker recorded a result under --provider-version",
      );
    return { kind: "run", config };
  } catch (e) {
    if (e instanceof CliError) throw new VerifyError("E_CONFIG", e.message, { cause: e });
    throw e;
  }
}

/** `Basic base64(user:password)` or `Bearer token`: the broker's login as a header value. */
export const authorizationOf = (auth: BrokerAuth): string => brokerAuthorization(auth);
