import type { Integration, MatrixRow } from "./broker-api.ts";

// Why a version may or may not go to an environment, per integration, from what the broker holds
// (conformance.md §5): one of five reasons for a "no", each with what to do. Pure: the facts are
// gathered from the broker's API elsewhere (deploy-check.ts), so each reason's rule reads here.

/** Why an integration stops a deployment (conformance.md §5). */
export type DeployReason =
  | "pending-verification"
  | "never-verified"
  | "no-pacts"
  | "verification-failed"
  | "not-deployed";

/** Every reason, in the order conformance.md §5 lists them. */
export const DEPLOY_REASONS: readonly DeployReason[] = [
  "pending-verification",
  "never-verified",
  "no-pacts",
  "verification-failed",
  "not-deployed",
];

/** The version asked about. */
export interface Subject {
  readonly pacticipant: string;
  readonly version: string;
}

/** What the broker holds about one integration of the subject, for one environment. */
export interface IntegrationFacts {
  readonly integration: Integration;
  /** The environment's name. */
  readonly environment: string;
  /** The versions of the other side recorded in the environment (deployed or released). */
  readonly otherInEnvironment: readonly string[];
  /** Has the provider ever published a verification result for this consumer's pacts? */
  readonly everVerified: boolean;
  /** The matrix rows of the subject with the other side's versions in the environment. */
  readonly environmentRows: readonly MatrixRow[];
  /** Every matrix row of the subject's version with the other side (any of its versions). */
  readonly subjectRows: readonly MatrixRow[];
  /** Does the subject's version have any pact or verification at all (with anyone)? */
  readonly subjectHasAny: boolean;
}

/** The answer for one integration: deployable, or the reason it is not and what to do. */
export interface IntegrationAnswer {
  readonly integration: Integration;
  readonly environment: string;
  /** The subject's side of the integration. */
  readonly role: "consumer" | "provider";
  /** The other pacticipant. */
  readonly other: string;
  /** Undefined when this integration allows the deployment. */
  readonly reason?: DeployReason;
  /** One line: what the broker holds (for a yes, why it is a yes). */
  readonly why: string;
  /** For a "no": what to do. */
  readonly todo?: string;
}

const list = (items: readonly string[]) =>
  items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** One integration's answer for the subject going to the environment. */
