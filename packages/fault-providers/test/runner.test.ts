// bench/support/run-hand-provider.mjs, run as the benchmark runs it: its own process, one line out.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CREDENTIALS, call, setState } from "./support.ts";

const SCRIPT = fileURLToPath(
  new URL("../../../bench/support/run-hand-provider.mjs", import.meta.url),
);
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (c: string) => {
    stdout += c;
  });
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
  });
  const firstLine = () =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (stdout.includes("\n")) resolve(stdout.split("\n")[0] ?? "");
      };
      child.stdout?.on("data", check);
      check();
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
  return { child, firstLine, output: () => ({ stdout, stderr }) };
}

const ENV = { IDP_USERNAME: CREDENTIALS.username, IDP_PASSWORD: CREDENTIALS.password };

describe("run-hand-provider.mjs", () => {
  it("prints BASE_URL STATES_URL, serves the provider, exits 0 on SIGTERM", async () => {
    const r = run(["--fault", "crash-on-valid", "--unique-names"], ENV);
    const [baseUrl = "", statesUrl = "", ...rest] = (await r.firstLine()).split(" ");
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(statesUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_pact\/provider-states$/);
    expect(rest).toEqual([]);
    expect((await call(baseUrl, "createSchema")).status).toBe(201);
    expect((await call(baseUrl, "createSchema")).status).toBe(422); // --unique-names
    await setState(statesUrl, "a login user exists", { id: "user-1" });
    const push = await call(baseUrl, "pushToUserDevices", {
      body: {
        data: {
          message: "",
          title: "",
          small_icon: "",
          vibrate: true,
          vibrate_duration: 1,
          auto_cancel: true,
          big_style: true,
          activity_class: "",
          badge: 1,
          sound: "",
        },
      },
    });
    expect(push.status).toBe(500); // --fault crash-on-valid
    r.child.kill("SIGTERM");
    const [code] = await once(r.child, "exit");
    expect(code).toBe(0);
    expect(r.output().stdout.trim().split("\n")).toHaveLength(1);
  });

  it("serves a hostile transport without credentials", async () => {
    const r = run(["--hostile", "bad-json"]);
    const [baseUrl = ""] = (await r.firstLine()).split(" ");
    expect((await call(baseUrl, "createSchema", { auth: null })).status).toBe(401);
  });

  it.concurrent.each([
    [["--fault", "nope"], ENV, /--fault: expected one of crash-on-empty-name, .* got "nope"/],
    [["--reading", "strict"], ENV, /--reading: expected default or observed-service, got "strict"/],
    [["--hostile", "slow"], {}, /--hostile: expected one of hang, .* got "slow"/],
    [["--port", "x"], ENV, /--port: expected an integer/],
    [["--bogus"], ENV, /Unknown option '--bogus'/],
    [[], {}, /IDP_USERNAME and IDP_PASSWORD must be set/],
  ])("%j: exit 2 with one line naming the flag", async (args, env, message) => {
    const r = run(args, env);
    const [code] = await once(r.child, "exit");
    expect(code).toBe(2);
    const { stdout, stderr } = r.output();
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });
});
