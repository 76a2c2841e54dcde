import { defineConfig } from "vitest/config";

// Projects mode from the root: `pnpm vitest` runs every package's suite; each package keeps its own
// vitest.config.ts so turbo can run and cache them one by one.
export default defineConfig({ test: { projects: ["packages/*", "apps/*"] } });