export function answerFor(subject: Subject, facts: IntegrationFacts): IntegrationAnswer {
  const { integration, environment } = facts;
  const role = integration.consumer === subject.pacticipant ? "consumer" : "provider";
  const other = role === "consumer" ? integration.provider : integration.consumer;
  const me = `${subject.pacticipant} version ${subject.version}`;
  const base = { integration, environment, role, other } as const;
  const rows = facts.environmentRows.filter((r) => !r.ignored);
  const failed = rows.filter((r) => r.verificationResult?.success === false);
  const passed = rows.filter((r) => r.verificationResult?.success === true);
  const unverified = rows.filter((r) => r.verificationResult === null);
  const deployedText = `${other} ${plural(facts.otherInEnvironment.length, "version", "versions")} ${list(facts.otherInEnvironment)}`;
  // Provider versions that verified the consumer's pact successfully (any of them, deployed or not).
  const passedBy = [
    ...new Set(
      facts.subjectRows
        .filter((r) => r.verificationResult?.success === true)
        .map((r) => r.provider.version?.number ?? ""),
    ),
  ].filter((v) => v !== "" && !facts.otherInEnvironment.includes(v));
  const deployHint =
    role === "consumer" && passedBy.length > 0
      ? ` ${other} ${plural(passedBy.length, "version", "versions")} ${list(passedBy)} verified this pact successfully: deploying ${passedBy.length === 1 ? "it" : "one of them"} to ${environment} and recording that (idp-pacts record-deployment --pacticipant ${other} --version ${passedBy.length === 1 ? passedBy[0] : "V"} --environment ${environment}) clears this.`
      : "";
  const verifyHow = `idp-verify --broker-url ... --publish-verification-results --provider-version <sha> --provider-branch <branch>`;

  if (role === "consumer") {
    if (facts.subjectRows.length === 0)
      return {
        ...base,
        reason: "no-pacts",
        why: `${me} has no pact with ${other} on the broker`,
        todo: `publish this version's pacts before deploying it (idp-pacts publish from a checkout of that commit, or with PACT_CONSUMER_VERSION=${subject.version}); a version deployed without its pacts was never checked against ${other}.`,
      };
    if (failed.length > 0)
      return {
        ...base,
        reason: "verification-failed",
        why: `${other} ${plural(failed.length, "version", "versions")} ${list(failed.map((r) => r.provider.version?.number ?? "?"))} (in ${environment}) failed the pact of ${me}${verifiedAt(failed[0])}`,
        todo: `a real incompatibility: read the verification result${resultLink(failed[0])}, then fix ${subject.pacticipant} or ${other}, publish, and verify again.${deployHint}`,
      };
    if (facts.otherInEnvironment.length > 0 && unverified.length === 0 && passed.length > 0)
      return {
        ...base,
        why: `${deployedText} (in ${environment}) verified the pact of ${me} successfully`,
      };
    if (!facts.everVerified)
      return {
        ...base,
        reason: "never-verified",
        why: `${other} has never published a verification result for ${subject.pacticipant}'s pacts`,
        todo: `${other}'s pipeline does not verify ${subject.pacticipant}'s pacts, or verifies them without publishing the results: ask ${other}'s team to verify from the broker with ${verifyHow} (docs/verify-in-ci.md); a pact published minutes ago may still be in its first verification.`,
      };
    if (facts.otherInEnvironment.length === 0)
      return {
        ...base,
        reason: "not-deployed",
        why: `no version of ${other} is recorded as deployed or released in ${environment}`,
        todo: `deploy ${other} to ${environment} and record it (idp-pacts record-deployment --pacticipant ${other} --version V --environment ${environment}); ${passedBy.length > 0 ? `${other} ${plural(passedBy.length, "version", "versions")} ${list(passedBy)} verified this pact successfully` : `no version of ${other} has verified this pact content yet`}.`,
      };
    return {
      ...base,
      reason: "pending-verification",
      why: `${deployedText} (in ${environment}) ${plural(facts.otherInEnvironment.length, "has", "have")} not verified this pact content of ${me} yet`,
      todo: `a build of ${other} that verifies this pact (its webhook on contract_requiring_verification_published, or a main-branch build with the deployedOrReleased selector) publishes a result; wait for it (idp-pacts can-i-deploy --retry-while-unknown 6 --retry-interval 10).${deployHint}`,
    };
  }

  // The subject is the provider: the consumer's versions in the environment hold pacts to honour.
  if (facts.otherInEnvironment.length === 0)
    return {
      ...base,
      why: `no version of ${other} is in ${environment}: no pact of it to honour there`,
    };
  if (rows.length === 0)
    return {
      ...base,
      why: `${deployedText} (in ${environment}) ${plural(facts.otherInEnvironment.length, "has", "have")} no pact with ${subject.pacticipant}`,
    };
  const consumers = (rs: readonly MatrixRow[]) =>
    `${other} ${plural(rs.length, "version", "versions")} ${list(rs.map((r) => r.consumer.version.number))}`;
  if (failed.length > 0)
    return {
      ...base,
      reason: "verification-failed",
      why: `${me} failed the pact of ${consumers(failed)} (in ${environment})${verifiedAt(failed[0])}`,
      todo: `a real incompatibility: read the verification result${resultLink(failed[0])}; fix ${subject.pacticipant} (or ${other}, then deploy ${other} first), and verify again.`,
    };
  if (unverified.length === 0)
    return {
      ...base,
      why: `${me} verified the pact of ${consumers(passed)} (in ${environment}) successfully`,
    };
  if (!facts.everVerified)
    return {
      ...base,
      reason: "never-verified",
      why: `${subject.pacticipant} has never published a verification result for ${other}'s pacts`,
      todo: `this pipeline does not verify ${other}'s pacts, or does not publish the results: verify from the broker with ${verifyHow} and the selectors [{"mainBranch":true},{"deployedOrReleased":true}] (docs/verify-in-ci.md).`,
    };
  if (!facts.subjectHasAny)
    return {
      ...base,
      reason: "no-pacts",
      why: `${me} has no pacts or verification results on the broker`,
      todo: `verify this version before deploying it (${verifyHow.replace("<sha>", subject.version)}); a deployment recorded for a version that was never verified is unverified.`,
    };
  return {
    ...base,
    reason: "pending-verification",
    why: `${me} has not verified the pact of ${consumers(unverified)} (in ${environment}) yet`,
    todo: `verify this version with the deployedOrReleased selector (${verifyHow.replace("<sha>", subject.version)}); a build of it publishes the result.`,
  };
}

const verifiedAt = (row: MatrixRow | undefined) =>
  row?.verificationResult?.verifiedAt ? ` (verified ${row.verificationResult.verifiedAt})` : "";
const resultLink = (row: MatrixRow | undefined) => {
  const href = row?.verificationResult?._links?.self.href;
  return href ? ` at ${href}` : "";
};
