import { defineConfig } from "tsdown";
import { declaredDeps } from "../../tsdown.shared.ts";
import manifest from "./package.json" with { type: "json" };

export default defineConfig({
  // The pact worker runs Pact's verifier in a child process (pact/host.ts finds it next to itself);
  // the conformance worker runs checks in worker threads (engine/conformance.ts finds it); the case
  // worker generates a run's cases in a thread of their own (engine/case-feed.ts); the embedded
  // worker serves the embedded reference provider from a thread of its own (embedded.ts).
  entry: {
    index: "src/index.ts",
    cli: "src/cli.ts",
    "pact-worker": "src/pact/worker.ts",
    "conformance-worker": "src/engine/worker.ts",
    "case-worker": "src/engine/case-worker.ts",
    "embedded-worker": "src/embedded-worker.ts",
  },
  format: "esm",
  platform: "node",
  target: "node22",
  dts: true,
  tsconfig: "tsconfig.build.json",
  clean: true,
  // The embedded reference provider is loaded at run time when installed beside it (the workspace),
  // never bundled: without it, a published idp-verify asks for --provider-url instead.
  deps: declaredDeps(manifest, ["@idp/provider"]),
});
