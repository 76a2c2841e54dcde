import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests import sibling packages from src/ through the "@idp/source" export condition, so a test run
// never depends on a stale dist/.
// The rest is vite's default server condition list (vite is not a direct dependency).
const conditions = ["@idp/source", "module", "node", "development|production"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@idp/source"] } },
  test: {
    setupFiles: [fileURLToPath(new URL("./vitest.setup.ts", import.meta.url))],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    // One worker process runs every file of a package (each file's setup still runs first): a fresh
    // process and module graph per file cost half of the small packages' test CPU (contracts 31 s
    // against 14 s). The verifier's too (its config adds a second worker).
    isolate: false,
  },
});
