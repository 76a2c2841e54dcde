import { defineConfig } from "tsdown";

export default defineConfig({
  // pact-worker runs Pact's Verifier in a child process; pact.ts finds it next to itself.
  entry: ["src/index.ts", "src/cli.ts", "src/pact-worker.ts"],
  format: "esm",
  platform: "node",
  target: "node22",
  dts: true,
  clean: true,
});
