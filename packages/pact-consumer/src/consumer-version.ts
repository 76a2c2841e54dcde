import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { PactsCliError } from "./errors.ts";
import { PACTS_DIR } from "./pact-names.ts";

// The consumer version and branch a pact is published as, and the default version of every other
// command: git's commit and branch, or PACT_CONSUMER_VERSION and PACT_CONSUMER_BRANCH.

type Env = Readonly<Record<string, string | undefined>>;

/** The version and branch a pact is published as (git's, or PACT_CONSUMER_VERSION / PACT_CONSUMER_BRANCH). */
export interface ConsumerVersion {
  readonly version: string;
  readonly branch: string;
}

const nonEmpty = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== "";

/** The repository root (the folder above pacts/). */
export const REPO_ROOT = dirname(PACTS_DIR.replace(/[/\\]$/, ""));

/** The consumer version: PACT_CONSUMER_VERSION, else the git commit. Needs no branch. */
export function readConsumerVersionNumber(env: Env, cwd: string = REPO_ROOT): string {
  return nonEmpty(env.PACT_CONSUMER_VERSION)
    ? env.PACT_CONSUMER_VERSION.trim()
    : git(["rev-parse", "HEAD"], cwd, "PACT_CONSUMER_VERSION");
}

/**
 * Consumer version = the git commit (PACT_CONSUMER_VERSION overrides); branch = the git branch
 * (PACT_CONSUMER_BRANCH overrides). Only publishing needs the branch.
 */
export function readConsumerVersion(env: Env, cwd: string = REPO_ROOT): ConsumerVersion {
  const version = readConsumerVersionNumber(env, cwd);
  const branch = nonEmpty(env.PACT_CONSUMER_BRANCH)
    ? env.PACT_CONSUMER_BRANCH.trim()
    : git(["rev-parse", "--abbrev-ref", "HEAD"], cwd, "PACT_CONSUMER_BRANCH");
  if (branch === "HEAD") {
    throw new PactsCliError(
      "E_GIT",
      "git HEAD is detached, so there is no branch name to publish under: set PACT_CONSUMER_BRANCH (in CI, e.g. the branch the build is for)",
    );
  }
  return { version, branch };
}

function git(args: string[], cwd: string, override: string): string {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
      .toString()
      .trim();
  } catch (cause) {
    throw new PactsCliError(
      "E_GIT",
      `\`git ${args.join(" ")}\` failed in ${cwd}; set ${override}`,
      {
        cause,
      },
    );
  }
}
