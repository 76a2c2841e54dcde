import { didYouMean } from "@idp/contracts";
import type { BrokerApi, BrokerEnvironment } from "./broker-api.ts";
import { readConsumerVersionNumber } from "./consumer-version.ts";
import { PactsCliError } from "./errors.ts";
import { PACTS_DIR } from "./pact-names.ts";
import { consumerOfPacts } from "./pacts-consumer.ts";

// Who and what can-i-deploy, doctor and record-* ask about, checked against the broker before they
// ask: a pacticipant, version or environment the broker does not know is a setup problem (exit 2,
// saying what to do), never the exit 1 of a real "no" (conformance.md §5).

type Env = Readonly<Record<string, string | undefined>>;

const nonEmpty = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== "";

/** Whom a command asks about, as given on the command line. */
export interface SubjectOptions {
  readonly env: Env;
  /** @defaultValue the consumer the pact files of `pactsDir` name */
  readonly pacticipant?: string | undefined;
  /** @defaultValue PACT_CONSUMER_VERSION, else the git commit (only for the pacts' consumer) */
  readonly version?: string | undefined;
  /** Where the pact files are. @defaultValue pacts/ */
  readonly pactsDir?: string | undefined;
}

/** The pacticipant and version a command asks about (not yet checked against the broker). */
export function subjectOf(options: SubjectOptions): { pacticipant: string; version: string } {
  const pactsDir = options.pactsDir ?? PACTS_DIR;
  const version = nonEmpty(options.version) ? options.version.trim() : undefined;
  const given = nonEmpty(options.pacticipant) ? options.pacticipant.trim() : undefined;
  if (given === undefined) {
    const pacticipant = consumerOfPacts(pactsDir);
    return { pacticipant, version: version ?? readConsumerVersionNumber(options.env) };
  }
  if (version !== undefined) return { pacticipant: given, version };
  // The default version (the git commit) is the pacts' consumer's; anyone else's must be given.
  let ours: string | undefined;
  try {
    ours = consumerOfPacts(pactsDir);
  } catch {
    ours = undefined;
  }
  if (ours !== given)
    throw new PactsCliError(
      "E_CONFIG",
      `--pacticipant ${given} needs --version V (the default version, the git commit, is that of the consumer the pacts name${ours ? `: ${ours}` : ""})`,
    );
  return { pacticipant: given, version: readConsumerVersionNumber(options.env) };
}

/** @throws PactsCliError E_UNKNOWN_PACTICIPANT when the broker knows the pacticipant or version not. */
export async function requireSubject(
  api: BrokerApi,
  subject: { readonly pacticipant: string; readonly version: string },
): Promise<void> {
  const where = `the Pact Broker at ${api.settings.baseUrl}`;
  if (!(await api.hasPacticipant(subject.pacticipant))) {
    const known = await api.pacticipants();
    const close = didYouMean(subject.pacticipant, known);
    throw new PactsCliError(
      "E_UNKNOWN_PACTICIPANT",
      `${where} does not know pacticipant "${subject.pacticipant}"${close ? ` (did you mean ${close}?)` : ""}; it knows ${known.length > 0 ? known.join(", ") : "none"}: check --pacticipant, or publish its pacts first (idp-pacts publish)`,
    );
  }
  if (!(await api.hasVersion(subject.pacticipant, subject.version)))
    throw new PactsCliError(
      "E_UNKNOWN_PACTICIPANT",
      `${where} does not know version ${subject.version} of ${subject.pacticipant}: publish that version's pacts (or, a provider, its verification results) first, or check --version (default: PACT_CONSUMER_VERSION, else the git commit)`,
    );
}

/** How to create an environment, as the hint of a missing one. */
const createHint = (name: string) =>
  `pact-broker create-environment --name ${name}${/^prod/i.test(name) ? " --production" : ""}`;

/**
 * The environment of that name.
 * @throws PactsCliError E_ENVIRONMENT when the broker has none of that name, saying how to create it.
 */
export async function requireEnvironment(api: BrokerApi, name: string): Promise<BrokerEnvironment> {
  const environments = await api.environments();
  const found = environments.find((e) => e.name === name);
  if (found) return found;
  const names = environments.map((e) => e.name);
  throw new PactsCliError(
    "E_ENVIRONMENT",
    `environment "${name}" does not exist on the Pact Broker at ${api.settings.baseUrl} (${names.length > 0 ? `it has: ${names.join(", ")}` : "it has none"}); create it once with: ${createHint(name)}`,
  );
}

/**
 * Every environment the broker knows.
 * @throws PactsCliError E_ENVIRONMENT when it knows none.
 */
export async function allEnvironments(api: BrokerApi): Promise<BrokerEnvironment[]> {
  const environments = await api.environments();
  if (environments.length === 0)
    throw new PactsCliError(
      "E_ENVIRONMENT",
      `the Pact Broker at ${api.settings.baseUrl} has no environments, so no deployment can be judged; create one once with: ${createHint("production")}`,
    );
  return environments;
}
