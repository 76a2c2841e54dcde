import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brokerAuthorization, brokerTarget, httpUrl, nonEmpty } from "@idp/contracts/cli";
import { z } from "zod";
import { splitUserInfo } from "../secrets.ts";
import { byFlag, type From, rule, shared } from "./rule.ts";

// Which pacts a run verifies (conformance.md §5): files and folders, pact URLs (a webhook's), or
// the pacts a Pact Broker selects; and whether the results are published to the broker.

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

/** The furthest back `--include-wip-pacts-since` may reach (conformance.md §5). */
export const WIP_MAX_DAYS = 90;

const DAY_MS = 86_400_000;
const NEEDS_BROKER = "needs --broker-url (or PACT_BROKER_BASE_URL)";
const LOGIN_FLAGS = ["broker-token", "broker-username", "broker-password"] as const;
/** The flags that choose pacts on a broker: meaningless with --pacts, or without a broker. */
const CHOOSING_FLAGS = [
  "consumer-version-selectors",
  "enable-pending",
  "include-wip-pacts-since",
] as const;

/** A `--pacts` value: a path from the user's directory, or an http(s) URL without user-info. */
const pactSource = (cwd: string) =>
  z
    .string()
    .transform((p) =>
      /^https?:\/\//i.test(p)
        ? { kind: "url" as const, url: p }
        : { kind: "path" as const, path: resolve(cwd, p) },
    )
    .pipe(
      z.discriminatedUnion("kind", [
        z.object({
          kind: z.literal("url"),
          url: httpUrl("--pacts").refine(
            (url) => !URL.canParse(url) || !splitUserInfo(url).credentials,
            {
              error:
                "--pacts: a pact URL must not carry credentials (user-info); give the broker's with --broker-username/--broker-password or PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD",
            },
          ),
        }),
        z.object({ kind: z.literal("path"), path: z.string() }),
      ]),
    );

const SELECTORS_EXAMPLE = `'[{"mainBranch":true}]'`;

/** `--consumer-version-selectors`: a JSON object, or an array of objects. */
const selectorsSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      const parsed: unknown = JSON.parse(text);
      return parsed;
    } catch {
      ctx.addIssue({
        code: "custom",
        message: `--consumer-version-selectors must be JSON, e.g. ${SELECTORS_EXAMPLE} (received ${JSON.stringify(text)}, which does not parse)`,
      });
      return z.NEVER;
    }
  })
  .pipe(
    z.union(
      [
        z.record(z.string(), z.unknown()).transform((s) => [s]),
        z.array(z.record(z.string(), z.unknown())),
      ],
      {
        error: (issue) =>
          `--consumer-version-selectors must be a JSON object or array of objects, e.g. ${SELECTORS_EXAMPLE} (received ${JSON.stringify(issue.input)})`,
      },
    ),
  );

/** `--include-wip-pacts-since`: a date, at most WIP_MAX_DAYS back from `now` (older branches are not in progress). */
const wipSinceSchema = (now: number) => {
  const example = new Date(now - 30 * DAY_MS).toISOString().slice(0, 10);
  const daysBack = (since: string) => Math.floor((now - Date.parse(since)) / DAY_MS);
  return z.string().check(
    z.refine((since) => !Number.isNaN(Date.parse(since)), {
      error: (issue) =>
        `--include-wip-pacts-since must be a date, e.g. ${example} (received ${JSON.stringify(issue.input)})`,
      abort: true,
    }),
    z.refine((since) => daysBack(since) <= WIP_MAX_DAYS, {
      error: (issue) =>
        `--include-wip-pacts-since ${String(issue.input)} is ${daysBack(String(issue.input))} days back; expected a date at most ${WIP_MAX_DAYS} days back, e.g. ${example} (every consumer branch since then would be verified as work in progress)`,
    }),
  );
};

const flags = (cwd: string, now: number) =>
  z.object({
    pacts: z.array(pactSource(cwd)).optional(),
    "broker-url": z.string().optional(),
    "broker-token": z.string().optional(),
    "broker-username": z.string().optional(),
    "broker-password": z.string().optional(),
    "consumer-version-selectors": selectorsSchema.optional(),
    "enable-pending": z.boolean().optional(),
    "include-wip-pacts-since": wipSinceSchema(now).optional(),
    "publish-verification-results": z.boolean().optional(),
    "provider-version": z.string().optional(),
    "provider-branch": nonEmpty("--provider-branch").optional(),
  });
type PactFlags = z.output<ReturnType<typeof flags>>;

/**
 * The broker's address and login (read as idp-pacts reads them): the login flags if any is given
 * on the command line, else PACT_BROKER_*.
 */
function brokerOf(v: PactFlags, from: From) {
  const loginByFlag = LOGIN_FLAGS.some((f) => byFlag(from, f));
  const pick = (f: (typeof LOGIN_FLAGS)[number]) =>
    byFlag(from, f) === loginByFlag ? v[f] : undefined;
  return brokerTarget({
    url: v["broker-url"],
    token: pick("broker-token"),
    username: pick("broker-username"),
    password: pick("broker-password"),
    names: {
      url: from["broker-url"] ?? "--broker-url",
      ...(loginByFlag
        ? { token: "--broker-token", username: "--broker-username", password: "--broker-password" }
        : {
            token: "PACT_BROKER_TOKEN",
            username: "PACT_BROKER_USERNAME",
            password: "PACT_BROKER_PASSWORD",
          }),
    },
  });
}

type Read = PactFlags & { readonly target: ReturnType<typeof brokerOf> };

