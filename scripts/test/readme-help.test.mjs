// Each command's --help is shown in its package's README exactly as the built bin prints it
// (versions aside); the root README links to those blocks and keeps the two commands a newcomer
// starts with; READMEs stay short enough to finish.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { slug } from "../check-md-links.mjs";
import { COMMANDS, helpOf, normalise, readmeHelp, withHelp } from "../readme-help.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const read = (file) => readFileSync(join(root, file), "utf8");
const readme = read("README.md");

describe("package READMEs", () => {
  it.each(COMMANDS)("show `%s --help` as the built bin prints it", (command, bin, file) => {
    if (!existsSync(join(root, bin)))
      throw new Error(`${bin} is missing: build first (pnpm exec turbo run build)`);
    const shown = readmeHelp(read(file), command);
    expect(shown, `${file}: no "\`${command} --help\`" block`).toBeDefined();
    // On a difference: node scripts/readme-help.mjs --write
    expect(normalise(shown ?? "")).toBe(normalise(helpOf(bin)));
  });

  const packageReadmes = ["packages", "apps"].flatMap((top) =>
    readdirSync(join(root, top))
      .map((dir) => `${top}/${dir}/README.md`)
      .filter((file) => existsSync(join(root, file))),
  );
  it.each(packageReadmes)("%s has at most 400 lines", (file) => {
    expect(read(file).split("\n").length - 1).toBeLessThanOrEqual(400);
  });
});

describe("README.md", () => {
  it("keeps the newcomer's two commands, first", () => {
    const verify = readme.indexOf(". scripts/bootstrap.sh && pnpm install && pnpm verify\n");
    const test = readme.indexOf(". scripts/bootstrap.sh && pnpm install && pnpm test\n");
    expect(verify).toBeGreaterThan(0);
    expect(test).toBeGreaterThan(verify);
    expect(readme.slice(0, verify)).not.toMatch(/```[\s\S]*```/); // no other command before them
  });

  it("links to each command's --help block instead of repeating it", () => {
    // (check-md-links.mjs checks that each anchor names a heading of its README)
    const links = {
      "idp-verify": `apps/verifier/README.md#${slug("`idp-verify --help`")}`,
      "idp-gen": "packages/generators/README.md#cli",
      "idp-pacts": `packages/pact-consumer/README.md#${slug("`idp-pacts --help`")}`,
      "idp-provider": `apps/provider/README.md#${slug("`idp-provider --help`")}`,
    };
    for (const [command] of COMMANDS) {
      expect(readme).toContain(`](${links[command]})`);
      expect(readmeHelp(readme, command), `README.md repeats ${command} --help`).toBeUndefined();
    }
  });

  it("has at most 250 lines", () => {
    expect(readme.split("\n").length - 1).toBeLessThanOrEqual(250);
  });
});

describe("readme-help.mjs", () => {
  it("finds a block under a heading or a line, ignores version numbers, rewrites it", () => {
    const text = "x\n### `idp-gen --help`\n\n```text\nidp-gen 1.2.3: bodies\n  --count N\n```\n";
    expect(readmeHelp(text, "idp-gen")).toBe("idp-gen 1.2.3: bodies\n  --count N");
    expect(readmeHelp("`idp-gen --help` prints:\n\n```\nhelp\n```\n", "idp-gen")).toBe("help");
    expect(
      readmeHelp("see `idp-gen --help` for more\n```\nhelp\n```\n", "idp-gen"),
    ).toBeUndefined();
    expect(readmeHelp(text, "idp-verify")).toBeUndefined();
    expect(withHelp(text, "idp-gen", "new")).toBe("x\n### `idp-gen --help`\n\n```text\nnew\n```\n");
    expect(normalise("idp-gen 1.2.3: x")).toBe(normalise("idp-gen 10.0.0-next.1: x"));
    expect(normalise("idp-gen 1.2.3: --count N")).not.toBe(normalise("idp-gen 1.2.3: --count M"));
  });
});
