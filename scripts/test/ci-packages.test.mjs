// .ci/run's background package job and the tests that need its packages meet at one file: the job
// writes its exit status to $IDP_CI_PACKAGES (its log beside it); @idp/test-utils' awaitCiPackages
// blocks until that file exists, then passes on 0 and throws, with the log's end, on anything else.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { awaitCiPackages } from "../../packages/test-utils/src/ci-packages.ts";

const dirs = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const jobDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "ci-packages-"));
  dirs.push(dir);
  return { dir, status: join(dir, "status") };
};

describe("awaitCiPackages", () => {
  it("returns at once outside .ci/run (no IDP_CI_PACKAGES)", () => {
    const started = performance.now();
    awaitCiPackages({});
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("waits for the job's status file, written by another process, and passes on 0", () => {
    const { status } = jobDir();
    // As .ci/run writes it: to a temporary name, then renamed, so it is never read half written.
    spawn("sh", ["-c", `sleep 0.6; echo 0 > "${status}.tmp" && mv "${status}.tmp" "${status}"`], {
      stdio: "ignore",
    });
    const started = performance.now();
    awaitCiPackages({ IDP_CI_PACKAGES: status });
    expect(performance.now() - started).toBeGreaterThan(400);
  });

  it("throws when the job failed, with its exit status and the end of its log", () => {
    const { dir, status } = jobDir();
    writeFileSync(
      join(dir, "log"),
      "Reading package lists...\nE: Unable to locate package chromium\n",
    );
    writeFileSync(status, "100\n");
    expect(() => awaitCiPackages({ IDP_CI_PACKAGES: status })).toThrow(
      /package job failed \(exit 100\); .*log ends: Reading package lists\.\.\. \| E: Unable to locate package chromium$/,
    );
  });
});
