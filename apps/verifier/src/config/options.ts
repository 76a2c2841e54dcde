/** One command-line option of idp-verify: parsing, --help and "did you mean" all read this table. */
export interface OptionSpec {
  readonly name: string;
  readonly type: "string" | "boolean";
  readonly multiple?: true;
  readonly short?: string;
  /** The value's placeholder in --help, e.g. `URL`. */
  readonly value?: string;
  /** Environment variables read when the option is absent, first wins. */
  readonly env?: readonly string[];
  /** The default, as --help shows it. */
  readonly defaultText?: string;
  readonly description: string;
  readonly group: "provider" | "pacts" | "broker" | "checks" | "output" | "general";
}

/** The headings of `--help`'s option groups. */
export const GROUP_TITLES: { readonly [G in OptionSpec["group"]]: string } = {
  provider: "The provider",
  pacts: "Pacts",
  broker: "Pacts from a Pact Broker",
  checks: "What to check, and how",
  output: "Reports",
  general: "General",
};

/** conformance.md §5, plus the extensions marked so in their descriptions. */
export const OPTIONS: readonly OptionSpec[] = [
  {
    name: "provider-url",
    type: "string",
    value: "URL",
    group: "provider",
    defaultText: "the embedded reference provider (apps/provider, in memory)",
    description: "base address of the provider, ending in /v1",
  },
  {
    name: "username",
    type: "string",
    value: "U",
    env: ["IDP_USERNAME"],
    group: "provider",
    description: "Basic username",
  },
  {
    name: "password",
    type: "string",
    value: "P",
    env: ["IDP_PASSWORD"],
    group: "provider",
    description: "Basic password (prefer IDP_PASSWORD: shells and pnpm echo arguments)",
  },
  {
    name: "provider-states-url",
    type: "string",
    value: "URL",
    group: "provider",
    description:
      "Pact state-change URL (conformance.md §4); enables the login-user checks and the pact interactions with states",
  },
  {
    name: "pacts",
    type: "string",
    multiple: true,
    value: "PATH|URL",
    group: "pacts",
    defaultText: "the repo's pacts/ (without --broker-url)",
    description: "pact files, folders or http(s) URLs; repeat for several",
  },
  {
    name: "broker-url",
    type: "string",
    value: "URL",
    env: ["PACT_BROKER_BASE_URL"],
    group: "broker",
    description: "verify the pacts a Pact Broker selects for this provider",
  },
  {
    name: "broker-token",
    type: "string",
    value: "T",
    env: ["PACT_BROKER_TOKEN"],
    group: "broker",
    description: "bearer token (PactFlow)",
  },
  {
    name: "broker-username",
    type: "string",
    value: "U",
    env: ["PACT_BROKER_USERNAME"],
    group: "broker",
    description: "basic-auth user (the open-source Pact Broker)",
  },
  {
    name: "broker-password",
    type: "string",
    value: "P",
    env: ["PACT_BROKER_PASSWORD"],
    group: "broker",
    description: "basic-auth password",
  },
  {
    name: "consumer-version-selectors",
    type: "string",
    value: "JSON",
    group: "broker",
    defaultText: '[{"mainBranch":true},{"deployedOrReleased":true}]',
    description: "which consumer versions' pacts to verify",
  },
  {
    name: "enable-pending",
    type: "boolean",
    group: "broker",
    description: "a pending pact's failure does not fail the run",
  },
  {
    name: "include-wip-pacts-since",
    type: "string",
    value: "DATE",
    group: "broker",
    description: "also verify work-in-progress pacts since DATE (implies --enable-pending)",
  },
  {
    name: "publish-verification-results",
    type: "boolean",
    group: "broker",
    description: "publish the results to the broker (needs --provider-version)",
  },
  {
    name: "provider-version",
    type: "string",
    value: "V",
    group: "broker",
    description: "the provider version the results are for",
  },
  {
    name: "provider-branch",
    type: "string",
    value: "B",
    group: "broker",
    description: "the provider's branch (pending and WIP pacts are worked out per branch)",
  },
  {
    name: "checks",
    type: "string",
    value: "LIST",
    group: "checks",
    defaultText: "every check the given options allow",
    description:
      "comma list of check ids or prefixes (R1, R4.valid-accepted, pact); see the list below",
  },
  {
    name: "profile",
    type: "string",
    value: "default|strict|PATH",
    group: "checks",
    defaultText: "default",
    description:
      "how payloads and statuses are read (conformance.md §6): a built-in or a profile file",
  },
  {
    name: "runs",
    type: "string",
    value: "N",
    group: "checks",
    defaultText: "100",
    description: "property runs per conformance check",
  },
  {
    name: "seed",
    type: "string",
    value: "S",
    group: "checks",
    defaultText: "random (printed)",
    description: "the seed to generate from; the same seed replays the same requests",
  },
  {
    name: "timeout-ms",
    type: "string",
    value: "MS",
    group: "checks",
    defaultText: "10000",
    description: "per request (connect, headers and body)",
  },
  {
    name: "max-duration",
    type: "string",
    value: "SECONDS",
    group: "checks",
    defaultText: "600",
    description:
      "time limit of the whole run; a check stopped by it is incomplete (exit 2) [extension]",
  },
  {
    name: "concurrency",
    type: "string",
    value: "N",
    group: "checks",
    defaultText: "16",
    description: "requests in flight at once, shared by every check [extension]",
  },
  {
    name: "threads",
    type: "string",
    value: "N",
    group: "checks",
    defaultText: "1 for the checks; 2 instances of Pact's verifier on 2+ cores",
    description:
      "worker threads for the conformance checks; also instances of Pact's verifier at once (20+ interactions each) [extension]",
  },
  {
    name: "shard",
    type: "string",
    value: "i/n",
    group: "checks",
    description: "run only the i-th of n disjoint parts of the checks (CI matrices) [extension]",
  },
  {
    name: "require-cells",
    type: "boolean",
    group: "checks",
    description:
      "fail (exit 1) when no request got some documented client-error status (400, 401, 403, 404, 422) of an operation; the failed check cells.required names them [extension]",
  },
  {
    name: "report",
    type: "string",
    multiple: true,
    value: "FORMAT=PATH",
    group: "output",
    description:
      "write a report: json=..., junit=..., html=... (paths from the working directory); repeat for several",
  },
  {
    name: "replay-dir",
    type: "string",
    value: "DIR",
    group: "output",
    description:
      "write a vitest file per failure that replays its request and fails until the provider is fixed [extension]",
  },
  { name: "version", type: "boolean", group: "general", description: "print the version" },
  { name: "help", type: "boolean", short: "h", group: "general", description: "print this help" },
];
