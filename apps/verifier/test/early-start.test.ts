// The CLI starts the embedded provider's thread and a case thread before it loads the rest of the
// verifier (src/early-start.ts): the run takes them, and a run that needs neither is not held up.
import { fileURLToPath } from "node:url";
import { runNode } from "@idp/test-utils";
import { describe, expect, it } from "vitest";
import { startEarly } from "../src/early-start.ts";
import { nextEmbeddedCredentials } from "../src/embedded.ts";
import { verifyReport } from "./support/run.ts";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

describe("threads started before the verifier loads", () => {
  it("leaves the provider alone when --provider-url is given, in either form", () => {
    startEarly(["--provider-url", "http://127.0.0.1:9/v1", "--runs", "3"]);
    startEarly(["--provider-url=http://127.0.0.1:9/v1"]);
    startEarly(["--help"]);
    // No thread waits: each call makes new credentials.
    expect(nextEmbeddedCredentials()).not.toBe(nextEmbeddedCredentials());
  });

  it("the run takes the embedded provider started early, with its credentials", async () => {
    startEarly(["--runs", "5", "--seed", "3"]);
    const early = nextEmbeddedCredentials();
    expect(nextEmbeddedCredentials()).toBe(early);
    const run = await verifyReport(["--runs", "5", "--seed", "3"]);
    expect(run.code).toBe(0);
    expect(run.report?.embedded).toBe(true);
    // Taken: the next run gets a thread (and credentials) of its own.
    expect(nextEmbeddedCredentials()).not.toBe(early);
    // The early thread's password is a secret of the run like any other.
    expect(`${run.stdout}${run.stderr}${JSON.stringify(run.report)}`).not.toContain(early.password);
  });

  it("bad arguments still end the bin at once with exit 2: the threads started keep nothing alive", async () => {
    const r = await runNode(["--conditions=@idp/source", CLI, "--runz", "5"], {
      NODE_NO_WARNINGS: "1",
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--runz.*did you mean --runs/);
    expect(r.stderr.trim().split("\n")).toEqual([
      "idp-verify: E_CONFIG: unknown option --runz (did you mean --runs?)",
      "Run idp-verify --help for usage.",
    ]);
  });
});
