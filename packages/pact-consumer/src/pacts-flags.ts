import type { CommandTable, FlagTable } from "@idp/contracts/cli";

// idp-pacts' commands and flags (conformance.md §5): the parsing, `--help` and "did you mean" all
// read these tables.

/** Whom can-i-deploy, doctor and record-* ask about. */
const WHO = {
  pacticipant: {
    type: "string",
    value: "NAME",
    defaultText: "the consumer the pact files name",
    description: "the pacticipant",
  },
  version: {
    type: "string",
    value: "V",
    defaultText: "PACT_CONSUMER_VERSION, else the git commit; another pacticipant needs --version",
    description: "its version",
  },
  "pacts-dir": {
    type: "string",
    value: "DIR",
    defaultText: "pacts/",
    description: "the pact files that name the default pacticipant",
  },
} as const satisfies FlagTable;

/** Where record-deployment and record-release record. */
const ENVIRONMENT_FLAG = {
  type: "string",
  value: "ENV",
  description: "the environment (required)",
} as const;

/** can-i-deploy's waiting for a verification still to come (pact-broker's names for it). */
export const RETRY_FLAGS = {
  "retry-while-unknown": {
    type: "string",
    value: "N",
    defaultText: "0",
    description: "ask again up to N times while only verifications are missing; also after --",
  },
  "retry-interval": {
    type: "string",
    value: "S",
    defaultText: "10",
    description: "seconds between those asks; also after --",
  },
} as const satisfies FlagTable;

/** The commands, in `--help` order, each with its own flags (pact-broker's own go after `--`). */
export const PACTS_COMMANDS = {
  publish: {
    summary: "every pact of --pacts-dir as this commit, on this branch (pnpm pacts:publish)",
    flags: {
      "pacts-dir": {
        type: "string",
        value: "DIR",
        defaultText: "pacts/",
        description: "the pacts to publish",
      },
    },
  },
  "can-i-deploy": {
    summary:
      'may this version go to --to-environment? each integration\'s answer, a "no" with its reason and what to do (pnpm pacts:can-i-deploy)',
    flags: {
      "to-environment": {
        type: "string",
        value: "ENV",
        description: "the environment (required)",
      },
      ...WHO,
      ...RETRY_FLAGS,
    },
  },
  doctor: {
    summary:
      "the same for every environment the broker knows (or --to-environment), and what is wrong in its bookkeeping (pnpm pacts:doctor)",
    flags: {
      "to-environment": {
        type: "string",
        value: "ENV",
        defaultText: "every one the broker knows",
        description: "the environment",
      },
      ...WHO,
    },
  },
  "record-deployment": {
    summary: "this version is now deployed to --environment (pnpm pacts:record-deployment)",
    flags: { environment: ENVIRONMENT_FLAG, ...WHO },
  },
  "record-release": {
    summary: "this version is released to --environment (pnpm pacts:record-release)",
    flags: { environment: ENVIRONMENT_FLAG, ...WHO },
  },
  "check-contracts": {
    summary:
      "offline: pacts vs @idp/contracts (zod), the OpenAPI export round trip, pacts vs OpenAPI (pnpm contracts:check)",
    flags: {
      pacts: {
        type: "string",
        multiple: true,
        value: "PATH",
        defaultText: "the repo's pacts/, installed: ./pacts",
        description: "pact files or folders; repeat for several",
      },
      openapi: {
        type: "string",
        value: "FILE",
        defaultText: "generated",
        description: "an OpenAPI document",
      },
    },
  },
} as const satisfies CommandTable;

export type PactsCommand = keyof typeof PACTS_COMMANDS;

/** What the broker commands read from the environment (never from the command line). */
export const PACTS_ENVIRONMENT = {
  "broker-url": {
    type: "string",
    envOnly: true,
    env: ["PACT_BROKER_BASE_URL"],
    group: "environment",
    description: "the Pact Broker (user-info in it is the basic-auth login)",
  },
  "broker-username": {
    type: "string",
    envOnly: true,
    env: ["PACT_BROKER_USERNAME"],
    group: "environment",
    description: "basic auth (the open-source Pact Broker), with PACT_BROKER_PASSWORD",
  },
  "broker-password": {
    type: "string",
    envOnly: true,
    env: ["PACT_BROKER_PASSWORD"],
    group: "environment",
    description: "its password",
  },
  "broker-token": {
    type: "string",
    envOnly: true,
    env: ["PACT_BROKER_TOKEN"],
    group: "environment",
    description: "a bearer token (PactFlow) instead; a broker without auth needs neither",
  },
  "consumer-version": {
    type: "string",
    envOnly: true,
    env: ["PACT_CONSUMER_VERSION"],
    group: "environment",
    defaultText: "the git commit",
    description: "the version publish records, and the default --version",
  },
  "consumer-branch": {
    type: "string",
    envOnly: true,
    env: ["PACT_CONSUMER_BRANCH"],
    group: "environment",
    defaultText: "the git branch",
    description: "the branch publish records, needed on a detached HEAD",
  },
} as const satisfies FlagTable;

/** idp-pacts' own flags, before a command. */
export const PACTS_GENERAL = {
  help: {
    type: "boolean",
    short: "h",
    group: "general",
    description: "this text (also after a command)",
  },
  version: {
    type: "boolean",
    group: "general",
    description: "idp-pacts' version (alone: after a command, --version is the pacticipant's)",
  },
} as const satisfies FlagTable;
