import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The repository scripts' own tests (`pnpm test` runs them after the packages' builds, since one
// compares the READMEs with the built bins): `pnpm exec vitest run --config scripts/vitest.config.mjs`.
export default defineConfig({
  test: {
    name: "scripts",
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["scripts/test/**/*.test.mjs"],
    setupFiles: [fileURLToPath(new URL("../vitest.setup.ts", import.meta.url))],
    testTimeout: 60_000,
    // One worker for every file (as the packages, vitest.shared.ts).
    isolate: false,
  },
});
