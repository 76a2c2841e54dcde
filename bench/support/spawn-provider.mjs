// Starts bench/support/run-hand-provider.mjs in its own process and reads its `BASE_URL STATES_URL`.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const runner = fileURLToPath(new URL("./run-hand-provider.mjs", import.meta.url));

export function spawnProvider(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--no-warnings", runner, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) {
        const [baseUrl, statesUrl] = line.trim().split(" ");
        resolve({
          baseUrl,
          statesUrl,
          pid: child.pid,
          stop: () =>
            new Promise((r) => {
              child.once("exit", r);
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`run-hand-provider exited ${code}: ${out}`)));
  });
}
