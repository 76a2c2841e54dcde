import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { flagUsage } from "@idp/contracts/cli";
import { describe, expect, it } from "vitest";
import { DEFAULT_DB_FILE, FLAGS, helpText, parseCli } from "./config.ts";

const creds = ["--username", "u", "--password", "p"];

describe("parseCli", () => {
  it("applies the defaults", () => {
    expect(parseCli(creds, {})).toEqual({
      kind: "run",
      config: {
        port: 8080,
        host: "127.0.0.1",
        db: DEFAULT_DB_FILE,
        credentials: { username: "u", password: "p" },
        providerStates: false,
        loginUsers: [],
        otherLoginAppUsers: [],
      },
    });
  });

  it("reads credentials from the environment, flags first", () => {
    const env = { IDP_USERNAME: "eu", IDP_PASSWORD: "ep" };
    expect(parseCli([], env)).toMatchObject({
      config: { credentials: { username: "eu", password: "ep" } },
    });
    expect(parseCli(["--password", "fp"], env)).toMatchObject({
      config: { credentials: { username: "eu", password: "fp" } },
    });
  });

  it("takes every flag, repeatable seeds, and a leading -- from pnpm", () => {
    const parsed = parseCli(
      [
        "--",
        "--port",
        "0",
        "--host",
        "0.0.0.0",
        "--db",
        ":memory:",
        "--provider-states",
        "--login-user",
        "a",
        "--login-user",
        "b",
        "--other-login-user",
        "c",
        ...creds,
      ],
      {},
    );
    expect(parsed).toMatchObject({
      kind: "run",
      config: {
        port: 0,
        host: "0.0.0.0",
        db: ":memory:",
        providerStates: true,
        loginUsers: ["a", "b"],
        otherLoginAppUsers: ["c"],
      },
    });
  });

  it.each([
    [[], "--username"],
    [["--username", "u"], "--password"],
    [["--username", "u:x", "--password", "p"], "--username"],
    [["--port", "http", ...creds], "--port"],
    [["--port", "65536", ...creds], "--port"],
    [["--port", "-1", ...creds], "--port"],
    [["--verbose", ...creds], "--verbose"],
    [["extra", ...creds], "extra"],
  ])("refuses %j, naming %s", (argv, flag) => {
    const parsed = parseCli(argv, {});
    expect(parsed.kind).toBe("error");
    if (parsed.kind === "error") {
      expect(parsed.message).toContain(flag);
      expect(parsed.message).not.toContain("\n");
    }
  });
});

describe("idp-provider's flags", () => {
  it("answers a mistyped flag with did-you-mean, one line", () => {
    expect(parseCli(["--prot", "1", ...creds], {})).toEqual({
      kind: "error",
      message: "unknown option --prot (did you mean --port?)",
    });
  });

  it("--version asks for the version, before the required credentials are looked at", () => {
    expect(parseCli(["--version"], {})).toEqual({ kind: "version" });
  });

  it("--version prints the package's version, exit 0 (the bin)", () => {
    const bin = fileURLToPath(new URL("./cli.ts", import.meta.url));
    const { version } = JSON.parse(
      readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"),
    ) as { version: string };
    const r = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`idp-provider ${version}\n`);
  });

  it("--help lists every flag of its table, with its default and variable", () => {
    expect(parseCli(["--help"], {})).toEqual({ kind: "help" });
    const help = helpText();
    for (const [name, spec] of Object.entries(FLAGS)) {
      const line = help.split("\n").find((l) => l.startsWith(`  ${flagUsage(name, spec)} `));
      expect(line, name).toBeDefined();
      if ("defaultText" in spec) expect(help).toContain(`(default: ${spec.defaultText})`);
      if ("env" in spec) expect(help).toContain(`(env ${spec.env.join(", ")})`);
    }
  });
});
