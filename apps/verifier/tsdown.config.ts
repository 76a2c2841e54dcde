import { defineConfig } from "tsdown";

export default defineConfig({
  // pact-worker runs Pact's Verifier in a child process; pact.ts finds it next to itself.
  entry: ["src/index.ts", "src/cli.ts", "src/pact-worker.ts"],
  format: "esm",
  platform: "node",
  target: "node22",
  dts: true,
  clean: true,
  // The embedded reference provider is loaded at run time when installed (the workspace), never
  // bundled: @idp/provider is private, and a published idp-verify asks for --provider-url instead.
  deps: { neverBundle: ["@idp/provider"] },
});
