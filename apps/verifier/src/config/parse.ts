import { loadProfile, ProfileError } from "@idp/contracts";
import { brokerAuthorization, CliError, parseFlagValues, readFlags } from "@idp/contracts/cli";
import { z } from "zod";
import { VerifyError } from "../errors.ts";
import { FLAGS } from "./flags.ts";
import { outputSchema } from "./output.ts";
import { pactsSchema } from "./pacts.ts";
import { providerSchema } from "./provider.ts";
import { type ConfigInput, type From, rule } from "./rule.ts";
import { checksSchema, runSchema } from "./run.ts";
import { deploymentSchema } from "./transport.ts";

// idp-verify's options and environment (conformance.md §5, §7) through the toolkit's shared parser
// (@idp/contracts/cli): the flag table in flags.ts, read with the environment, then parsed by one
// zod schema, a part per concern, in this order: the provider (provider.ts), the checks and how
// they run (run.ts), the pacts (pacts.ts), what is written (output.ts), the way to the provider
// (transport.ts); the first problem found is the one line printed. Every check is a zod check whose message names the flag, what was given and what was expected;
// `Config` is the schema's output, so what the parts prove (a provider URL always has credentials,
// a publication always has a version) is in its type.

type Env = Readonly<Record<string, string | undefined>>;

/** The whole configuration, for flags read in `cwd` (`from`: where each value came from). */
const configSchema = (context: {
  readonly cwd: string;
  readonly from: From;
  readonly now: number;
}) =>
  providerSchema(context.from)
    .and(checksSchema)
    .and(pactsSchema(context))
    .and(runSchema)
    .and(outputSchema(context.cwd))
    .and(deploymentSchema(context.cwd))
    .and(z.object({ profile: z.string().default("default") }))
    .check(
      rule(
        (c) => !(c.publish && c.provider.kind === "embedded"),
        "--publish-verification-results needs --provider-url: without it the embedded reference provider is verified, not your provider, so nothing of yours would be verified while the broker recorded a result under --provider-version",
      ),
    )
    .transform(({ profile, ...config }) => ({
      ...config,
      /** What --profile said (a built-in name or the path as given). */
      profileArg: profile,
      /** How payloads and statuses are read (conformance.md §6). @throws ProfileError */
      profile: loadProfile(profile, { cwd: context.cwd }),
      /** Where relative paths start: the directory the user ran the command from. */
      cwd: context.cwd,
    }));

/** Everything `verify` needs, parsed and validated once (conformance.md §5, §7). */
export type Config = z.output<ReturnType<typeof configSchema>>;

/** A pact to verify: a file or folder, or a URL (with the Authorization it needs, never printed). */
export type PactSource = Config["pacts"][number];
/** Pacts chosen on a broker by selectors (only without --pacts). */
export type BrokerSource = NonNullable<Config["broker"]>;
/** A broker's login (the same reading as idp-pacts': `brokerTarget` of @idp/contracts/cli). */
export type BrokerAuth = NonNullable<BrokerSource["auth"]>;
/** Where verification results are published, and as which provider version. */
export type PublishOptions = NonNullable<Config["publish"]>;

export type ParseResult =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "run"; readonly config: Config };

/**
 * Parses argv (without node and script) and env into a validated {@link Config}.
 * @throws VerifyError E_CONFIG or E_PROFILE with a one-line message naming the option or file.
 */
export function parseConfig(
  argv: readonly string[],
  env: Env,
  cwd: string = process.cwd(),
): ParseResult {
  try {
    const { values, from } = readFlags(FLAGS, argv, env, {
      positionalHint: "every value belongs to an option, e.g. --pacts PATH",
    });
    if (values.help) return { kind: "help" };
    if (values.version) return { kind: "version" };
    // A copy: process.env is no plain object (its prototype is not Object.prototype), and zod's
    // records take only plain ones.
    const input: ConfigInput = { ...values, environment: { ...env } };
    const config = parseFlagValues(configSchema({ cwd, from, now: Date.now() }), input);
    return { kind: "run", config };
  } catch (e) {
    if (e instanceof CliError) throw new VerifyError("E_CONFIG", e.message, { cause: e });
    if (e instanceof ProfileError) throw new VerifyError("E_PROFILE", e.message, { cause: e });
    throw e;
  }
}

/** `Basic base64(user:password)` or `Bearer token`: the broker's login as a header value. */
export const authorizationOf = (auth: BrokerAuth): string => brokerAuthorization(auth);
