// The one typecheck program of the packages other than the verifier: it holds exactly what their
// own tsconfig.json files include, and refuses a package that would be checked differently alone.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TOGETHER, togetherConfig } from "../typecheck-together.mjs";
import { planter } from "./support/planted.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const workspace = planter("typecheck-together-");

/** The repository's own tsconfig files of the packages checked together. */
const ownConfigs = () =>
  Object.fromEntries(
    TOGETHER.map((dir) => [
      `${dir}/tsconfig.json`,
      readFileSync(join(root, dir, "tsconfig.json"), "utf8"),
    ]),
  );

describe("typecheck-together", () => {
  it("includes each package's own includes under its folder, on the shared base", () => {
    const config = togetherConfig(root);
    expect(config.extends).toBe(join(root, "tsconfig.base.json"));
    for (const dir of TOGETHER) {
      const own = JSON.parse(readFileSync(join(root, dir, "tsconfig.json"), "utf8")).include;
      for (const pattern of own) expect(config.include).toContain(join(root, dir, pattern));
    }
    expect(config.include.some((p) => p.startsWith(join(root, "apps", "verifier")))).toBe(false);
  });

  it("refuses a package whose tsconfig sets options of its own, naming the file", () => {
    const planted = workspace({
      ...ownConfigs(),
      "apps/provider/tsconfig.json": {
        extends: "../../tsconfig.base.json",
        compilerOptions: { lib: ["ES2023", "DOM"] },
        include: ["src"],
      },
    });
    expect(() => togetherConfig(planted)).toThrow(
      /^apps\/provider\/tsconfig\.json: expected only "extends": "\.\.\/\.\.\/tsconfig\.base\.json" and "include"/,
    );
  });
});
