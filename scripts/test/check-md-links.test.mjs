// The Markdown link check against planted files: each way a link can break is found, links that
// resolve are not, and GitHub's anchors are computed as GitHub computes them.
import { describe, expect, it } from "vitest";
import { anchorsOf, findings, linksOf, markdownFiles, slug } from "../check-md-links.mjs";
import { planter } from "./support/planted.mjs";

let root;
/** A folder of `files` (path to text). */
const plant = planter("check-md-links-");
const folder = (files) => {
  root = plant(files);
  return root;
};

describe("check-md-links", () => {
  it("slugs headings as GitHub does", () => {
    expect(slug("Answers on the wire (conformance.md §9)")).toBe(
      "answers-on-the-wire-conformancemd-9",
    );
    expect(slug("`idp-verify --help`")).toBe("idp-verify---help");
    expect(slug("3a. A staging deployment: gateway, API key, private CA, proxy")).toBe(
      "3a-a-staging-deployment-gateway-api-key-private-ca-proxy",
    );
    expect(slug("[@idp/contracts](packages/contracts/README.md)")).toBe("idpcontracts");
    expect(slug("Fault providers' hand provider (x × y → z)")).toBe(
      "fault-providers-hand-provider-x--y--z",
    );
    expect(slug("IDP_HEADER_<NAME> and Über")).toBe("idp_header_name-and-über");
    expect([...anchorsOf('# A\n## B\n## B\n```\n## C\n```\n<a id="x"></a>\n')]).toEqual([
      "a",
      "b",
      "b-1",
      "x",
    ]);
  });

  it("reads links outside code, and reference definitions", () => {
    const text =
      '[a](x.md) ![i](img.png "t") `[c](code.md)` [`d`](y.md#z) [e [f]](w.md)\n```\n[g](fenced.md)\n```\n[h]: ref.md\n';
    expect(linksOf(text).map((l) => l.target)).toEqual([
      "x.md",
      "img.png",
      "y.md#z",
      "w.md",
      "ref.md",
    ]);
    expect(linksOf(text)[0]?.line).toBe(1);
  });

  it("passes links that resolve, and follows no URL", () => {
    folder({
      "README.md":
        "# Top\n[self](#top) [doc](docs/guide.md#a-section) [dir](docs) [file](docs/x.txt)\n[web](https://example.invalid/nope) [mail](mailto:a@b)\n",
      "docs/guide.md": "## A section\n[back](../README.md#top)\n",
      "docs/x.txt": "x\n",
    });
    expect(findings(root, ["README.md", "docs/guide.md"])).toEqual([]);
  });

  it("finds a missing file, a missing anchor in the same and in another file", () => {
    folder({
      "README.md": "# Top\n[a](missing.md)\n[b](#nowhere)\n[c](docs/guide.md#gone)\n",
      "docs/guide.md": "## Here\n",
    });
    expect(findings(root, ["README.md"])).toEqual([
      "README.md:2: missing.md: no such file missing.md",
      "README.md:3: #nowhere: README.md has no heading with the anchor #nowhere",
      "README.md:4: docs/guide.md#gone: docs/guide.md has no heading with the anchor #gone",
    ]);
  });

  it("checks every Markdown file of this repository but the changesets", () => {
    const files = markdownFiles();
    expect(files).toContain("README.md");
    expect(files).toContain("apps/verifier/README.md");
    expect(files.some((f) => f.startsWith(".changeset/"))).toBe(false);
    expect(files.some((f) => f.includes("node_modules"))).toBe(false);
  });
});
