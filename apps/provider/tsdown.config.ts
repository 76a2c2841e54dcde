import { defineConfig } from "tsdown";
import { declaredDeps } from "../../tsdown.shared.ts";
import manifest from "./package.json" with { type: "json" };

export default defineConfig({
  entry: ["src/index.ts", "src/cli.ts"],
  format: "esm",
  platform: "node",
  target: "node22",
  dts: true,
  tsconfig: "tsconfig.build.json",
  clean: true,
  deps: declaredDeps(manifest),
});
