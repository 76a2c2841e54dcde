// Every published package's README has a table of all its exports, as its sources say them, and
// installs from the release tarballs (nothing is on the registry; the @idp scope is not ours).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGES, ROOT } from "../pack-packages.mjs";
import { exportRows, staleReadmes } from "../readme-exports.mjs";

describe("package READMEs", () => {
  it("hold each package's exports table as src/index.ts gives it", () => {
    // On a difference: node scripts/readme-exports.mjs --write
    expect(staleReadmes().map((s) => `${s.name}: ${s.problem}`)).toEqual([]);
  });

  it.each(PACKAGES.map((p) => [p.name, p.dir]))("%s: every export is documented", (_name, dir) => {
    expect(
      exportRows(dir)
        .filter((r) => !r.doc)
        .map((r) => r.name),
    ).toEqual([]);
  });

  it.each(PACKAGES.map((p) => [p.name, p.dir]))(
    "%s: installs from the release tarballs, never from the registry",
    (name, dir) => {
      const readme = readFileSync(join(ROOT, dir, "README.md"), "utf8");
      expect(readme).not.toMatch(/npm (i|install) (-D )?@idp\//);
      expect(readme).toContain(`${name.slice(1).replace("/", "-")}-`);
    },
  );
});
