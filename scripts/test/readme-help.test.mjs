// The root README shows each command's --help exactly as the built bin prints it (versions aside),
// and keeps the two commands a newcomer starts with.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMANDS, helpOf, normalise, readmeHelp } from "../readme-help.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");

describe("README.md", () => {
  it.each(COMMANDS)("shows `%s --help` as the built bin prints it", (command, bin) => {
    if (!existsSync(join(root, bin)))
      throw new Error(`${bin} is missing: build first (pnpm exec turbo run build)`);
    const shown = readmeHelp(readme, command);
    expect(shown, `no "### \`${command} --help\`" block`).toBeDefined();
    // On a difference: node scripts/readme-help.mjs --write
    expect(normalise(shown ?? "")).toBe(normalise(helpOf(bin)));
  });

  it("keeps the newcomer's two commands", () => {
    expect(readme).toContain(". scripts/bootstrap.sh && pnpm install && pnpm verify\n");
    expect(readme).toContain(". scripts/bootstrap.sh && pnpm install && pnpm test\n");
  });
});

describe("readme-help.mjs", () => {
  it("finds a block and ignores version numbers, nothing else", () => {
    const text = "x\n### `idp-gen --help`\n\n```text\nidp-gen 1.2.3: bodies\n  --count N\n```\n";
    expect(readmeHelp(text, "idp-gen")).toBe("idp-gen 1.2.3: bodies\n  --count N");
    expect(readmeHelp(text, "idp-verify")).toBeUndefined();
    expect(normalise("idp-gen 1.2.3: x")).toBe(normalise("idp-gen 10.0.0-next.1: x"));
    expect(normalise("idp-gen 1.2.3: --count N")).not.toBe(normalise("idp-gen 1.2.3: --count M"));
  });
});
