import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { helpText } from "../src/help.ts";
import { CONFORMANCE_CHECKS } from "../src/rules/index.ts";

describe("idp-verify --help", () => {
  it("is the block the README shows", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const block = /## `idp-verify --help`\n\n```text\n([\s\S]*?)\n```/.exec(readme)?.[1];
    const version = /^idp-verify (\S+):/;
    expect(block?.replace(version, "idp-verify X:")).toBe(
      helpText().trimEnd().replace(version, "idp-verify X:"),
    );
  });

  it("lists every check id with its rule and source, and every line fits 100 columns", () => {
    const help = helpText();
    for (const c of CONFORMANCE_CHECKS)
      expect(help).toMatch(
        new RegExp(
          `^  ${c.id.replaceAll(".", "\\.")} +${c.rule} \\((spec|pinned|spec \\+ pinned)\\): `,
          "m",
        ),
      );
    for (const line of help.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
  });
});
