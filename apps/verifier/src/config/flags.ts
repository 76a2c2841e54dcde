import type { FlagTable } from "@idp/contracts/cli";

/** The sections of `--help`, in order. */
export const GROUP_TITLES = {
  provider: "The provider",
  deployment: "A provider behind a gateway (conformance.md §7)",
  pacts: "Pacts",
  broker: "Pacts from a Pact Broker",
  checks: "What to check, and how",
  output: "Reports",
  general: "General",
} as const;

/** conformance.md §5, plus the extensions marked so in their descriptions. */
export const FLAGS = {
  "provider-url": {
    type: "string",
    value: "URL",
    group: "provider",
    defaultText: "the embedded reference provider (apps/provider, in memory)",
    description: "base address of the provider, ending in /v1",
  },
  username: {
    type: "string",
    value: "U",
    env: ["IDP_USERNAME"],
    group: "provider",
    description: "Basic username",
  },
  password: {
    type: "string",
    value: "P",
    env: ["IDP_PASSWORD"],
    group: "provider",
    description: "Basic password (prefer IDP_PASSWORD: shells and pnpm echo arguments)",
  },
  "provider-states-url": {
    type: "string",
    value: "URL",
    group: "provider",
    description:
      "Pact state-change URL (conformance.md §4); enables the login-user checks and the pact interactions with states",
  },
  "rate-limit": {
    type: "string",
    value: "N/s|N/m",
    group: "deployment",
    description:
      "at most N requests per second (or minute) to the provider, all parts together (checks, Pact's verifier, state calls)",
  },
  header: {
    type: "string",
    multiple: true,
    value: '"Name: value"',
    group: "deployment",
    description:
      "sent with every request to the provider and its state URL, Pact's included (a gateway's API key); the value is redacted like a credential, and replays read it from IDP_HEADER_<NAME>; repeat for several. Refused: the verifier's own headers and those that frame or route (Transfer-Encoding, TE, Trailer, Connection, Keep-Alive, Upgrade, Expect, Proxy-*)",
  },
  "ca-cert": {
    type: "string",
    value: "FILE",
    group: "deployment",
    description:
      "PEM certificate(s) of a private CA to trust besides the system's, for https:// provider, state, broker and pact URLs, Pact's own requests included (NODE_EXTRA_CA_CERTS is read too)",
  },
  "client-cert": {
    type: "string",
    value: "FILE",
    group: "deployment",
    description: "PEM client certificate for mutual TLS (with --client-key)",
  },
  "client-key": {
    type: "string",
    value: "FILE",
    group: "deployment",
    description: "PEM private key of --client-cert",
  },
  insecure: {
    type: "boolean",
    group: "deployment",
    description:
      "do not check TLS certificates (stated on the verdict line and in every report); refused with an https broker or pact URL that Pact's core fetches itself (it cannot skip the check: give the CA with --ca-cert)",
  },
  pacts: {
    type: "string",
    multiple: true,
    value: "PATH|URL",
    group: "pacts",
    defaultText: "the repo's pacts/ (without --broker-url)",
    description: "pact files, folders or http(s) URLs; repeat for several",
  },
  "broker-url": {
    type: "string",
    value: "URL",
    env: ["PACT_BROKER_BASE_URL"],
    group: "broker",
    description:
      "verify the pacts a Pact Broker selects for this provider (user-info in the URL is the basic-auth login)",
  },
  "broker-token": {
    type: "string",
    value: "T",
    env: ["PACT_BROKER_TOKEN"],
    group: "broker",
    description: "bearer token (PactFlow)",
  },
  "broker-username": {
    type: "string",
    value: "U",
    env: ["PACT_BROKER_USERNAME"],
    group: "broker",
    description: "basic-auth user (the open-source Pact Broker)",
  },
  "broker-password": {
    type: "string",
    value: "P",
    env: ["PACT_BROKER_PASSWORD"],
    group: "broker",
    description: "basic-auth password",
  },
  "consumer-version-selectors": {
    type: "string",
    value: "JSON",
    group: "broker",
    defaultText: '[{"mainBranch":true},{"deployedOrReleased":true}]',
    description: "which consumer versions' pacts to verify",
  },
  "enable-pending": {
    type: "boolean",
    group: "broker",
    description: "a pending pact's failure does not fail the run",
  },
  "include-wip-pacts-since": {
    type: "string",
    value: "DATE",
    group: "broker",
    description: "also verify work-in-progress pacts since DATE (implies --enable-pending)",
  },
  "publish-verification-results": {
    type: "boolean",
    group: "broker",
    description: "publish the results to the broker (needs --provider-version)",
  },
  "provider-version": {
    type: "string",
    value: "V",
    group: "broker",
    description: "the provider version the results are for",
  },
  "provider-branch": {
    type: "string",
    value: "B",
    group: "broker",
    description: "the provider's branch (pending and WIP pacts are worked out per branch)",
  },
  checks: {
    type: "string",
    value: "LIST",
    group: "checks",
    defaultText: "every check the given options allow",
    description:
      "comma list of check ids or prefixes (R1, R4.valid-accepted, pact); see the list below",
  },
  profile: {
    type: "string",
    value: "default|strict|PATH",
    group: "checks",
    defaultText: "default",
    description:
      "how payloads and statuses are read (conformance.md §6): a built-in or a profile file",
  },
  runs: {
    type: "string",
    value: "N",
    group: "checks",
    defaultText: "100",
    description: "property runs per conformance check",
  },
  seed: {
    type: "string",
    value: "S",
    group: "checks",
    defaultText: "random (printed)",
    description: "the seed to generate from; the same seed replays the same requests",
  },
  "timeout-ms": {
    type: "string",
    value: "MS",
    group: "checks",
    defaultText: "10000",
    description: "per request (connect, headers and body)",
  },
  "max-duration": {
    type: "string",
    value: "SECONDS",
    group: "checks",
    defaultText: "600",
    description:
      "time limit of the whole run; a check stopped by it is incomplete (exit 2) [extension]",
  },
  concurrency: {
    type: "string",
    value: "N",
    group: "checks",
    defaultText: "16",
    description:
      "requests in flight at once, shared by every check; lowered while the provider is throttled [extension]",
  },
  threads: {
    type: "string",
    value: "N",
    group: "checks",
    defaultText: "1 for the checks; 2 instances of Pact's verifier on 2+ cores",
    description:
      "worker threads for the conformance checks; also instances of Pact's verifier at once (20+ interactions each) [extension]",
  },
  shard: {
    type: "string",
    value: "i/n",
    group: "checks",
    description: "run only the i-th of n disjoint parts of the checks (CI matrices) [extension]",
  },
  "no-shrink": {
    type: "boolean",
    group: "checks",
    description:
      "cite each failing check's first failing case as found, unshrunk: the same verdict sooner, a larger counterexample (fast-check's endOnFailure) [extension]",
  },
  "require-cells": {
    type: "boolean",
    group: "checks",
    description:
      "fail (exit 1) when no request got some documented client-error status (400, 401, 403, 404, 422) of an operation; the failed check cells.required names them [extension]",
  },
  cleanup: {
    type: "boolean",
    group: "checks",
    description:
      "remove the schemas this run created, and only those (conformance.md §8); the clustering rules are put back either way",
  },
  learn: {
    type: "string",
    value: "PATH",
    group: "output",
    description:
      "after the checks, ask the provider how it reads the spec's gaps and write a profile file there that extends --profile and pins what it did consistently, each key with its evidence (conformance.md §6); the exit status stays the run's own",
  },
  report: {
    type: "string",
    multiple: true,
    value: "FORMAT=PATH",
    group: "output",
    description:
      "write a report: json=..., junit=..., html=... (paths from the working directory); repeat for several",
  },
  har: {
    type: "string",
    value: "FILE",
    group: "output",
    description:
      "every exchange of the run (checks, pact interactions, state calls, neighbours) as HAR 1.2, secrets redacted",
  },
  "replay-dir": {
    type: "string",
    value: "DIR",
    group: "output",
    description:
      "write a vitest file per failure that replays its request and fails until the provider is fixed [extension]",
  },
  version: { type: "boolean", group: "general", description: "print the version" },
  help: { type: "boolean", short: "h", group: "general", description: "print this help" },
} as const satisfies FlagTable;

/** The type of idp-verify's flag table. */
export type Flags = typeof FLAGS;
