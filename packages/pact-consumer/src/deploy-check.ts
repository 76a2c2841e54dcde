import {
  BrokerApi,
  type BrokerApiOptions,
  type BrokerEnvironment,
  type Integration,
  type MatrixAnswer,
  type MatrixRow,
} from "./broker-api.ts";
import { type BrokerSettings, readBrokerSettings } from "./broker-settings.ts";
import {
  answerFor,
  type DeployReason,
  type IntegrationAnswer,
  type Subject,
} from "./deploy-reasons.ts";
import {
  allEnvironments,
  requireEnvironment,
  requireSubject,
  type SubjectOptions,
  subjectOf,
} from "./deploy-subject.ts";
import { PactsCliError } from "./errors.ts";

// `idp-pacts can-i-deploy` and `idp-pacts doctor` (conformance.md §5): the broker's matrix and index
// resources, read through its API, explained per integration with one of five reasons and what to
// do. The broker's own verdict is read too: a "yes" needs both the broker's and every integration's.

/** Options of `canIDeploy`. */
export interface CanIDeployOptions extends SubjectOptions, BrokerApiOptions {
  readonly environment: string | undefined;
  /** Ask again this many times while the only reasons are verifications still to come. @defaultValue 0 */
  readonly retryWhileUnknown?: number;
  /** Seconds between those asks. @defaultValue 10 */
  readonly retryIntervalSeconds?: number;
  /** Progress lines (never credentials). @defaultValue stderr */
  readonly log?: (line: string) => void;
  /** The report. @defaultValue stdout */
  readonly out?: (text: string) => void;
  /** @defaultValue setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The answer for one environment: every integration's, and the broker's own. */
export interface EnvironmentAnswer {
  readonly environment: string;
  readonly answers: readonly IntegrationAnswer[];
  /** The broker's verdict for the same question (its matrix summary). */
  readonly broker: { readonly deployable: boolean | null; readonly reason: string };
  /** Every integration and the broker say yes. */
  readonly deployable: boolean;
}

/** What can-i-deploy found, with the exit code it maps to (0 yes, 1 no). */
export interface CanIDeployResult extends EnvironmentAnswer {
  readonly subject: Subject;
  readonly exitCode: 0 | 1;
}

/** A finding of doctor about the broker's bookkeeping, beyond one deployment's answer. */
export interface BookkeepingFinding {
  readonly kind: "deployed-without-pacts" | "provider-never-publishes";
  readonly message: string;
}

/** What doctor found, with the exit code it maps to (0 deployable everywhere asked, 1 a "no"). */
export interface DoctorResult {
  readonly subject: Subject;
  readonly environments: readonly EnvironmentAnswer[];
  readonly findings: readonly BookkeepingFinding[];
  readonly exitCode: 0 | 1;
}

/** Options of `doctor`. */
export interface DoctorOptions extends SubjectOptions, BrokerApiOptions {
  /** @defaultValue every environment the broker knows */
  readonly environment?: string | undefined;
  readonly log?: (line: string) => void;
  readonly out?: (text: string) => void;
}

const stderrLine = (line: string) => {
  process.stderr.write(`${line}\n`);
};
const stdoutText = (text: string) => {
  process.stdout.write(text);
};

/** What is asked once per subject, whatever the environment. */
interface SubjectFacts {
  readonly integrations: readonly Integration[];
  /** Every matrix row of the subject's version. */
  readonly rows: readonly MatrixRow[];
  /** Per integration (`consumer\u0000provider`): has the provider ever published a result for it? */
  readonly everVerified: ReadonlyMap<string, boolean>;
}

const keyOf = (i: Integration) => `${i.consumer}\u0000${i.provider}`;

async function subjectFacts(api: BrokerApi, subject: Subject): Promise<SubjectFacts> {
  const [all, matrix] = await Promise.all([
    api.integrations(),
    api.matrix([{ pacticipant: subject.pacticipant, version: subject.version }]),
  ]);
  const integrations = all.filter(
    (i) => i.consumer === subject.pacticipant || i.provider === subject.pacticipant,
  );
  const verified = await Promise.all(
    integrations.map(
      async (i) =>
        [
          keyOf(i),
          // The broker limits the rows before it filters them by success: filter here as well.
          (
            await api.matrix([{ pacticipant: i.consumer }, { pacticipant: i.provider }], {
              success: [true, false],
            })
          ).matrix.some((r) => r.verificationResult !== null),
        ] as const,
    ),
  );
  return { integrations, rows: matrix.matrix, everVerified: new Map(verified) };
}

/** Does this matrix row belong to the subject's side of the integration? */
function rowOf(
  row: MatrixRow,
  subject: Subject,
  integration: Integration,
  exactVersion: boolean,
): boolean {
  if (row.consumer.name !== integration.consumer || row.provider.name !== integration.provider)
    return false;
  if (integration.consumer === subject.pacticipant)
    return row.consumer.version.number === subject.version;
  // As the provider: in an environment's matrix an unverified row has no provider version.
  return exactVersion
    ? row.provider.version?.number === subject.version
    : row.provider.version === null || row.provider.version.number === subject.version;
}

async function answerIn(
  api: BrokerApi,
  subject: Subject,
  facts: SubjectFacts,
  environment: BrokerEnvironment,
): Promise<EnvironmentAnswer> {
  const [matrix, recorded] = await Promise.all([
    api.matrix([{ pacticipant: subject.pacticipant, version: subject.version }], {
      latestby: "cvp",
      environment: environment.name,
    }),
    api.versionsIn(environment),
  ]);
  const answers = facts.integrations.map((integration) => {
    const other =
      integration.consumer === subject.pacticipant ? integration.provider : integration.consumer;
    return answerFor(subject, {
      integration,
      environment: environment.name,
      otherInEnvironment: [
        ...new Set(recorded.filter((r) => r.pacticipant === other).map((r) => r.version)),
      ],
      everVerified: facts.everVerified.get(keyOf(integration)) ?? false,
      environmentRows: matrix.matrix.filter((r) => rowOf(r, subject, integration, false)),
      subjectRows: facts.rows.filter((r) => rowOf(r, subject, integration, true)),
      subjectHasAny: facts.rows.length > 0,
    });
  });
  return environmentAnswer(environment.name, answers, matrix);
}

function environmentAnswer(
  environment: string,
  answers: readonly IntegrationAnswer[],
  matrix: MatrixAnswer,
): EnvironmentAnswer {
  const broker = { deployable: matrix.summary.deployable, reason: matrix.summary.reason };
  return {
    environment,
    answers,
    broker,
    deployable: broker.deployable === true && answers.every((a) => a.reason === undefined),
  };
}

/** Reasons a build of the other side may still clear: worth asking again for. */
const WAITABLE: ReadonlySet<DeployReason> = new Set(["pending-verification", "never-verified"]);

/**
 * `idp-pacts can-i-deploy --to-environment ENV`: may this version of the pacticipant (default: the
 * consumer of the pact files, at the git commit) go to ENV? Prints each integration's answer (with a
 * "no", its reason and what to do) and a verdict line; resolves to the result and its exit code.
 * @throws PactsCliError (exit 2) for settings, a refused login, or a pacticipant, version or
 *   environment the broker does not know.
 */
export async function canIDeploy(options: CanIDeployOptions): Promise<CanIDeployResult> {
  if (options.environment === undefined || options.environment.trim() === "")
    throw new PactsCliError(
      "E_CONFIG",
      "--to-environment ENV is missing (e.g. --to-environment production)",
    );
  const name = options.environment.trim();
  const settings = readBrokerSettings(options.env);
  const subject = subjectOf(options);
  const api = new BrokerApi(settings, options);
  const log = options.log ?? stderrLine;
  const out = options.out ?? stdoutText;
  const environment = await requireEnvironment(api, name);
  await requireSubject(api, subject);
  log(
    `idp-pacts: can ${subject.pacticipant} version ${subject.version} be deployed to ${name}? asking ${settings.baseUrl}`,
  );
  const retries = options.retryWhileUnknown ?? 0;
  const intervalMs = (options.retryIntervalSeconds ?? 10) * 1000;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  for (let attempt = 0; ; attempt++) {
    const answer = await answerIn(api, subject, await subjectFacts(api, subject), environment);
    const reasons = answer.answers.flatMap((a) => (a.reason ? [a.reason] : []));
    const waitable =
      !answer.deployable && reasons.length > 0 && reasons.every((r) => WAITABLE.has(r));
    if (waitable && attempt < retries) {
      log(
        `idp-pacts: not yet (${[...new Set(reasons)].join(", ")}); asking again in ${intervalMs / 1000} s (${attempt + 1} of ${retries})`,
      );
      await sleep(intervalMs);
      continue;
    }
    out(renderEnvironment(answer, "", settings));
    out(`${verdictLine("can-i-deploy", subject, [answer])}\n`);
    return { ...answer, subject, exitCode: answer.deployable ? 0 : 1 };
  }
}

/**
 * `idp-pacts doctor [--to-environment ENV]`: the answers of can-i-deploy for every environment the
 * broker knows (or ENV), and what is wrong in the broker's bookkeeping: versions recorded in an
 * environment without pacts or verification results, and providers that never publish results.
 */
export async function doctor(options: DoctorOptions): Promise<DoctorResult> {
  const settings = readBrokerSettings(options.env);
  const subject = subjectOf(options);
  const api = new BrokerApi(settings, options);
  const log = options.log ?? stderrLine;
  const out = options.out ?? stdoutText;
  const environments =
    options.environment !== undefined && options.environment.trim() !== ""
      ? [await requireEnvironment(api, options.environment.trim())]
      : await allEnvironments(api);
  await requireSubject(api, subject);
  log(
    `idp-pacts doctor: ${subject.pacticipant} version ${subject.version} on ${settings.baseUrl}, ${environments.length === 1 ? `environment ${environments[0]?.name}` : `environments ${environments.map((e) => e.name).join(", ")}`}`,
  );
  const facts = await subjectFacts(api, subject);
  const answers: EnvironmentAnswer[] = [];
  for (const environment of environments)
    answers.push(await answerIn(api, subject, facts, environment));
  // The bookkeeping is the broker's, whatever environment was asked about.
  const findings = await bookkeeping(
    api,
    subject,
    facts,
    options.environment !== undefined && options.environment.trim() !== ""
      ? await api.environments()
      : environments,
  );
  for (const answer of answers) {
    out(`${answer.environment}:\n`);
    out(renderEnvironment(answer, "  ", settings));
  }
  if (findings.length > 0) {
    out("bookkeeping:\n");
    for (const f of findings) out(`  ! ${f.message}\n`);
  }
  const deployable = answers.every((a) => a.deployable);
  out(
    `${verdictLine("doctor", subject, answers)}${findings.length > 0 ? `; ${findings.length} bookkeeping ${findings.length === 1 ? "finding" : "findings"} (above)` : ""}\n`,
  );
  return { subject, environments: answers, findings, exitCode: deployable ? 0 : 1 };
}

async function bookkeeping(
  api: BrokerApi,
  subject: Subject,
  facts: SubjectFacts,
  environments: readonly BrokerEnvironment[],
): Promise<BookkeepingFinding[]> {
  const findings: BookkeepingFinding[] = [];
  // Who takes part in the subject's integrations: a version of one of them recorded in an
  // environment without any pact or verification is one can-i-deploy could not judge.
  const parties = new Set([
    subject.pacticipant,
    ...facts.integrations.flatMap((i) => [i.consumer, i.provider]),
  ]);
  const seen = new Map<string, boolean>();
  for (const environment of environments) {
    for (const r of await api.versionsIn(environment)) {
      if (!parties.has(r.pacticipant)) continue;
      const key = `${r.pacticipant}\u0000${r.version}`;
      let any = seen.get(key);
      if (any === undefined) {
        any =
          (await api.matrix([{ pacticipant: r.pacticipant, version: r.version }], { limit: 1 }))
            .matrix.length > 0;
        seen.set(key, any);
      }
      if (!any)
        findings.push({
          kind: "deployed-without-pacts",
          message: `${r.pacticipant} version ${r.version} is recorded as ${r.how} in ${environment.name} but has no pacts or verification results: it was ${r.how === "deployed" ? "deployed" : "released"} without being published, so no can-i-deploy judged it; publish the pacts (a provider: the verification results) of every version before recording its deployment`,
        });
    }
  }
  for (const i of facts.integrations)
    if (!facts.everVerified.get(keyOf(i)))
      findings.push({
        kind: "provider-never-publishes",
        message: `${i.provider} has never published a verification result for ${i.consumer}'s pacts: its pipeline does not verify them, or verifies without --publish-verification-results (a pact published minutes ago may still be in its first verification)`,
      });
  return findings;
}

function renderEnvironment(
  answer: EnvironmentAnswer,
  indent: string,
  settings: BrokerSettings,
): string {
  const lines: string[] = [];
  if (answer.answers.length === 0)
    lines.push(
      `${indent}✓ no integrations: nothing on the Pact Broker at ${settings.baseUrl} has a pact with this pacticipant`,
    );
  for (const a of answer.answers) {
    const arrow =
      a.role === "consumer"
        ? `${a.integration.consumer} → ${a.integration.provider}`
        : `${a.integration.provider} ← ${a.integration.consumer}`;
    lines.push(
      `${indent}${a.reason ? "✗" : "✓"} ${arrow} in ${a.environment}${a.reason ? `: ${a.reason}` : ""}`,
    );
    lines.push(`${indent}    ${a.why}`);
    if (a.todo) lines.push(`${indent}    what to do: ${a.todo}`);
  }
  const ours = answer.answers.every((a) => a.reason === undefined);
  if (ours && answer.broker.deployable !== true)
    lines.push(`${indent}✗ the broker says no: ${answer.broker.reason.split("\n").join("; ")}`);
  return `${lines.join("\n")}\n`;
}

function verdictLine(
  command: string,
  subject: Subject,
  answers: readonly EnvironmentAnswer[],
): string {
  const who = `${subject.pacticipant} version ${subject.version}`;
  const yes = answers.filter((a) => a.deployable).map((a) => a.environment);
  const no = answers.filter((a) => !a.deployable);
  const why = no.map((a) => {
    const reasons = [...new Set(a.answers.flatMap((x) => (x.reason ? [x.reason] : [])))];
    return `${reasons.length > 0 ? reasons.join(", ") : "the broker says no"}${answers.length > 1 ? ` in ${a.environment}` : ""}`;
  });
  if (no.length === 0) return `${command}: yes, ${who} may go to ${yes.join(", ")}`;
  const where =
    answers.length === 1 ? (no[0]?.environment ?? "") : no.map((a) => a.environment).join(", ");
  return `${command}: no, ${who} may not go to ${where} (${why.join("; ")})${yes.length > 0 ? `; it may go to ${yes.join(", ")}` : ""}`;
}
