import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { flagUsage } from "../src/cli/index.ts";
import { openApiJson } from "../src/openapi.ts";
import { OPENAPI_FLAGS, runOpenApi } from "../src/openapi-command.ts";

/** idp-openapi in this process: its exit status and what it wrote. */
function run(args: readonly string[]) {
  const out = { status: 0, stdout: "", stderr: "" };
  out.status = runOpenApi(args, {
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
  });
  return out;
}

describe("idp-openapi", () => {
  it("answers a mistyped flag with did-you-mean, exit 2, one line and no stack (the bin)", () => {
    const bin = fileURLToPath(new URL("../src/openapi-cli.ts", import.meta.url));
    const r = spawnSync(process.execPath, [bin, "--ot", "x"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("idp-openapi: unknown option --ot (did you mean --out?)\n");
  });

  it("--help lists every flag of its table, exit 0", () => {
    const r = run(["--help"]);
    expect(r.status).toBe(0);
    for (const [name, spec] of Object.entries(OPENAPI_FLAGS))
      expect(r.stdout).toContain(`  ${flagUsage(name, spec)}  `);
  });

  it("--version prints the package's version, exit 0", () => {
    const { version } = JSON.parse(
      readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"),
    ) as { version: string };
    const r = run(["--version"]);
    expect(r).toEqual({ status: 0, stdout: `idp-openapi ${version}\n`, stderr: "" });
  });

  it.each([
    [["--out"], "idp-openapi: --out needs a value (FILE)"],
    [["extra"], "idp-openapi: unexpected argument extra"],
    [["--out", "/nonexistent/dir/openapi.json"], "idp-openapi: cannot write --out"],
  ])("%j: exit 2, one line on stderr", (args, line) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toEqual([expect.stringContaining(line)]);
  });

  it("prints the document, or writes it to --out", () => {
    expect(run([]).stdout).toBe(openApiJson());
    const dir = mkdtempSync(join(tmpdir(), "idp-openapi-"));
    try {
      expect(run(["-o", join(dir, "o.json")]).status).toBe(0);
      expect(readFileSync(join(dir, "o.json"), "utf8")).toBe(openApiJson());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
