import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readmeExampleTests } from "@idp/test-utils";
import { describe } from "vitest";

describe("README.md example", () => {
  // Its ```ts example block runs as pasted, prints what its `// →` comments say, and typechecks.
  readmeExampleTests(join(dirname(fileURLToPath(import.meta.url)), ".."));
});
