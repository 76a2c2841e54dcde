// docs/learn-a-profile.md, run as written: each ```sh block's commands in order, each ```text block
// checked against the output of the commands before it (every line of it appears there), and the
// ```json block against the file `cat` shows, byte for byte. A small interpreter runs the commands
// the walkthrough uses: `export`, the hand provider started in the background (a real process,
// `node bench/support/run-hand-provider.mjs ... &`), `kill %1`, `pnpm verify ...` (idp-verify
// in-process, from a temporary directory so the profile is not written into the repository) and
// `cat`. `git` is the team's own: skipped. Port 8787 becomes a free port (other runs of this suite
// may hold 8787).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { runVerify } from "./support/run.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DOC = readFileSync(join(ROOT, "docs", "learn-a-profile.md"), "utf8");
const cwd = mkdtempSync(join(tmpdir(), "idp-walkthrough-"));
let background: ChildProcess | undefined;
afterAll(() => {
  background?.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

/** The fenced blocks of the walkthrough, in order. */
const blocks = [...DOC.matchAll(/^```(sh|text|json)\n([\s\S]*?)^```$/gm)].map((m) => ({
  kind: m[1] as "sh" | "text" | "json",
  body: m[2] as string,
}));

/** A command line split into words as sh does for these commands ('...' and "..." quoting). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

it("docs/learn-a-profile.md runs as written and ends green, then red naming the key and its source", async () => {
  const port = String(await freePort());
  const env: Record<string, string> = {};
  let output = "";
  let commands = 0;
  for (const block of blocks) {
    if (block.kind === "text") {
      if (process.env.SHOW) console.log("OUTPUT>>>", output);
      for (const line of block.body.split("\n").filter((l) => l.trim() !== ""))
        expect(output, `the output before this block holds: ${line}`).toContain(line.trim());
      continue;
    }
    if (block.kind === "json") {
      expect(output).toBe(block.body);
      continue;
    }
    output = "";
    for (const raw of block.body.split("\n")) {
      const line = raw.replaceAll("8787", port).trim();
      if (line === "" || line.startsWith("#")) continue;
      const [cmd, ...args] = words(line);
      commands++;
      if (cmd === "export") {
        for (const a of args) {
          const [name = "", ...value] = a.split("=");
          env[name] = value.join("=");
        }
      } else if (cmd === "git") {
        // Committing is the team's: not done to this repository by a test.
      } else if (cmd === "kill" && args[0] === "%1") {
        const exited = background ? once(background, "exit") : undefined;
        background?.kill("SIGTERM");
        await exited;
        background = undefined;
      } else if (cmd === "node" && args.at(-1) === "&") {
        expect(background, "one provider at a time").toBeUndefined();
        const child = spawn(process.execPath, args.slice(0, -1), {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? "", ...env },
          stdio: ["ignore", "pipe", "inherit"],
        });
        background = child;
        // Serving once it prints its addresses.
        await new Promise<void>((resolve, reject) => {
          child.stdout?.once("data", () => resolve());
          child.once("exit", (code) => reject(new Error(`the provider exited (${code})`)));
        });
      } else if (cmd === "pnpm" && args[0] === "verify") {
        // `pnpm verify` runs the bin where pnpm was run (scripts/run-bin.mjs).
        const run = await runVerify(args.slice(1), env, cwd);
        output += run.stdout;
      } else if (cmd === "cat") {
        output += readFileSync(join(cwd, args[0] ?? ""), "utf8");
      } else throw new Error(`the walkthrough runs a command this test does not know: ${line}`);
    }
  }
  // Every step ran: export, provider, red run, --learn, cat, git, kill, provider, green run, kill,
  // provider, red run, --learn, kill.
  expect(commands).toBe(14);
  expect(background).toBeUndefined();
});