/** The pact URLs given, and which of them are on the broker (fetched with its login). */
const urlsOf = (v: Read) => (v.pacts ?? []).flatMap((p) => (p.kind === "url" ? [p.url] : []));
const onBroker = (v: Read, url: string) =>
  v.target !== undefined && `${url}/`.startsWith(`${v.target.url}/`);
/** The broker's login goes with the pact URLs on it (Pact sends one login to every URL). */
const lendsLogin = (v: Read) =>
  v.target?.login !== undefined && urlsOf(v).some((u) => onBroker(v, u));
/** Choosing pacts on the broker (its selectors, pending and WIP): a broker, and no --pacts. */
const choosesOnBroker = (v: Read) => v.target !== undefined && (v.pacts ?? []).length === 0;
/** Pacts that come from the broker: chosen there, or given by their URLs on it. */
const fromBroker = (v: Read) => {
  const urls = urlsOf(v);
  const allUrls = urls.length === (v.pacts ?? []).length;
  return (
    choosesOnBroker(v) ||
    (urls.length > 0 && ((allUrls && lendsLogin(v)) || urls.every((u) => onBroker(v, u))))
  );
};
const pending = (v: Read) =>
  v["enable-pending"] === true || v["include-wip-pacts-since"] !== undefined;

/** The pacts to verify, and where the results go: `{ pacts, defaultPacts, broker?, ... }`. */
export const pactsSchema = (context: {
  readonly cwd: string;
  readonly from: From;
  readonly now: number;
}) => {
  const { cwd, from } = context;
  return flags(cwd, context.now)
    .transform((v, ctx): Read => ({ ...v, target: shared(ctx, () => brokerOf(v, from)) }))
    .check(
      ...LOGIN_FLAGS.map((f) =>
        rule<Read>((v) => v.target !== undefined || !byFlag(from, f), `--${f} ${NEEDS_BROKER}`),
      ),
      rule<Read>(
        (v) => !lendsLogin(v) || urlsOf(v).every((u) => onBroker(v, u)),
        (v) =>
          `--pacts mixes URLs on the broker (fetched with its login) and URLs elsewhere: verify them in separate runs (on the broker: ${urlsOf(v).find((u) => onBroker(v, u))}; elsewhere: ${urlsOf(v).find((u) => !onBroker(v, u))})`,
      ),
      ...CHOOSING_FLAGS.flatMap((f) => [
        rule<Read>(
          (v) => v[f] === undefined || (v.pacts ?? []).length === 0,
          `--${f} chooses pacts on the broker; it does not go with --pacts`,
        ),
        rule<Read>((v) => v[f] === undefined || v.target !== undefined, `--${f} ${NEEDS_BROKER}`),
      ]),
      // Pact sends providerVersionBranch "" without a branch, which a broker refuses with pending/WIP.
      rule<Read>(
        (v) => !pending(v) || v["provider-branch"] !== undefined,
        (v) =>
          `${v["enable-pending"] ? "--enable-pending" : "--include-wip-pacts-since (WIP pacts are pending)"} needs --provider-branch (the broker works out pending and WIP pacts per provider branch)`,
      ),
      // The broker matches a consumer branch to the provider's: without one, it selects nothing.
      rule<Read>(
        (v) =>
          v["provider-branch"] !== undefined ||
          !v["consumer-version-selectors"]?.some((s) => s.matchingBranch === true),
        '--consumer-version-selectors: {"matchingBranch": true} needs --provider-branch (the broker selects the consumer branch named like the provider\'s branch)',
      ),
      rule<Read>(
        (v) => !v["publish-verification-results"] || Boolean(v["provider-version"]),
        "--publish-verification-results needs --provider-version",
      ),
      rule<Read>(
        (v) => !v["publish-verification-results"] || fromBroker(v),
        "--publish-verification-results needs pacts from a broker (--broker-url or PACT_BROKER_BASE_URL, or --pacts with the broker's pact URLs): results go to a broker",
      ),
      rule<Read>(
        (v) => v["provider-version"] === undefined || v["publish-verification-results"] === true,
        "--provider-version goes with --publish-verification-results",
      ),
    )
    .transform((v) => {
      const login = v.target?.login;
      const lend = login && lendsLogin(v) ? login : undefined;
      const given = (v.pacts ?? []).map((p) =>
        p.kind === "path"
          ? p
          : {
              ...p,
              ...(lend && onBroker(v, p.url) ? { authorization: brokerAuthorization(lend) } : {}),
            },
      );
      const branch = v["provider-branch"];
      const broker =
        v.target && choosesOnBroker(v)
          ? {
              url: v.target.url,
              ...(login ? { auth: login } : {}),
              consumerVersionSelectors: v["consumer-version-selectors"] ?? [
                { mainBranch: true },
                { deployedOrReleased: true },
              ],
              // WIP pacts are pending by definition: a consumer's work in progress never fails the build.
              enablePending: pending(v),
              ...(v["include-wip-pacts-since"] !== undefined
                ? { includeWipPactsSince: v["include-wip-pacts-since"] }
                : {}),
              ...(branch ? { providerBranch: branch } : {}),
            }
          : undefined;
      const version = v["provider-version"];
      const defaultPacts = given.length === 0 && !broker;
      return {
        pacts: defaultPacts ? [{ kind: "path" as const, path: defaultPactsDir(cwd) }] : given,
        /** The pacts are the repo's pacts/ (nobody asked for them by name). */
        defaultPacts,
        ...(broker ? { broker } : {}),
        /** The broker's login, for pact URLs on the broker (fetched, and their results published). */
        ...(lend ? { pactUrlAuth: lend } : {}),
        ...(v["publish-verification-results"] && version
          ? { publish: { providerVersion: version, ...(branch ? { providerBranch: branch } : {}) } }
          : {}),
      };
    });
};
