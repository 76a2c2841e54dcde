import { defineConfig } from "vitest/config";

// Pact's mock servers and one pact file: the test files run one after another.
export default defineConfig({ test: { fileParallelism: false } });
