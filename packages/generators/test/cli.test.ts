import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { isWellFormed } from "./support/json-walk.ts";

// End to end: the built bin, as `pnpm gen` runs it (the bin imports @idp/contracts' dist).
const pkg = fileURLToPath(new URL("..", import.meta.url));
const cli = fileURLToPath(new URL("../dist/cli.mjs", import.meta.url));
const MAX_BUFFER = 256 * 1024 * 1024; // stress lines reach 1 MiB each
const run = (args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", maxBuffer: MAX_BUFFER });

// Never rebuild here: another package's tests may be running the same dist/ at this moment (CI's
// test task depends on build, which turbo runs first).
beforeAll(() => {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: build with \`pnpm exec turbo run build\` first`);
});

describe("idp-gen (built)", () => {
  it("should keep its shebang through the build", () => {
    expect(readFileSync(cli, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("should print the same bytes for the same seed", () => {
    const a = run(["push", "--invalid", "--count", "300", "--seed", "11"]);
    const b = run(["push", "--invalid", "--count", "300", "--seed", "11"]);
    expect(a.status).toBe(0);
    expect(a.stdout.split("\n")).toHaveLength(301);
    expect(b.stdout).toBe(a.stdout);
    expect(run(["push", "--invalid", "--count", "300", "--seed", "12"]).stdout).not.toBe(a.stdout);
  });

  it("should print the drawn seed on stderr when none is given, so the run can be replayed", () => {
    const first = run(["create-schema", "--count", "5"]);
    const seed = /--seed (-?\d+)/.exec(first.stderr)?.[1];
    expect(seed).toBeDefined();
    expect(run(["create-schema", "--count", "5", "--seed", String(seed)]).stdout).toBe(
      first.stdout,
    );
  });

  it.each([
    [["bogus"], 'unknown operation "bogus"'],
    [["push", "--count", "-1"], '--count must be a whole number >= 1 (received "-1")'],
    [["push", "--cout", "3"], "unknown option --cout (did you mean --count?)"],
    [["push", "--invalid", "--stress"], "cannot be combined"],
  ])("should exit 2 with one line and no stack on bad input: %j", (argv, message) => {
    const r = run(argv);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toMatch(/^idp-gen: .*\(see idp-gen --help\)\n$/);
    expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it("should print the package's version with --version", () => {
    const r = run(["--version"]);
    const { version } = JSON.parse(readFileSync(`${pkg}/package.json`, "utf8")) as {
      version: string;
    };
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
  });

  it("should explain itself with --help on stdout, exit 0", () => {
    const r = run(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    for (const part of [
      "Usage: idp-gen <operation> [options]",
      "Options:",
      "Default: 10.",
      "Examples:",
      "Bodies may hold any Unicode",
    ])
      expect(r.stdout).toContain(part);
  });

  it("should print only valid UTF-8 JSON lines, even for bodies cut short (the lone-surrogate regression, seed 1)", () => {
    const argv = [cli, "push", "--invalid", "--count", "3000", "--seed", "1"];
    const r = spawnSync(process.execPath, argv, { maxBuffer: MAX_BUFFER });
    expect(r.status).toBe(0);
    const text = new TextDecoder("utf-8", { fatal: true }).decode(r.stdout);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(3000);
    const loneEscape =
      /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;
    for (const line of lines) {
      expect(line).not.toMatch(loneEscape);
      const { body, raw } = JSON.parse(line) as { body: unknown; raw: boolean };
      if (raw) expect(isWellFormed(String(body))).toBe(true);
    }
  });

  it("should print --stress lines whose body is the exact text to send, at most 1 MiB", () => {
    const r = run(["create-schema", "--stress", "--count", "12", "--seed", "4"]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(12);
    for (const line of lines) {
      const c = JSON.parse(line) as {
        body: string;
        raw: boolean;
        stress: string;
        expected: object;
      };
      expect(c.raw).toBe(true);
      expect(Buffer.byteLength(c.body, "utf8")).toBeLessThanOrEqual(1_048_576);
      expect(() => JSON.parse(c.body)).not.toThrow();
    }
  });

  it("should stop quietly when the reader goes away (| head)", () => {
    const r = spawnSync(
      "sh",
      ["-c", `"${process.execPath}" "${cli}" push --count 100000 --seed 1 | head -n 2; exit "$?"`],
      {
        encoding: "utf8",
      },
    );
    expect(r.stdout.trim().split("\n")).toHaveLength(2);
    expect(r.stderr).toBe("");
  });

  describe("--profile", () => {
    const repo = fileURLToPath(new URL("../../../", import.meta.url));
    const shipped = join(repo, "profiles", "observed-service.json");
    // The oracle is the file itself: what it maps push's wrong-type violations to.
    const mapped = (
      JSON.parse(readFileSync(shipped, "utf8")) as {
        statusMapping: { pushToUserDevices: Record<string, number> };
      }
    ).statusMapping.pushToUserDevices["wrong-type"];
    const wrongTypeStatuses = (stdout: string) =>
      stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { kind: string; expectedStatus: number })
        .filter((c) => c.kind === "wrong-type")
        .map((c) => c.expectedStatus);
    const argv = ["push", "--invalid", "--count", "300", "--seed", "5"];

    it("should give push's wrong-type violations the status the shipped observed-service profile maps them to", () => {
      expect(mapped).toBe(422);
      // Relative to the working directory, whatever INIT_CWD an outer npm script left behind.
      const r = spawnSync(
        process.execPath,
        [cli, ...argv, "--profile", "../profiles/observed-service.json"],
        {
          cwd: join(repo, "apps"),
          encoding: "utf8",
          env: { ...process.env, INIT_CWD: tmpdir() },
        },
      );
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const statuses = wrongTypeStatuses(r.stdout);
      expect(statuses.length).toBeGreaterThan(10);
      expect(new Set(statuses)).toEqual(new Set([mapped]));
      // The default profile pins another status for the same lines: the profile made the change.
      expect(new Set(wrongTypeStatuses(run(argv).stdout))).toEqual(new Set([400]));
    });

    it.each([
      ["not JSON", "{ nope", "text that is not JSON"],
      [
        "a wrong key",
        '{"name":"x","statusMapping":{"pushToUserDevices":{"wrong-type":418}}}',
        "418",
      ],
    ])("should exit 2 with one line naming the file for a profile that is %s", (_, text, part) => {
      const dir = mkdtempSync(join(tmpdir(), "idp-gen-profile-"));
      try {
        writeFileSync(join(dir, "bad.json"), text);
        const r = spawnSync(process.execPath, [cli, "push", "--profile", "bad.json"], {
          cwd: dir,
          encoding: "utf8",
        });
        expect(r.status).toBe(2);
        expect(r.stdout).toBe("");
        expect(r.stderr).toMatch(
          /^idp-gen: profile bad\.json: .*expected .*\(see idp-gen --help\)\n$/,
        );
        expect(r.stderr).toContain(part);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("should exit 2 naming the file when it does not exist, with a did-you-mean for a built-in", () => {
      const r = run(["push", "--profile", "strcit"]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^idp-gen: profile strcit: expected .*did you mean "strict"\?/);
    });
  });
});
