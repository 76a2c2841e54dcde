import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { basic, PATHS, validRules, validSchema } from "./helpers.ts";

// Spawns the built CLI (run `pnpm exec tsdown` first; CI's test task depends on build).
const CLI = fileURLToPath(new URL("../dist/cli.mjs", import.meta.url));
const USER = "durable-user";
const PASSWORD = "durable-password";
const AUTH = basic(USER, PASSWORD);
const dir = mkdtempSync(join(tmpdir(), "idp-provider-"));
const db = join(dir, "provider.sqlite");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Cli {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function run(args: string[], env: Record<string, string> = {}): Cli {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build with \`pnpm exec tsdown\` first`);
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stderr })));
  return { child, exited };
}

/** Starts the CLI on a free port and resolves with its base URL once it logs "listening". */
async function serve(): Promise<Cli & { baseUrl: string }> {
  const cli = run(["--port", "0", "--db", db], { IDP_USERNAME: USER, IDP_PASSWORD: PASSWORD });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let buffer = "";
    cli.child.stderr?.on("data", (chunk: string) => {
      buffer += chunk;
      const match = /"msg":"listening","url":"([^"]+)"/.exec(buffer);
      if (match?.[1]) resolve(match[1]);
    });
    cli.exited.then(({ code, stderr }) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { ...cli, baseUrl };
}

describe("idp-provider (the built CLI)", () => {
  it("keeps acknowledged writes across kill -9", async () => {
    const first = await serve();
    const schema = validSchema("survives-kill-9");
    const created = await fetch(`${first.baseUrl}${PATHS.createSchema}`, {
      method: "POST",
      headers: { authorization: AUTH },
      body: JSON.stringify(schema),
    });
    expect(created.status).toBe(201);
    const rules = await fetch(`${first.baseUrl}${PATHS.clusteringRules}`, {
      method: "PUT",
      headers: { authorization: AUTH },
      body: JSON.stringify(validRules()),
    });
    expect(rules.status).toBe(200);
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    const second = await serve();
    try {
      const read = await fetch(`${second.baseUrl}${PATHS.createSchema}/survives-kill-9`, {
        headers: { authorization: AUTH },
      });
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual(schema);
      const readRules = await fetch(`${second.baseUrl}${PATHS.clusteringRules}`, {
        headers: { authorization: AUTH },
      });
      expect(await readRules.json()).toEqual(validRules());
    } finally {
      second.child.kill("SIGTERM");
      expect((await second.exited).code).toBe(0); // graceful shutdown
    }
  });

  it("loses no acknowledged write when killed -9 in the middle of a stream of writes", async () => {
    const first = await serve();
    const acknowledged: string[] = [];
    let killed = false;
    // Eight writers, each creating schemas back to back, some with a deep (1,000-level) value,
    // until the process is killed under them.
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const name = `stream-${w}-${i}`;
        const body = validSchema(name) as { schema: Record<string, unknown> };
        if (i % 3 === 0) body.schema.deep = JSON.parse(`${"[".repeat(998)}${"]".repeat(998)}`);
        try {
          const response = await fetch(`${first.baseUrl}${PATHS.createSchema}`, {
            method: "POST",
            headers: { authorization: AUTH },
            body: JSON.stringify(body),
          });
          if (response.status === 201) acknowledged.push(name);
        } catch {
          return; // the connection died with the process: this write was never acknowledged
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    while (acknowledged.length < 60) await new Promise((r) => setTimeout(r, 5));
    first.child.kill("SIGKILL");
    killed = true;
    expect((await first.exited).signal).toBe("SIGKILL");
    await Promise.all(writers);

    const second = await serve();
    try {
      const list = await fetch(`${second.baseUrl}${PATHS.createSchema}`, {
        headers: { authorization: AUTH },
      });
      const stored = new Set(
        ((await list.json()) as { schemas: { name: string }[] }).schemas.map((x) => x.name),
      );
      expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  });

  it("refuses to start without credentials: one line, exit 2", async () => {
    const { code, stderr } = await run(["--port", "0", "--db", ":memory:"]).exited;
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toEqual([
      "idp-provider: --username (or IDP_USERNAME) is required (see --help)",
    ]);
  });
});
