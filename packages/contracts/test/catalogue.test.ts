import { describe, expect, it } from "vitest";
import { AREAS, type CatalogueEntry, catalogue, NOT_SHOWN, shapeRegistry } from "../src/index.ts";
import { specText, tableAfter } from "./spec-text.ts";

// Splits an enumeration of the spec into items: "a, b and c (d, e)" -> a, b, c, d, e.
function items(enumeration: string): string[] {
  return enumeration
    .replace(/\.$/, "")
    .split(/[;,()]| and /)
    .map((s) => s.trim().replace(/^(and|or) /, ""))
    .filter((s) => s.length > 0);
}

function areaBullets(): Map<string, string> {
  const section =
    specText.split("The operation areas are:")[1]?.split("Clustering behaviour")[0] ?? "";
  const bullets = new Map<string, string>();
  for (const line of section.split("\n")) {
    const m = /^- ([^:]+): (.*)$/.exec(line);
    if (m?.[1] && m[2]) bullets.set(m[1], m[2]);
  }
  return bullets;
}

const byArea = (area: string): CatalogueEntry[] => catalogue.filter((e) => e.area === area);

describe("the operation catalogue", () => {
  it("should have exactly the spec's twelve operation areas", () => {
    expect([...areaBullets().keys()]).toEqual([...AREAS]);
  });

  it.each([...areaBullets()])("should name every operation the spec lists for %s", (area, text) => {
    const mentioned = new Set(byArea(area).flatMap((e) => e.mentions));
    const missing = items(text).filter((item) => !mentioned.has(item));
    expect(missing).toEqual([]);
  });

  it("should carry every path of the spec's path table, with its method not shown", () => {
    for (const [path, operation] of tableAfter(specText, "Operations with a path given")) {
      const entry = catalogue.find((e) => e.path === path?.replace(/`/g, ""));
      expect(entry, `path ${path}`).toBeDefined();
      expect(entry?.mentions).toContain(operation);
      expect(entry?.method).toBe(NOT_SHOWN);
    }
  });

  it("should carry every operation of the spec's method table with that method", () => {
    for (const [operation, method] of tableAfter(specText, "Operations with a method given")) {
      const entry = catalogue.find((e) => e.name === operation);
      expect(entry, `operation ${operation}`).toBeDefined();
      expect(entry?.method).toBe(method?.split(" ")[0]);
      expect(entry?.detailed !== null).toBe(method?.includes("detailed below"));
    }
  });

  it("should carry every operation named in the other groups", () => {
    const line = specText
      .split("\n")
      .find((l) => l.startsWith("Operation names in the other groups"));
    const groups = [...(line ?? "").matchAll(/([^;():]+)\(([^)]*)\)/g)];
    expect(groups.length).toBeGreaterThanOrEqual(7);
    for (const [, label, list] of groups) {
      for (const op of (list ?? "").split(",").map((s) => s.trim())) {
        const entry = catalogue.find(
          (e) => e.listedUnder === label?.trim() && e.mentions.includes(op),
        );
        expect(entry, `${label?.trim()}: ${op}`).toBeDefined();
      }
    }
  });

  it("should contain nothing the spec lacks: every mention, path and deprecation is in the text", () => {
    for (const entry of catalogue) {
      for (const mention of entry.mentions) expect(specText, entry.id).toContain(mention);
      if (entry.path !== NOT_SHOWN && !entry.mentions.some((m) => m.includes(":user_id"))) {
        expect(specText, entry.id).toContain(entry.path);
      }
      if (entry.deprecated) expect(entry.area).toBe("Deprecated areas");
    }
  });

  it("should mark method and path as not shown wherever the spec does not give them", () => {
    const shown = catalogue.filter((e) => e.method !== NOT_SHOWN && e.path !== NOT_SHOWN);
    expect(shown.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
      "GET /login/users/{user_id}/clustering/features",
      "POST /marketing/datastore/schemas",
      "POST /marketing/push_notifications/login/users/{id}/publish",
      "PUT /marketing/login/apps/clustering/rules",
    ]);
    expect(
      catalogue
        .filter((e) => e.detailed)
        .map((e) => e.detailed)
        .sort(),
    ).toEqual(["createSchema", "pushToUserDevices", "updateClusteringRules"]);
  });

  it("should flag the deprecated groups and the clustering rules (since 2024-12-31)", () => {
    const deprecated = catalogue.filter((e) => e.deprecated !== false);
    expect(deprecated.map((e) => e.name)).toEqual(
      expect.arrayContaining([
        "social-network integration group",
        "client-record group",
        "Updates login app clustering rules (deprecated)",
      ]),
    );
    const rules = catalogue.filter((e) => e.name.includes("login app clustering rules"));
    expect(rules.map((e) => e.deprecated)).toEqual([
      { since: "2024-12-31" },
      { since: "2024-12-31" },
    ]);
  });

  it("should have unique ids", () => {
    expect(new Set(catalogue.map((e) => e.id)).size).toBe(catalogue.length);
  });
});

describe("the shape registry", () => {
  const paragraph =
    specText.split("\n").find((l) => l.startsWith("The following shape names exist")) ?? "";
  const listed = paragraph
    .split("by area.")[1]
    ?.split("The Wi-Fi area")[0]
    ?.replace(/plus deprecated[^.]*\./, "")
    .replace(
      /(OAuth|User management|Login and apps|Automation|Push|Groups|RBAC|Datastore|MFA|OIDC):/g,
      "",
    )
    .match(/\b[A-Z][A-Za-z0-9]+\b/g);

  it("should register every named shape of the spec, and nothing else", () => {
    expect(listed?.length).toBeGreaterThan(150);
    expect([...shapeRegistry.keys()].sort()).toEqual([...new Set(listed)].sort());
  });

  it("should give real schemas only to the tabulated shapes; every other shape is opaque", () => {
    const tabulated = [...shapeRegistry.values()].filter((s) => !s.opaque).map((s) => s.name);
    expect(tabulated.sort()).toEqual([
      "ClusteringRules",
      "CreateSchemaField",
      "CreateSchemaRequest",
      "SchemaPermissions",
      "UserPublishRequest",
    ]);
    const opaque = shapeRegistry.get("LoginApp");
    expect(opaque?.schema.safeParse({ anything: [1, "x"] }).success).toBe(true);
    expect(opaque?.schema.meta()?.description).toContain("not shown");
  });
});
